// The parts every Atlas process that reads the chain or indexes it builds the same way, in one place:
// `npm start` (lib/runtime.ts, the in-process indexer) and `npm run indexer` (scripts/indexer.ts, the
// indexer as its own process) both assemble the database, the lite client, the TVM pool, what streams
// commits, and the indexer with its metadata fetcher from here. What differs between them (the devnet, the
// API's own parts, a range backfill) stays with each.
// The indexer and the metadata fetcher are imported only when a process runs them: an API-only process
// (INDEXER=off on a real network) loads neither.
import type { LiteClient } from 'ton-lite-client';
import type { Config } from './config';
import { configuredTarget, openDatabase, type Database } from './db/database';
import { migrate } from './db/migrate';
import type { Indexer } from './indexer/follower';
import { createLiteClient, type LiteSource } from './lite';
import { log } from './log';
import type { MetadataFetcher } from './metadata/queue';
import { PendingTraces } from './pending';
import type { PendingStore } from './pending/store';
import type { EventBus } from './stream/bus';
import { publisherContext, StreamPublisher } from './stream/publisher';
import { TvmPool } from './tvm/pool';

/** Opens the configured database and brings its schema up to date (each migration logged); closed again if that fails. */
export async function openMigratedDatabase(cfg: Config, statementTimeoutMs: number): Promise<Database> {
  const t0 = Date.now();
  const db = await openDatabase(configuredTarget(cfg), { statementTimeoutMs });
  try {
    const result = await migrate(db, { onApply: (name) => log.info({ component: 'db', migration: name }, 'applying migration') });
    log.info({ component: 'db', engine: db.engine, applied: result.applied.length, ms: Date.now() - t0 }, 'database ready');
    return db;
  } catch (err) {
    await db.close();
    throw err;
  }
}

export interface ChainParts {
  /** The one lite client everything that reads the chain uses. */
  lite: LiteClient;
  /** One pool for get-methods, fee estimates, emulations and the indexer's derive stage. */
  tvm: TvmPool;
}

/** The lite client over `source` (LITE_TIMEOUT_MS, LITE_VERIFY) and the TVM pool. */
export function chainParts(cfg: Config, source: LiteSource): ChainParts {
  const lite = createLiteClient(source, { timeoutMs: cfg.liteTimeoutMs, verify: cfg.liteVerify });
  return { lite, tvm: new TvmPool({ log: log.child({ component: 'tvm' }) }) };
}

export interface StreamParts {
  /** Emulated traces of sent messages, kept in the process's pending store. */
  pending: PendingTraces;
  publisher: StreamPublisher;
}

/**
 * What streams a process's commits over `bus` (lib/stream): the publisher, and the pending traces (in
 * `store`) whose predictions it publishes once stored and settles as blocks are committed.
 */
export function streamParts(cfg: Config, parts: ChainParts & { db: Database; bus: EventBus; store: PendingStore }): StreamParts {
  const { db, lite, tvm, bus, store } = parts;
  const pending = new PendingTraces({ lite, tvm, store, prisma: db.prisma, log: log.child({ component: 'pending' }), onStored: (entry) => publisher.pendingStored(entry) });
  const publisher = new StreamPublisher({
    bus,
    ctx: publisherContext({ db, lite, tvm, testnet: cfg.network === 'testnet' }),
    log: log.child({ component: 'stream' }),
    pending,
  });
  return { pending, publisher };
}

export interface IndexerParts {
  indexer: Indexer;
  /** The off-chain metadata fetcher (METADATA_FETCH=on), next to what fills its queue. */
  metadata?: MetadataFetcher;
}

/**
 * The indexer over `db` (its own connections: a longer statement timeout on PostgreSQL), streaming what
 * it commits through `publisher` when there is one, and, with `fetchMetadata`, the metadata fetcher.
 * Neither is started: the caller runs, claims or backfills.
 */
export async function indexerParts(
  cfg: Config,
  parts: ChainParts & { db: Database; publisher?: StreamPublisher; startSeqno: number | undefined; fetchMetadata: boolean },
): Promise<IndexerParts> {
  const [{ Indexer }, { startMetadataFetcher }] = await Promise.all([import('./indexer/follower'), import('./metadata')]);
  const indexer = new Indexer({
    prisma: parts.db.prisma,
    client: parts.lite,
    log: log.child({ component: 'indexer' }),
    network: cfg.network,
    startSeqno: parts.startSeqno,
    tvm: parts.tvm,
    events: parts.publisher?.indexerEvents({ confirmed: cfg.stream.confirmed }),
  });
  const metadata = parts.fetchMetadata ? startMetadataFetcher(cfg, parts.db.prisma, log.child({ component: 'metadata' })) : undefined;
  return { indexer, metadata };
}
