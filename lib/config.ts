// The only module that reads process.env. Every setting is validated once, at start-up; an invalid value
// stops the process with one line naming the variable (see scripts/start.ts and the README table).
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/** A whole number in [min, max] written in decimal; `what` is the expected form the error names. */
const intIn = (min: number, max: number, what: string) =>
  z
    .string()
    .regex(/^\d+$/, what)
    .transform(Number)
    .refine((n) => n >= min && n <= max, what);

const port = intIn(1, 65535, 'an integer from 1 to 65535');
const liteTimeout = intIn(100, 600_000, 'milliseconds, an integer from 100 to 600000');
const devnetBlockMs = intIn(50, 600_000, 'milliseconds, an integer from 50 to 600000');
const statementTimeout = intIn(100, 600_000, 'milliseconds, an integer from 100 to 600000');
const anonRps = intIn(1, 1_000_000, 'requests per second, an integer from 1 to 1000000');
const startSeqno = intIn(1, 0xffffffff, 'a masterchain seqno, an integer from 1');
const maxInFlight = intIn(1, 100_000, 'requests, an integer from 1 to 100000');
const perClientWhat = 'off, or requests, an integer from 1 to 100000';
// 0 stands for off here: zod puts the default back in place of a transform's undefined. The union's own
// message is the one a value matching neither form gets (`x`, an empty value).
const maxInFlightPerClient = z.union([z.literal('off').transform(() => 0), intIn(1, 100_000, perClientWhat)], { error: perClientWhat });
const answerTransactions = intIn(1, 100_000, 'transactions, an integer from 1 to 100000');
const shedDelay = intIn(10, 60_000, 'milliseconds, an integer from 10 to 60000');
const requestTimeout = intIn(1000, 600_000, 'milliseconds, an integer from 1000 to 600000');
const replicaMaxLag = intIn(100, 3_600_000, 'milliseconds, an integer from 100 to 3600000');
const cacheMb = intIn(0, 65_536, 'megabytes, an integer from 0 to 65536');
const streamConnections = intIn(1, 1_000_000, 'connections, an integer from 1 to 1000000');
const streamAddresses = intIn(1, 100_000, 'addresses, an integer from 1 to 100000');
const streamBufferKb = intIn(16, 1_048_576, 'kilobytes, an integer from 16 to 1048576');
const keepaliveMs = intIn(1000, 600_000, 'milliseconds, an integer from 1000 to 600000');
const streamMessageRate = intIn(1, 10_000, 'messages per second, an integer from 1 to 10000');
const apiWorkers = intIn(1, 256, 'API worker processes, an integer from 1 to 256');
const pageRenders = intIn(1, 1000, 'renders, an integer from 1 to 1000');

const devnetTps = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'messages per second, a number from 0 to 1000')
  .transform(Number)
  .refine((n) => n >= 0 && n <= 1000, 'messages per second, a number from 0 to 1000');

const devnetShards = z.enum(['1', '2', '4', '8'], { error: '1, 2, 4 or 8' }).transform(Number);

const shardSchedule = z
  .string()
  .regex(/^(off|cycle:[1-9]\d{0,5})$/, 'off, or cycle:N with N masterchain blocks from 1 to 999999 (e.g. cycle:20)')
  .transform((s): ShardScheduleConfig => (s === 'off' ? { kind: 'off' } : { kind: 'cycle', rounds: Number(s.slice('cycle:'.length)) }));

/** DEVNET_SHARD_SCHEDULE (the devnet's ShardSchedule). */
export type ShardScheduleConfig = { kind: 'off' } | { kind: 'cycle'; rounds: number };

const onOff = z
  .enum(['on', 'off', 'true', 'false', '1', '0'], { error: 'on or off' })
  .transform((v) => v === 'on' || v === 'true' || v === '1');

const isPostgresUrl = (s: string) => /^postgres(ql)?:\/\/./.test(s) && URL.canParse(s);

const postgresUrl = z
  .string()
  .refine(isPostgresUrl, 'a URL of the form postgresql://user@host:port/database');

/** One or more PostgreSQL URLs separated by commas. */
const postgresUrls = z
  .string()
  .transform((s) => s.split(',').map((u) => u.trim()).filter(Boolean))
  .refine((list) => list.length > 0 && list.every(isPostgresUrl), 'comma-separated URLs of the form postgresql://user@host:port/database');

const httpUrl = z
  .string()
  .refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), 'an http(s) URL such as https://ipfs.io/ipfs/');

const redisUrl = z
  .string()
  .refine((s) => /^rediss?:\/\/./.test(s) && URL.canParse(s), 'a URL of the form redis://host:port');

/** `*`, or origins (scheme://host[:port]) separated by commas. */
const corsOrigins = z
  .string()
  .transform((s) => s.split(',').map((o) => o.trim()).filter(Boolean))
  .refine((list) => list.length > 0 && (list.join() === '*' || list.every((o) => URL.canParse(o) && new URL(o).origin === o)), '* or a comma-separated list of origins such as https://app.example')
  .transform((list): '*' | string[] => (list.join() === '*' ? '*' : list));

const schema = z.object({
  PORT: port.default(3000),
  API_WORKERS: apiWorkers.optional(),
  ATLAS_DATA_DIR: z.string().min(1, 'a directory path').default('./.atlas'),
  DATABASE_URL: postgresUrl.optional(),
  DATABASE_REPLICA_URLS: postgresUrls.optional(),
  DATABASE_REPLICA_MAX_LAG_MS: replicaMaxLag.default(10_000),
  TON_NETWORK: z
    .enum(['devnet', 'mainnet', 'testnet', 'custom'], { error: 'one of devnet, mainnet, testnet, custom' })
    .default('devnet'),
  TON_GLOBAL_CONFIG: z.string().min(1, 'a path to a liteserver global config JSON file').optional(),
  LITE_TIMEOUT_MS: liteTimeout.default(5000),
  LITE_VERIFY: onOff.default(false),
  DB_STATEMENT_TIMEOUT_MS: statementTimeout.default(3000),
  TRACE_CACHE_MB: cacheMb.default(32),
  TX_CACHE_MB: cacheMb.default(32),
  SIDE_CACHE_MB: cacheMb.default(16),
  API_SHARED_READS: onOff.default(true),
  API_MAX_ANSWER_TRANSACTIONS: answerTransactions.default(1000),
  REDIS_URL: redisUrl.optional(),
  RATE_LIMIT_ANON_RPS: anonRps.default(20),
  RATE_LIMIT_EXEMPT_LOOPBACK: onOff.default(true),
  API_KEYS_REQUIRED: onOff.default(false),
  CORS_ORIGINS: corsOrigins.default('*'),
  TRUST_PROXY: onOff.default(false),
  MAX_IN_FLIGHT: maxInFlight.default(24),
  MAX_IN_FLIGHT_PER_CLIENT: maxInFlightPerClient.default(8),
  SHED_EVENT_LOOP_DELAY_MS: shedDelay.default(500),
  REQUEST_TIMEOUT_MS: requestTimeout.default(30_000),
  PAGE_CACHE: onOff.default(true),
  RATE_LIMIT_PAGES_RPS: anonRps.default(100),
  PAGE_RENDERS: pageRenders.default(2),
  DEVNET_BLOCK_MS: devnetBlockMs.default(2000),
  DEVNET_TPS: devnetTps.default(2),
  DEVNET_ADNL_PORT: z.union([z.literal('0').transform(() => 0), port]).default(46732),
  DEVNET_SEED: z.string().min(1).optional(),
  DEVNET_TRAFFIC: onOff.optional(),
  DEVNET_SHARDS: devnetShards.optional(),
  DEVNET_SHARD_SCHEDULE: shardSchedule.optional(),
  INDEXER: onOff.default(true),
  INDEXER_START_SEQNO: startSeqno.optional(),
  STREAM_MAX_CONNECTIONS_PER_KEY: streamConnections.default(100),
  STREAM_MAX_CONNECTIONS_PER_IP: streamConnections.default(20),
  STREAM_MAX_ADDRESSES: streamAddresses.default(1000),
  STREAM_BUFFER_KB: streamBufferKb.default(256),
  STREAM_KEEPALIVE_MS: keepaliveMs.default(15_000),
  STREAM_WS_MESSAGES_PER_SECOND: streamMessageRate.default(10),
  STREAM_CONFIRMED: onOff.default(true),
  METADATA_FETCH: onOff.default(false),
  METADATA_IPFS_GATEWAY: httpUrl.default('https://ipfs.io/ipfs/'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
});

export type Network = 'devnet' | 'mainnet' | 'testnet' | 'custom';

export interface Config {
  port: number;
  /**
   * HTTP API processes `npm start` runs on PostgreSQL (API_WORKERS, default one per CPU): more than one
   * makes a cluster (lib/cluster) — a primary with the devnet and the one indexer, workers sharing PORT.
   * PGlite is one process's database: always 1 there.
   */
  apiWorkers: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Read replicas of DATABASE_URL's database for the API's reads that tolerate lag (lib/db/replicas.ts). */
  replicas: {
    /** None: every read goes to DATABASE_URL. */
    urls: string[];
    /** A replica whose index is further behind the primary's is not read. */
    maxLagMs: number;
  };
  network: Network;
  globalConfigPath: string | undefined;
  /** Per-request lite server budget (waiting for a connection, retries and all); 504 after it. */
  liteTimeoutMs: number;
  /**
   * Check the proofs of lite server answers (lib/lite/verify.ts): masterchain blocks signed by the
   * validators of a chain of key blocks from the trusted zero state / init block, shard blocks named by
   * them, account states against their block's state hash. An answer that does not check is a 502.
   */
  liteVerify: boolean;
  /** PostgreSQL cancels an API query running longer; also the most a v3 request may ask for with X-Timeout. */
  dbStatementTimeoutMs: number;
  /** Finished traces /traces and /events keep in memory, by their estimated JSON size (0: none kept). */
  traceCacheBytes: number;
  /** Finalized transactions' messages and descriptions the v3 routes keep in memory, by estimated JSON size (0: none kept). */
  txCacheBytes: number;
  /** The address_book and metadata rows the v3 routes keep in memory while they hear their changes, by estimated size (0: none kept). */
  sideCacheBytes: number;
  /** Identical v3 GETs in flight at once share one read and serialization (lib/api/v3/shared-reads.ts). */
  apiSharedReads: boolean;
  /** Transactions one v3 answer (/traces, /events, /actions with include_transactions) may carry in full; a page past it is 422. */
  apiMaxAnswerTransactions: number;
  /** Shared rate-limit counters (several Atlas processes, one budget); per-process memory when unset. */
  redisUrl: string | undefined;
  /** Requests per second each client IP may make without an API key (lib/auth). */
  rateLimitAnonRps: number;
  /** Clients on loopback (the socket's peer, or with TRUST_PROXY the forwarded address) are not counted. */
  rateLimitExemptLoopback: boolean;
  /** Every /api/v2, /api/v3 and stream request must carry a valid API key (401 without one); health and docs stay open. */
  apiKeysRequired: boolean;
  /** API requests one key, or one client address without a key, may have in flight at once (undefined: no cap). */
  maxInFlightPerClient: number | undefined;
  /** Origins whose browser pages may call /api/v2 and /api/v3: every origin, or these. */
  corsOrigins: '*' | string[];
  /** The HTTP edge of `npm start` (lib/server/server.ts). */
  http: {
    /** Take the client address from X-Forwarded-For's last hop (a reverse proxy in front appends it). */
    trustProxy: boolean;
    /** Requests being answered at once; more are shed with 503 + Retry-After instead of queueing. */
    maxInFlight: number;
    /** Event-loop delay (p99 over the last second) past which new requests are shed. */
    shedEventLoopDelayMs: number;
    /** A request still unanswered after this gets 504 and its connection is closed. */
    requestTimeoutMs: number;
    /** Share rendered pages between visitors (lib/http/page-cache.ts). */
    pageCache: boolean;
  };
  /** Explorer pages at the HTTP edge (lib/server/page-guard.ts). */
  pages: {
    /** Page requests per second each client address may make (loopback exempt as for the API, RATE_LIMIT_EXEMPT_LOOPBACK). */
    rateLimitRps: number;
    /** Page renders running at once; more wait in a short queue, then get 503 + Retry-After. */
    maxRenders: number;
  };
  /** The local devnet (TON_NETWORK=devnet): block interval, traffic, lite server port, seed. */
  devnet: {
    blockMs: number;
    /** Signed externals per second from the traffic generator. */
    tps: number;
    /** TCP port of the devnet's ADNL lite server (127.0.0.1). */
    adnlPort: number;
    /** Seed of a new devnet (random when unset); an existing devnet must have been created with it. */
    seed: string | undefined;
    /** Background traffic: on by default, off under tests unless DEVNET_TRAFFIC=on. */
    traffic: boolean;
    /** Basechain shards of a new devnet (1, 2, 4, 8); unset: an existing devnet's own, 1 for a new one. */
    shards: number | undefined;
    /** Split and merge on a schedule; unset: an existing devnet's own, off for a new one. */
    shardSchedule: ShardScheduleConfig | undefined;
  };
  /** The indexer inside `npm start` (off when a separate `npm run indexer` process indexes). */
  indexer: {
    inProcess: boolean;
    /** First masterchain block of an empty index: 1 on the devnet; unset elsewhere (the head minus 100). */
    startSeqno: number | undefined;
  };
  /** The Streaming API (lib/stream): limits per client and per connection. */
  stream: {
    /** Open streams one API key may hold at once (per process). */
    maxConnectionsPerKey: number;
    /** Open streams one client address may hold at once without a key (per process). */
    maxConnectionsPerIp: number;
    /** Addresses and trace hashes one subscription may name together. */
    maxAddresses: number;
    /** Bytes of notifications a connection may leave unread before it is dropped as a slow consumer. */
    bufferBytes: number;
    /** How often an idle SSE stream gets a keep-alive comment (and a WebSocket a ping frame). */
    keepaliveMs: number;
    /** Requests (subscribe, unsubscribe, ping, anything) one WebSocket may send per second. */
    wsMessagesPerSecond: number;
    /** Watch the lite server for shard blocks ahead of their masterchain block (`confirmed` finality). */
    confirmed: boolean;
  };
  /** Off-chain token metadata (lib/metadata): fetched in the background by the indexing process when on. */
  metadata: {
    fetch: boolean;
    /** Base URL ipfs:// URIs are read from. */
    ipfsGateway: string;
  };
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  /** Next.js build workers import server code too; they must never start services. */
  isBuildPhase: boolean;
  /** Tests (vitest) run with quieter defaults. */
  isTest: boolean;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** Validate an environment. Empty strings count as unset, as shells often export `VAR=`. */
export function parseConfig(env: Env): Config {
  const input = Object.fromEntries(
    Object.keys(schema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0]);
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name] ?? '')}: expected ${issue.message}`);
  }
  const v = result.data;
  const isTest = env.VITEST === 'true' || env.NODE_ENV === 'test';
  if (v.TON_NETWORK === 'custom' && !v.TON_GLOBAL_CONFIG) {
    throw new ConfigError('Missing TON_GLOBAL_CONFIG: expected a path to a liteserver global config JSON file when TON_NETWORK=custom');
  }
  if (v.DATABASE_REPLICA_URLS && !v.DATABASE_URL) {
    throw new ConfigError('DATABASE_REPLICA_URLS needs DATABASE_URL: replicas are of a PostgreSQL primary, and the embedded database has none');
  }
  return {
    port: v.PORT,
    apiWorkers: v.DATABASE_URL ? (v.API_WORKERS ?? os.availableParallelism()) : 1,
    dataDir: path.resolve(v.ATLAS_DATA_DIR),
    databaseUrl: v.DATABASE_URL,
    replicas: { urls: v.DATABASE_REPLICA_URLS ?? [], maxLagMs: v.DATABASE_REPLICA_MAX_LAG_MS },
    network: v.TON_NETWORK,
    globalConfigPath: v.TON_GLOBAL_CONFIG ? path.resolve(v.TON_GLOBAL_CONFIG) : undefined,
    liteTimeoutMs: v.LITE_TIMEOUT_MS,
    liteVerify: v.LITE_VERIFY,
    dbStatementTimeoutMs: v.DB_STATEMENT_TIMEOUT_MS,
    traceCacheBytes: v.TRACE_CACHE_MB * 1024 * 1024,
    txCacheBytes: v.TX_CACHE_MB * 1024 * 1024,
    sideCacheBytes: v.SIDE_CACHE_MB * 1024 * 1024,
    apiSharedReads: v.API_SHARED_READS,
    apiMaxAnswerTransactions: v.API_MAX_ANSWER_TRANSACTIONS,
    redisUrl: v.REDIS_URL,
    rateLimitAnonRps: v.RATE_LIMIT_ANON_RPS,
    rateLimitExemptLoopback: v.RATE_LIMIT_EXEMPT_LOOPBACK,
    maxInFlightPerClient: v.MAX_IN_FLIGHT_PER_CLIENT || undefined,
    apiKeysRequired: v.API_KEYS_REQUIRED,
    corsOrigins: v.CORS_ORIGINS,
    http: { trustProxy: v.TRUST_PROXY, maxInFlight: v.MAX_IN_FLIGHT, shedEventLoopDelayMs: v.SHED_EVENT_LOOP_DELAY_MS, requestTimeoutMs: v.REQUEST_TIMEOUT_MS, pageCache: v.PAGE_CACHE },
    pages: { rateLimitRps: v.RATE_LIMIT_PAGES_RPS, maxRenders: v.PAGE_RENDERS },
    devnet: {
      blockMs: v.DEVNET_BLOCK_MS,
      tps: v.DEVNET_TPS,
      adnlPort: v.DEVNET_ADNL_PORT,
      seed: v.DEVNET_SEED,
      traffic: v.DEVNET_TRAFFIC ?? !isTest,
      shards: v.DEVNET_SHARDS,
      shardSchedule: v.DEVNET_SHARD_SCHEDULE,
    },
    // A devnet is indexed from its first block; a real network from near its head (the follower decides).
    indexer: { inProcess: v.INDEXER, startSeqno: v.INDEXER_START_SEQNO ?? (v.TON_NETWORK === 'devnet' ? 1 : undefined) },
    stream: {
      maxConnectionsPerKey: v.STREAM_MAX_CONNECTIONS_PER_KEY,
      maxConnectionsPerIp: v.STREAM_MAX_CONNECTIONS_PER_IP,
      maxAddresses: v.STREAM_MAX_ADDRESSES,
      bufferBytes: v.STREAM_BUFFER_KB * 1024,
      keepaliveMs: v.STREAM_KEEPALIVE_MS,
      wsMessagesPerSecond: v.STREAM_WS_MESSAGES_PER_SECOND,
      confirmed: v.STREAM_CONFIRMED,
    },
    metadata: { fetch: v.METADATA_FETCH, ipfsGateway: v.METADATA_IPFS_GATEWAY },
    logLevel: v.LOG_LEVEL,
    isBuildPhase: env.NEXT_PHASE === 'phase-production-build',
    isTest,
  };
}

let cached: Config | undefined;

/** The process's configuration, validated on first use. */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
