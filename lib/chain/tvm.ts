// What get-methods, fee estimates and emulations hand the TVM pool (lib/tvm: @ton/sandbox's executor,
// the emulator the chain itself uses, in worker threads): the configuration it needs, read once per
// masterchain block, and the libraries a contract's code reaches, fetched from the lite server.
import { beginCell, Cell, CellType, Dictionary } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema';
import { configRootFromProof } from '../ton/config-proof';

// The config of the last few masterchain blocks asked about, as the executor takes it (base64 BoC).
const CONFIGS_KEPT = 4;
const configs = new Map<string, Promise<string>>();

// The last config read, and when: what recentConfig hands out while a newer block's is being read.
let lastRead: { at: number; config: string } | undefined;

/** The configuration dictionary at masterchain block `block`, as a base64 BoC. */
export function configAt(client: LiteClient, block: tonNode_blockIdExt): Promise<string> {
  const key = block.rootHash.toString('hex');
  let config = configs.get(key);
  if (!config) {
    config = client.engine
      .query(Functions.liteServer_getConfigAll, { kind: 'liteServer.getConfigAll', mode: 0, id: block })
      .then((res) => configRootFromProof(res.configProof).toBoc().toString('base64'));
    config.then(
      (c) => (lastRead = { at: Date.now(), config: c }),
      () => configs.delete(key),
    );
    configs.set(key, config);
    if (configs.size > CONFIGS_KEPT) configs.delete(configs.keys().next().value!);
  }
  return config;
}

/**
 * The config at `block` if it is at hand, else one read less than `maxAgeMs` ago while `block`'s is read
 * in the background. For predictions (pending traces): the config changes only in key blocks, rarely,
 * and reading it anew for every masterchain block would put a lite-server round trip and a proof check
 * in front of most emulations.
 */
export function recentConfig(client: LiteClient, block: tonNode_blockIdExt, maxAgeMs: number): Promise<string> {
  const known = configs.has(block.rootHash.toString('hex'));
  const fresh = configAt(client, block);
  if (known || !lastRead || Date.now() - lastRead.at > maxAgeMs) return fresh;
  fresh.catch(() => {}); // its failure is the next caller's to see
  return Promise.resolve(lastRead.config);
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
