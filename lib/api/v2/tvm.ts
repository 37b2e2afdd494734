// The TVM the v2 methods run contracts with (@ton/sandbox's executor, the emulator the chain itself
// uses), the configuration it needs, read once per masterchain block, and the libraries a contract's
// code reaches, fetched from the lite server.
import { beginCell, Cell, CellType, Dictionary } from '@ton/core';
import { Executor, type ExecutorGetMethodArgs, type ExecutorGetMethodResult } from '@ton/sandbox';
import type { LiteClient } from 'ton-lite-client';
import { Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema';
import { configRootFromProof } from '../../ton/config-proof';

let executor: Promise<Executor> | undefined;

/** One executor per process (it is a WebAssembly instance; creating one takes ~200 ms). */
export function tvmExecutor(): Promise<Executor> {
  executor ??= Executor.create();
  executor.catch(() => {
    executor = undefined;
  });
  return executor;
}

// The config of the last few masterchain blocks asked about, as the executor takes it (base64 BoC).
const CONFIGS_KEPT = 4;
const configs = new Map<string, Promise<string>>();

/** The configuration dictionary at masterchain block `block`, as a base64 BoC. */
export function configAt(client: LiteClient, block: tonNode_blockIdExt): Promise<string> {
  const key = block.rootHash.toString('hex');
  let config = configs.get(key);
  if (!config) {
    config = client.engine
      .query(Functions.liteServer_getConfigAll, { kind: 'liteServer.getConfigAll', mode: 0, id: block })
      .then((res) => configRootFromProof(res.configProof).toBoc().toString('base64'));
    config.catch(() => configs.delete(key));
    configs.set(key, config);
    if (configs.size > CONFIGS_KEPT) configs.delete(configs.keys().next().value!);
  }
  return config;
}

// Get-methods and the config in the emulator's memory. The emulator build @ton/sandbox ships exports
// only run_get_method(params, stack, config) for get-methods (no tvm_emulator_* nor a parsed-config
// object), so it parses the config BoC on every run; what can be saved is handing it over: as a JS
// string (~150 KB on mainnet) it is UTF-8 encoded into the WebAssembly heap on every call, ~2 ms of
// CPU a run. So each config is copied into the heap once and the run gets its address: Executor.invoke
// passes numbers to the emulator as they are (pointers) and strings as fresh copies.

/** The parts of the emscripten module inside Executor (a private field) used to keep a config in its heap. */
interface EmulatorHeap {
  _malloc(size: number): number;
  _free(ptr: number): void;
  lengthBytesUTF8(s: string): number;
  stringToUTF8(s: string, ptr: number, size: number): void;
}

// Configs in the emulator's heap, by their base64 BoC (equal configs of different blocks share one).
const pinned = new Map<string, number>();

function emulatorHeap(ex: Executor): EmulatorHeap | undefined {
  const heap = (ex as unknown as { module?: Partial<EmulatorHeap> }).module;
  return typeof heap?._malloc === 'function' && typeof heap._free === 'function' && typeof heap.stringToUTF8 === 'function'
    ? (heap as EmulatorHeap)
    : undefined;
}

/** The address of `config` as a C string in the emulator's heap (copied on first use), or the string itself. */
function pinConfig(ex: Executor, config: string): number | string {
  const heap = emulatorHeap(ex);
  if (!heap) return config; // another executor build: hand the string over as Executor does
  let ptr = pinned.get(config);
  if (ptr === undefined) {
    const size = heap.lengthBytesUTF8(config) + 1;
    ptr = heap._malloc(size);
    heap.stringToUTF8(config, ptr, size);
    pinned.set(config, ptr);
    if (pinned.size > CONFIGS_KEPT) {
      const [oldest, at] = pinned.entries().next().value!;
      pinned.delete(oldest);
      heap._free(at);
    }
  } else {
    // Most recently used last, so the eviction above drops the config unused longest.
    pinned.delete(config);
    pinned.set(config, ptr);
  }
  return ptr;
}

/** Runs a get-method in the shared executor, its config handed over from the emulator's heap. */
export async function runTvmGetMethod(args: ExecutorGetMethodArgs): Promise<ExecutorGetMethodResult> {
  const ex = await tvmExecutor();
  // Synchronous from pinning to the emulator's return (runGetMethod awaits nothing before it calls
  // into the emulator), so no other run can evict the pinned config in between.
  return ex.runGetMethod({ ...args, config: pinConfig(ex, args.config) as string });
}

/** Libraries by hash, as the executor takes them (a Hashmap 256 ^Cell). */
export type Libraries = Dictionary<Buffer, Cell>;

export function emptyLibraries(): Libraries {
  return Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
}

export function librariesCell(libs: Libraries): Cell | undefined {
  return libs.size > 0 ? beginCell().storeDictDirect(libs).endCell() : undefined;
}

/** Adds the library with `hash` to `libs` from the lite server; false when the server does not know it. */
export async function fetchLibrary(client: LiteClient, hash: Buffer, libs: Libraries): Promise<boolean> {
  const found = (await client.getLibraries([hash])).result.find((e) => e.hash.equals(hash));
  if (found) libs.set(hash, Cell.fromBoc(found.data)[0]!);
  return !!found;
}

/**
 * The libraries the cells under `roots` refer to by library cells, and those the libraries themselves
 * refer to, as far as the lite server knows them: what a transaction needs up front (the transaction
 * emulator, unlike run_get_method, does not say which library it missed).
 */
export async function librariesUnder(client: LiteClient, roots: Cell[]): Promise<Cell | undefined> {
  const libs = emptyLibraries();
  const seen = new Set<string>();
  const pending = [...roots];
  for (let cell = pending.pop(); cell; cell = pending.pop()) {
    const key = cell.hash().toString('hex');
    if (seen.has(key)) continue;
    seen.add(key);
    if (cell.type === CellType.Library) {
      // A library cell is its 8-bit type then the library's hash.
      const hash = cell.bits.subbuffer(8, 256)!;
      if (!libs.has(hash) && (await fetchLibrary(client, hash, libs))) pending.push(libs.get(hash)!);
    }
    pending.push(...cell.refs);
  }
  return librariesCell(libs);
}
