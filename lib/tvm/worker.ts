// A TVM worker (started by pool.ts): one @ton/sandbox emulator (WebAssembly) that runs one job at a
// time. It lives in its own thread with its own heap cap so that an input that traps, aborts or
// exhausts the emulator takes down only this worker, which the pool then replaces.
import { parentPort } from 'node:worker_threads';
import { Address, Cell, parseTuple } from '@ton/core';
import { Executor } from '@ton/sandbox';
import type { TvmJob, TvmReply, TvmWorkerReady } from './jobs';

// Get-methods and the config in the emulator's memory. The emulator build @ton/sandbox ships exports
// only run_get_method(params, stack, config) for get-methods (no tvm_emulator_* nor a parsed-config
// object), so it parses the config BoC on every run; what can be saved is handing it over: as a JS
// string (~150 KB on mainnet) it is UTF-8 encoded into the WebAssembly heap on every call, ~2 ms of
// CPU a run. So each config is copied into this worker's emulator heap once and the run gets its
// address: Executor.invoke passes numbers to the emulator as they are (pointers) and strings as copies.

/** The parts of the emscripten module inside Executor (a private field) used to keep a config in its heap. */
interface EmulatorHeap {
  _malloc(size: number): number;
  _free(ptr: number): void;
  lengthBytesUTF8(s: string): number;
  stringToUTF8(s: string, ptr: number, size: number): void;
}

const CONFIGS_PINNED = 4;
// Configs in the emulator's heap, by their base64 BoC, most recently used last.
const pinned = new Map<string, number>();

function emulatorHeap(ex: Executor): EmulatorHeap | undefined {
  const heap = (ex as unknown as { module?: Partial<EmulatorHeap> }).module;
  return typeof heap?._malloc === 'function' && typeof heap._free === 'function' && typeof heap.stringToUTF8 === 'function'
    ? (heap as EmulatorHeap)
    : undefined;
}

/** The address of `config` as a C string in the emulator's heap (copied on first use), or the string itself. */
function pinConfig(ex: Executor, config: string): string {
  const heap = emulatorHeap(ex);
  if (!heap) return config; // another executor build: hand the string over as Executor does
  let ptr = pinned.get(config);
  if (ptr === undefined) {
    const size = heap.lengthBytesUTF8(config) + 1;
    ptr = heap._malloc(size);
    heap.stringToUTF8(config, ptr, size);
    if (pinned.size >= CONFIGS_PINNED) {
      const [oldest, at] = pinned.entries().next().value!;
      pinned.delete(oldest);
      heap._free(at);
    }
  } else {
    pinned.delete(config);
  }
  pinned.set(config, ptr);
  return ptr as unknown as string; // Executor passes numbers through to the emulator untouched
}

const cell = (b64: string) => Cell.fromBase64(b64);

async function run(ex: Executor, job: TvmJob): Promise<Omit<TvmReply, 'id'>> {
  if (job.kind === 'get') {
    // Synchronous from pinning to the emulator's return, so the pinned config cannot be evicted meanwhile.
    const get = await ex.runGetMethod({
      code: cell(job.code),
      data: cell(job.data),
      libs: job.libs ? cell(job.libs) : undefined,
      methodId: job.methodId,
      stack: job.stack ? parseTuple(cell(job.stack)) : [],
      config: pinConfig(ex, job.config),
      verbosity: job.verbosity,
      address: Address.parseRaw(job.address),
      unixTime: job.unixTime,
      balance: job.balance,
      randomSeed: Buffer.alloc(32),
      gasLimit: job.gasLimit,
      debugEnabled: false,
      extraCurrency: job.extraCurrency,
    });
    return { get };
  }
  const tx = await ex.runTransaction({
    config: job.config,
    libs: job.libs ? cell(job.libs) : null,
    verbosity: job.verbosity,
    shardAccount: job.shardAccount,
    message: cell(job.message),
    now: job.now,
    lt: job.lt,
    randomSeed: Buffer.from(job.randomSeed),
    ignoreChksig: job.ignoreChksig,
    debugEnabled: false,
  });
  return { tx };
}

const port = parentPort!;
void Executor.create().then(
  (ex) => {
    port.on('message', (msg: { id: number; job: TvmJob }) => {
      run(ex, msg.job).then(
        (reply) => port.postMessage({ id: msg.id, ...reply } as TvmReply),
        (err: unknown) => port.postMessage({ id: msg.id, crashed: err instanceof Error ? err.message : String(err) } satisfies TvmReply),
      );
    });
    port.postMessage({ ready: true } satisfies TvmWorkerReady);
  },
  (err: unknown) => {
    throw err; // the pool sees the worker's error event and records why it failed
  },
);
