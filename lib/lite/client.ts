/**
 * Atlas's one way to the chain: a ton-lite-client LiteClient over either the devnet's in-process
 * engine or a pool of lite servers from a global config, with the cache layer (cache.ts) between.
 *
 *   const client = createLiteClient(liteSourceFor(config(), devnetEngine), { timeoutMs: config().liteTimeoutMs });
 *   await client.getMasterchainInfo();   // LiteTimeoutError → 504, LiteServerError → 500
 *   client.engine.close();               // closes the pool / inner engine
 */
import fs from 'node:fs';
import path from 'node:path';
import { LiteClient, type LiteEngine } from 'ton-lite-client';
import type { Config } from '../config';
import { log } from '../log';
import { CachedLiteEngine, TtlLru, type LiteCacheOptions } from './cache';
import type { LiteServerEndpoint } from './connection';
import { bundledGlobalConfig, loadGlobalConfig } from './global-config';
import { DEFAULT_LITE_TIMEOUT_MS, LitePool, type LitePoolOptions, type LiteServerStatus } from './pool';
import { VerifyingLiteEngine, type TrustAnchor } from './verify';

export type LiteSource = (
  /** An engine the caller owns (the devnet's InProcessLiteEngine); closing the client closes it. */
  | { kind: 'engine'; engine: LiteEngine; name?: string }
  /** Lite servers, e.g. from a global config. */
  | { kind: 'servers'; servers: LiteServerEndpoint[]; name?: string }
) & {
  /** The block proofs start from (the zero state, or a global config's init block): needed to verify. */
  anchor?: TrustAnchor;
};

export interface CreateLiteClientOptions {
  /** Per-request budget (default 5000 ms): waiting for a server, retries and all. */
  timeoutMs?: number;
  /** Pool settings for `servers` sources (reconnect backoff, pings, logger...). */
  pool?: Omit<LitePoolOptions, 'timeoutMs'>;
  /** Cache settings, or false to disable the cache. */
  cache?: LiteCacheOptions | false;
  /** Check the proofs of answers from the source's anchor (LITE_VERIFY, lib/lite/verify.ts). */
  verify?: boolean;
}

/** The client's engine: `client.engine` of what createLiteClient returns. */
export type AtlasLiteEngine = CachedLiteEngine;

export function createLiteClient(source: LiteSource, opts: CreateLiteClientOptions = {}): LiteClient {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_LITE_TIMEOUT_MS;
  const raw = source.kind === 'engine' ? source.engine : new LitePool(source.servers, { logger: log.child({ component: 'lite' }), ...opts.pool, timeoutMs });
  let inner: LiteEngine = raw;
  if (opts.verify) {
    if (!source.anchor) throw new Error(`LITE_VERIFY=on needs a trusted zero state or init block for ${source.name ?? 'this lite source'}, and it has none`);
    // Under the cache: only checked answers are cached.
    inner = new VerifyingLiteEngine(raw, source.anchor);
  }
  const engine = new CachedLiteEngine(inner, { timeoutMs, cache: opts.cache });
  const ttlMs = opts.cache === false ? 0 : (opts.cache?.immutableTtlMs ?? 60_000);
  return new LiteClient({
    engine,
    // LiteClient's DataLoaders batch keys with Promise.all: one failing lookup would fail its whole
    // batch. Batches of one keep failures apart (requests are still concurrent).
    batchSize: 1,
    // Its DataLoaders key by seqno without hashes and keep answers forever: bound them in time.
    cacheMap: () => new TtlLru<unknown, unknown>({ ttlMs: Math.max(ttlMs, 1), maxEntries: 1000 }),
  });
}

/**
 * Per-server status of a client's lite servers (address, state, last answer, last failure and why), or
 * undefined when it reads an in-process engine (the devnet). Checked by shape, not instanceof: health's
 * route bundle has its own copy of LitePool, not the one instrumentation's client was built with.
 */
export function liteServerStatus(client: LiteClient): LiteServerStatus[] | undefined {
  const inner = poolOf(client);
  return typeof inner?.status === 'function' ? inner.status() : undefined;
}

/** Asks each lite server of the client's pool for its head (LitePool.probe), then their status; undefined on an in-process engine. */
export async function probeLiteServers(client: LiteClient): Promise<LiteServerStatus[] | undefined> {
  await poolOf(client)?.probe?.();
  return liteServerStatus(client);
}

const poolOf = (client: LiteClient) => (client.engine as Partial<CachedLiteEngine>).inner as Partial<Pick<LitePool, 'status' | 'probe'>> | undefined;

/**
 * Where the lite client of this configuration reads from: the bundled mainnet/testnet config,
 * TON_GLOBAL_CONFIG for `custom`, or the devnet engine the caller supplies for `devnet`.
 */
export function liteSourceFor(
  cfg: Pick<Config, 'network' | 'globalConfigPath' | 'dataDir'>,
  devnetEngine?: LiteEngine | (() => LiteEngine),
  /** The in-process devnet's zero state (its masterchain state's root and file hashes): the anchor of its proofs. */
  devnetZeroState?: { rootHash: Buffer; fileHash: Buffer },
): LiteSource {
  // A global config's init block (a key block) is newer than its zero state: shorter proof chains.
  const anchorOf = (g: { initBlock?: TrustAnchor; zeroState?: TrustAnchor }) => g.initBlock ?? g.zeroState;
  switch (cfg.network) {
    case 'mainnet':
    case 'testnet': {
      const g = bundledGlobalConfig(cfg.network);
      return { kind: 'servers', servers: g.liteservers, name: cfg.network, anchor: anchorOf(g) };
    }
    case 'custom': {
      if (!cfg.globalConfigPath) throw new Error('TON_NETWORK=custom needs TON_GLOBAL_CONFIG');
      const g = loadGlobalConfig(cfg.globalConfigPath);
      return { kind: 'servers', servers: g.liteservers, name: cfg.globalConfigPath, anchor: anchorOf(g) };
    }
    case 'devnet': {
      if (devnetEngine) {
        const engine = typeof devnetEngine === 'function' ? devnetEngine() : devnetEngine;
        return { kind: 'engine', engine, name: 'devnet', anchor: devnetZeroState && { seqno: 0, ...devnetZeroState } };
      }
      // A process that does not run the devnet (`npm run indexer`) reaches it over ADNL, as any client would.
      const file = path.join(cfg.dataDir, 'devnet', 'global-config.json');
      if (!fs.existsSync(file)) throw new Error(`no devnet in ${cfg.dataDir} (${file} is missing): start it first with \`npm run devnet\` or \`npm start\``);
      const g = loadGlobalConfig(file);
      return { kind: 'servers', servers: g.liteservers, name: 'devnet', anchor: g.zeroState };
    }
  }
}
