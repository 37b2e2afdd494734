// Read replicas (DATABASE_REPLICA_URLS): where the API's reads that tolerate lag go. Each request's reads
// run on one healthy replica, taken in turn, else on the primary; a replica that cannot be reached (or
// loses its connection mid-request) is marked down and the request runs again on the primary, so a
// replica going away never fails a request.
//
// Lag is measured on the index itself: every masterchain block the indexer commits sets
// indexer_state.updated_at to the primary's now(), and a replica holds the value of the newest commit it
// has replayed. lag = primary's newest − replica's newest: how much older the replica's view of the index
// is than the primary's. Both times come from the primary's clock (no skew between servers), and an idle
// index reads 0 (an idle primary is not mistaken for a stuck replica, as now() − pg_last_xact_replay_timestamp()
// would be). Writes that do not move the index head (backfills of old ranges, derive jobs, metadata) are
// not measured: they fill history, which may lag.
//
// What stays on the primary: everything that writes or must read its own writes — the indexer and its
// backfills, migrations, API keys (lookup and creation), sends and their emulation, the POST routes,
// and /api/health's database probe. See docs/scaling.md.
import type { Config } from '../config';
import type { Logger } from '../log';
import { openDatabase, type Database } from './database';
import type { PrismaClient } from './generated/client';
import type { SqlReader } from './sql';

/** What a request's reads use: a replica's client or the primary's. */
export interface ReadDatabase {
  readonly prisma: PrismaClient;
  readonly sql: SqlReader;
}

export type ReplicaState = 'starting' | 'ok' | 'lagging' | 'down';

/** A replica as /api/health shows it. */
export interface ReplicaStatus {
  /** Its URL without user, password or parameters. */
  url: string;
  /** starting: not probed yet; ok: read; lagging: further behind than the limit; down: unreachable. */
  state: ReplicaState;
  /** How far its index is behind the primary's, in ms (null until measured, or while down). */
  lag_ms: number | null;
  /** When it was last probed (ISO 8601). */
  checked_at: string | null;
  /** Why it is down or lagging. */
  error?: string;
}

export interface Reads {
  /**
   * Runs one request's reads on a replica (the healthy ones in turn) or, with none healthy, on the
   * primary. When the replica fails with a connection-level error or a recovery conflict, fn runs
   * again on the primary: fn must only read.
   */
  run<T>(fn: (db: ReadDatabase) => Promise<T>): Promise<T>;
  /** Each replica's state; [] without replicas. */
  replicas(): ReplicaStatus[];
  close(): Promise<void>;
}

/** Every read on the primary: no replicas configured, or the embedded database (it has none). */
export function primaryReads(primary: ReadDatabase): Reads {
  return { run: (fn) => fn(primary), replicas: () => [], close: async () => {} };
}

/** The reads the configuration asks for: DATABASE_REPLICA_URLS's replicas, else the primary alone. */
export async function openReads(primary: Database, cfg: Pick<Config, 'replicas' | 'dbStatementTimeoutMs'>, log: Logger): Promise<Reads> {
  if (!cfg.replicas.urls.length) return primaryReads(primary);
  return openReplicaReads(primary, { urls: cfg.replicas.urls, maxLagMs: cfg.replicas.maxLagMs, statementTimeoutMs: cfg.dbStatementTimeoutMs, log });
}

/** How often each replica's reachability and lag are measured. */
const PROBE_MS = 1000;
/** A replica that failed stays unread at least this long, however its probes go meanwhile. */
const DOWN_MS = 5000;
/** A replica that cannot be connected to within this fails the attempt; the read goes to the primary. */
const CONNECT_TIMEOUT_MS = 1000;

export interface ReplicaOptions {
  urls: string[];
  maxLagMs: number;
  /** The replicas' statement timeout, the API's (DB_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs?: number;
  log: Logger;
  /** Probe interval; tests set it high and call probe() themselves. */
  probeMs?: number;
}

export interface ReplicaReads extends Reads {
  /** Measures every replica now (also done every second in the background). */
  probe(): Promise<void>;
}

interface Replica {
  url: string;
  db: Database;
  state: ReplicaState;
  lagMs: number | null;
  checkedAt: Date | null;
  error?: string;
  /** Not read before this time (ms) after a failure. */
  downUntil: number;
}

/** The primary's reads spread over these replicas. */
export async function openReplicaReads(primary: Database, opts: ReplicaOptions): Promise<ReplicaReads> {
  const log = opts.log.child({ component: 'replicas' });
  const replicas: Replica[] = [];
  for (const url of opts.urls) {
    const db = await openDatabase({ engine: 'postgresql', url }, { statementTimeoutMs: opts.statementTimeoutMs, connectTimeoutMs: CONNECT_TIMEOUT_MS });
    replicas.push({ url: redactUrl(url), db, state: 'starting', lagMs: null, checkedAt: null, downUntil: 0 });
  }
  let turn = 0;

  const setState = (r: Replica, state: ReplicaState, error?: string) => {
    if (r.state !== state) {
      const fields = { replica: r.url, state, lagMs: r.lagMs, ...(error && { err: error }) };
      if (state === 'ok') log.info(fields, 'replica read');
      else log.warn(fields, 'replica not read');
    }
    r.state = state;
    r.error = error;
  };

  const fail = (r: Replica, err: unknown) => {
    r.downUntil = Date.now() + DOWN_MS;
    r.lagMs = null;
    setState(r, 'down', errorMessage(err));
  };

  let probing: Promise<void> | undefined;
  const probe = () =>
    (probing ??= (async () => {
      let primaryHead: Date | null;
      try {
        primaryHead = await indexHead(primary.prisma);
      } catch {
        return; // the primary is unreachable: nothing to measure against; states stay as they are
      }
      await Promise.all(
        replicas.map(async (r) => {
          try {
            const head = await indexHead(r.db.prisma);
            r.checkedAt = new Date();
            if (Date.now() < r.downUntil) return;
            if (primaryHead && !head) {
              r.lagMs = null;
              return setState(r, 'lagging', 'its index is empty');
            }
            r.lagMs = primaryHead && head ? Math.max(0, primaryHead.getTime() - head.getTime()) : 0;
            if (r.lagMs > opts.maxLagMs) setState(r, 'lagging', `${r.lagMs} ms behind the primary (at most ${opts.maxLagMs})`);
            else setState(r, 'ok');
          } catch (err) {
            r.checkedAt = new Date();
            fail(r, err);
          }
        }),
      );
    })().finally(() => (probing = undefined)));

  const timer = setInterval(() => void probe(), opts.probeMs ?? PROBE_MS);
  timer.unref();
  void probe();

  const next = (): Replica | undefined => {
    const healthy = replicas.filter((r) => r.state === 'ok');
    if (!healthy.length) return undefined;
    turn = (turn + 1) % healthy.length;
    return healthy[turn];
  };

  return {
    async run(fn) {
      const r = next();
      if (!r) return fn(primary);
      try {
        return await fn(r.db);
      } catch (err) {
        const failure = replicaFailure(err);
        if (!failure) throw err;
        if (failure === 'connection') fail(r, err);
        else log.info({ replica: r.url, err: errorMessage(err) }, 'read cancelled on the replica; reading the primary');
        return fn(primary);
      }
    },
    replicas: () =>
      replicas.map((r) => ({ url: r.url, state: r.state, lag_ms: r.lagMs, checked_at: r.checkedAt?.toISOString() ?? null, ...(r.error && { error: r.error }) })),
    probe,
    async close() {
      clearInterval(timer);
      await probing;
      await Promise.all(replicas.map((r) => r.db.close()));
    },
  };
}

/** The newest index commit this server holds (null: nothing indexed). One row per indexer: no scan to speak of. */
async function indexHead(prisma: PrismaClient): Promise<Date | null> {
  const [row] = await prisma.$queryRaw<{ head: Date | null }[]>`SELECT max(updated_at) AS head FROM indexer_state`;
  return row?.head ?? null;
}

/** SQLSTATE classes of a lost or refused connection: 08 (connection exception), 57P01–57P03 (server shutting down or starting). */
const CONNECTION_SQLSTATE = /^(08|57P0[123])/;
/** The driver adapter's kinds of a connection that could not be made or was lost. */
const CONNECTION_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'DatabaseAccessDenied', 'AuthenticationFailed', 'DatabaseDoesNotExist']);
/** pg's own errors for a connection that died or timed out (no SQLSTATE). */
const CONNECTION_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|ECONNRESET/i;

/**
 * Why a read failed on a replica, when reading the primary instead may succeed: `connection` (the
 * replica is unreachable, restarting or refusing us: mark it down) or `conflict` (PostgreSQL cancelled the
 * query for a conflict with WAL replay, SQLSTATE 40001, which only a standby does). Else null: the same
 * query would fail on the primary too (a bad query, a statement timeout), so the error stands.
 */
export function replicaFailure(err: unknown): 'connection' | 'conflict' | null {
  const cause = (err as { meta?: { driverAdapterError?: { cause?: { kind?: string; code?: string } } } })?.meta?.driverAdapterError?.cause;
  if (cause?.kind && CONNECTION_KINDS.has(cause.kind)) return 'connection';
  const code = cause?.code ?? (err as { code?: unknown })?.code;
  if (typeof code === 'string' && CONNECTION_SQLSTATE.test(code)) return 'connection';
  if (code === '40001') return 'conflict';
  if (err instanceof Error && CONNECTION_MESSAGE.test(err.message)) return 'connection';
  return null;
}

/** A URL as health shows it: no user, password or parameters (a password may sit in either). */
export function redactUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

function errorMessage(err: unknown): string {
  const cause = (err as { meta?: { driverAdapterError?: { cause?: { kind?: string; message?: string; host?: string; port?: number } } } })?.meta?.driverAdapterError?.cause;
  if (cause?.kind === 'DatabaseNotReachable') return `cannot connect to ${cause.host}:${cause.port}`;
  if (cause?.message) return cause.message;
  // Prisma's own messages start with the call site; the last line says what happened.
  return ((err as Error)?.message ?? String(err)).trim().split('\n').at(-1)!.trim();
}
