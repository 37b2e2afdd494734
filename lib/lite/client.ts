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

export type LiteSource =
  /** An engine the caller owns (the devnet's InProcessLiteEngine); closing the client closes it. */
  | { kind: 'engine'; engine: LiteEngine; name?: string }
  /** Lite servers, e.g. from a global config. */
  | { kind: 'servers'; servers: LiteServerEndpoint[]; name?: string };

export interface CreateLiteClientOptions {
  /** Per-request budget (default 5000 ms): waiting for a server, retries and all. */
  timeoutMs?: number;
  /** Pool settings for `servers` sources (reconnect backoff, pings, logger...). */
  pool?: Omit<LitePoolOptions, 'timeoutMs'>;
  /** Cache settings, or false to disable the cache. */
  cache?: LiteCacheOptions | false;
}

/** The client's engine: `client.engine` of what createLiteClient returns. */
export type AtlasLiteEngine = CachedLiteEngine;

export function createLiteClient(source: LiteSource, opts: CreateLiteClientOptions = {}): LiteClient {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_LITE_TIMEOUT_MS;
  const inner = source.kind === 'engine' ? source.engine : new LitePool(source.servers, { logger: log.child({ component: 'lite' }), ...opts.pool, timeoutMs });
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
): LiteSource {
  switch (cfg.network) {
    case 'mainnet':
    case 'testnet':
      return { kind: 'servers', servers: bundledGlobalConfig(cfg.network).liteservers, name: cfg.network };
    case 'custom': {
      if (!cfg.globalConfigPath) throw new Error('TON_NETWORK=custom needs TON_GLOBAL_CONFIG');
      return { kind: 'servers', servers: loadGlobalConfig(cfg.globalConfigPath).liteservers, name: cfg.globalConfigPath };
    }
    case 'devnet': {
      if (devnetEngine) return { kind: 'engine', engine: typeof devnetEngine === 'function' ? devnetEngine() : devnetEngine, name: 'devnet' };
      // A process that does not run the devnet (`npm run indexer`) reaches it over ADNL, as any client would.
      const file = path.join(cfg.dataDir, 'devnet', 'global-config.json');
      if (!fs.existsSync(file)) throw new Error(`no devnet in ${cfg.dataDir} (${file} is missing): start it first with \`npm run devnet\` or \`npm start\``);
      return { kind: 'servers', servers: loadGlobalConfig(file).liteservers, name: 'devnet' };
    }
  }
}
