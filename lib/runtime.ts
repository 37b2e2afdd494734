// Process-wide services: the database, the chain (the local devnet, or lite servers from a global
// config) behind one lite client, and the indexer. Next.js bundles instrumentation and each route handler
// separately, so module state is not shared between them: the one instance lives on globalThis. The app's
// route files hand services() to the handlers they build; nothing below them looks services up.
// The devnet and the indexer are imported only when this process runs them: an API-only process
// (INDEXER=off on a real network, or an API worker of an `npm start` cluster: lib/cluster) loads neither.
// The parts `npm run indexer` builds too come from lib/wiring.ts.
import type { LiteClient } from 'ton-lite-client';
import { createAccess, type Access } from './auth/access';
import { memoryLimiter, redisLimiter, type RateLimiter } from './auth/limiter';
import { config, type Config } from './config';
import { configuredTarget, INDEXER_STATEMENT_TIMEOUT_MS, openDatabase, type Database } from './db/database';
import { openReads, type Reads } from './db/replicas';
import type { Devnet } from './devnet';
import type { Indexer } from './indexer/follower';
import { liteSourceFor } from './lite';
import { log } from './log';
import type { MetadataFetcher } from './metadata/queue';
import type { PendingTraces } from './pending';
import { memoryPendingStore, redisPendingStore } from './pending/store';
import type { TvmPool } from './tvm/pool';
import { TraceCache } from './api/v3/trace-cache';
import { TransactionCache } from './api/v3/transaction-cache';
import { listeningSideCache, type SideCache } from './api/v3/side-cache';
import { SharedReads } from './api/v3/shared-reads';
import type { ClusterView } from './cluster/messages';
import { clusterPendingStore } from './cluster/pending-store';
import { clusterRole } from './cluster/role';
import { clusterView } from './cluster/worker';
import { processStream, type ProcessStream } from './cluster/stream';
import type { StreamPublisher } from './stream/publisher';
import { chainParts, indexerParts, openMigratedDatabase, streamParts } from './wiring';

export interface Services {
  config: Config;
  /** The primary database as the APIs use it (PostgreSQL: statement timeout DB_STATEMENT_TIMEOUT_MS). */
  db: Database;
  /** Where the v3 GET routes read the index: DATABASE_REPLICA_URLS's replicas in turn, or `db`. */
  reads: Reads;
  /** The in-process indexer's own connections (PostgreSQL: a longer statement timeout); `db` on PGlite. */
  indexerDb?: Database;
  /** The one lite client everything that reads the chain uses. */
  lite: LiteClient;
  /** API keys and rate limits (counted in Redis when REDIS_URL is set). */
  access: Access;
  limiter: RateLimiter;
  /** Worker threads that run the emulator (get-methods, fee estimates). */
  tvm: TvmPool;
  /** Emulated traces of the messages sent through this process, in the pending store (Redis with REDIS_URL). */
  pending: PendingTraces;
  /** Finished traces the v3 trace routes built (TRACE_CACHE_MB). */
  traceCache?: TraceCache;
  /** Finalized transactions' messages and descriptions the v3 routes mapped (TX_CACHE_MB). */
  txCache?: TransactionCache;
  /** The address_book and metadata rows the v3 routes keep while the database's change notices are heard (SIDE_CACHE_MB). */
  sideCache?: SideCache;
  /** Identical v3 GETs in flight share one read (API_SHARED_READS). */
  sharedReads?: SharedReads;
  /** The Streaming API: this process's bus and open streams (shared with the HTTP edge), and what publishes to them. */
  stream: ProcessStream;
  publisher: StreamPublisher;
  /** The local chain, when TON_NETWORK=devnet. */
  devnet?: Devnet;
  /** The in-process indexer (INDEXER=on). */
  indexer?: Indexer;
  /** The off-chain metadata fetcher, next to the indexer when METADATA_FETCH=on. */
  metadata?: MetadataFetcher;
  /** In an API worker of an `npm start` cluster: the primary's latest view (its indexer and devnet, every worker). */
  cluster?: () => ClusterView | undefined;
  startedAt: Date;
}

interface RuntimeState {
  starting?: Promise<Services>;
  stopping?: Promise<void>;
  signalsHooked?: boolean;
  /** Run first when the services stop (the cluster primary stops its API workers). */
  beforeStop?: (() => Promise<void>)[];
}

const KEY = Symbol.for('atlas.runtime');
const state: RuntimeState = ((globalThis as Record<symbol, unknown>)[KEY] ??= {}) as RuntimeState;

/** Starts the services once per process and returns them; concurrent callers share one start. */
export function services(): Promise<Services> {
  if (state.stopping) return Promise.reject(new Error('Atlas is shutting down'));
  // A test reaching here would start a devnet in ./.atlas and index it into DATABASE_URL's database.
  if (config().isTest) return Promise.reject(new Error('services() in a test: give the routes a chain and a database (lib/testing/chain.ts, lib/testing/api.ts)'));
  state.starting ??= start().catch((err) => {
    state.starting = undefined; // let a later call retry (e.g. PostgreSQL was briefly down)
    throw err;
  });
  return state.starting;
}

async function start(): Promise<Services> {
  const cfg = config();
  // An API worker of a cluster serves HTTP only: the primary runs the devnet and the one indexer.
  const role = clusterRole();
  const target = configuredTarget(cfg);
  const db = await openMigratedDatabase(cfg, cfg.dbStatementTimeoutMs);
  let devnet: Devnet | undefined;
  try {
    if (cfg.network === 'devnet' && role !== 'worker') {
      // An index built from another devnet must not be mixed with this one: the devnet checks its zero state.
      const indexed = await db.prisma.indexerState.findUnique({ where: { id: 'main' } });
      const { startDevnet } = await import('./devnet');
      devnet = await startDevnet({
        dataDir: cfg.dataDir,
        seed: cfg.devnet.seed,
        blockMs: cfg.devnet.blockMs,
        tps: cfg.devnet.tps,
        traffic: cfg.devnet.traffic,
        adnlPort: cfg.devnet.adnlPort,
        shards: cfg.devnet.shards,
        shardSchedule: cfg.devnet.shardSchedule,
        expectZeroState: indexed?.network === 'devnet' ? { rootHash: Buffer.from(indexed.zeroStateRootHash) } : undefined,
        log: log.child({ component: 'devnet' }),
      });
      log.info({ component: 'devnet', seqno: devnet.chain.lastSeqno, adnl: `${devnet.adnl.host}:${devnet.adnl.port}` }, 'devnet ready');
    }
  } catch (err) {
    await devnet?.close();
    await db.close();
    throw err;
  }
  const { lite, tvm } = chainParts(cfg, liteSourceFor(cfg, devnet?.engine, devnet?.zeroState));
  const reads = await openReads(db, cfg, log);
  // PGlite is one handle per process; on PostgreSQL the indexer's writes get connections of their own.
  const indexerDb = !cfg.indexer.inProcess || role === 'worker' ? undefined : target.engine === 'pglite' ? db : await openDatabase(target, { statementTimeoutMs: INDEXER_STATEMENT_TIMEOUT_MS });
  // What this process commits is streamed (lib/stream): predictions once in the pending store, the
  // indexer's blocks once committed. The bus reaches every process when REDIS_URL is set. Pending traces
  // are shared through Redis when there is one: the process that accepted a message may not be the one a
  // client asks.
  const stream = processStream(cfg, log);
  const store = cfg.redisUrl ? redisPendingStore(cfg.redisUrl) : clusterPendingStore(role, () => memoryPendingStore());
  const { pending, publisher } = streamParts(cfg, { db, lite, tvm, bus: stream.bus, store });
  // Metadata is fetched by the process that indexes (one fetcher per index, next to what fills its queue).
  const { indexer, metadata } = indexerDb
    ? await indexerParts(cfg, { db: indexerDb, lite, tvm, publisher, startSeqno: cfg.indexer.startSeqno, fetchMetadata: true })
    : { indexer: undefined, metadata: undefined };
  indexer?.run().catch((err) => log.error({ component: 'indexer', err: (err as Error).message }, 'indexer stopped'));
  const limiter = cfg.redisUrl ? redisLimiter(cfg.redisUrl, { log }) : memoryLimiter();
  const access = createAccess({
    prisma: db.prisma,
    limiter,
    anonRps: cfg.rateLimitAnonRps,
    exemptLoopback: cfg.rateLimitExemptLoopback,
    maxInFlightPerClient: cfg.maxInFlightPerClient,
    keysRequired: cfg.apiKeysRequired,
  });
  const traceCache = cfg.traceCacheBytes > 0 ? new TraceCache(cfg.traceCacheBytes) : undefined;
  const txCache = cfg.txCacheBytes > 0 ? new TransactionCache(cfg.txCacheBytes) : undefined;
  const sharedReads = cfg.apiSharedReads ? new SharedReads() : undefined;
  // No side-map cache with read replicas: a replica may replay a change after its notice came from the
  // primary, and a read of it would keep the old rows.
  const sideCache = cfg.replicas.urls.length ? undefined : await listeningSideCache(db, cfg.sideCacheBytes);
  hookSignals();
  const cluster = role === 'worker' ? clusterView : undefined;
  return { config: cfg, db, reads, indexerDb, lite, access, limiter, tvm, pending, traceCache, txCache, sideCache, sharedReads, stream, publisher, devnet, indexer, metadata, cluster, startedAt: new Date() };
}

/** Stops everything in reverse order of start; safe to call more than once. */
export function stopServices(): Promise<void> {
  state.stopping ??= (async () => {
    await Promise.all((state.beforeStop ?? []).map((fn) => fn()));
    const running = await state.starting?.catch(() => undefined);
    if (running) {
      await running.indexer?.stop();
      // The streams end with a reason (clients reconnect elsewhere) once what was committed is published.
      await running.publisher.close();
      await running.stream.close();
      await running.metadata?.stop();
      await running.limiter.close();
      await running.pending.close();
      await running.tvm.close();
      running.lite.engine.close();
      await running.devnet?.close();
      if (running.indexerDb !== running.db) await running.indexerDb?.close();
      await running.reads.close();
      await running.db.close();
    }
    log.info({ component: 'runtime' }, 'stopped');
  })();
  return state.stopping;
}

/**
 * The most a shutdown may take: past it the process exits anyway (code 1), whatever part of it still
 * waits — an emulation, a database or a lite server that does not answer must not keep a stopped
 * process alive. The indexer finishes its block, the pool its runs (each under LIMITS.tvmRunMs) well within it.
 */
export const SHUTDOWN_BUDGET_MS = 20_000;

/** `fn` runs first when the services stop, before the indexer and the rest. */
export function beforeStop(fn: () => Promise<void>): void {
  (state.beforeStop ??= []).push(fn);
}

function hookSignals() {
  if (state.signalsHooked || config().isTest) return;
  state.signalsHooked = true;
  let signalled = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // Every later signal is ignored rather than left to kill the process mid-shutdown: a cluster's worker
    // gets the terminal's or the process group's signal and the primary's SIGTERM too.
    process.on(signal, () => {
      if (signalled) return;
      signalled = true;
      log.info({ component: 'runtime', signal, budgetMs: SHUTDOWN_BUDGET_MS }, 'shutting down');
      setTimeout(() => {
        log.error({ component: 'runtime', budgetMs: SHUTDOWN_BUDGET_MS }, 'shutdown did not finish within its budget; exiting');
        process.exit(1);
      }, SHUTDOWN_BUDGET_MS).unref();
      stopServices().then(
        () => process.exit(0),
        (err) => {
          log.error({ component: 'runtime', err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
