// Opens the database: embedded PGlite under $ATLAS_DATA_DIR/db by default, PostgreSQL when DATABASE_URL
// is set. Both are reached through Prisma Client's driver adapters, so no native engine is needed.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { Prisma, PrismaClient } from './generated/client';
import { listenPglite, listenPostgres, type Listening, type NoticeListener } from './notices';
import { ReadLanes } from './read-lanes';
import { Mutex, pgliteSession, pgSession, statementName, type SqlReader, type SqlSession } from './sql';

export type DatabaseEngine = 'pglite' | 'postgresql';

export interface Database {
  engine: DatabaseEngine;
  prisma: PrismaClient;
  /** Reads on the driver, typed as Prisma's $queryRaw types them (lib/db/sql.ts): the API's hot reads. */
  sql: SqlReader;
  /** Runs fn on one dedicated connection (a session-scoped lock or transaction stays on it). */
  session<T>(fn: (s: SqlSession) => Promise<T>): Promise<T>;
  /**
   * Runs fn in one database transaction on the driver itself (pg / PGlite), not through Prisma: the
   * indexer's write path (lib/indexer/sql.ts). Prisma re-encodes every raw query's parameters as JSON
   * twice (stringify, then parse in the adapter): for a block's multi-megabyte row parameters that was
   * a fifth of the indexer's main thread. Results: bytea as Buffer (pg) or Uint8Array (PGlite), int8 as
   * bigint, numeric as string, json parsed. Committed when fn resolves, rolled back when it throws.
   */
  transaction<T>(fn: (s: SqlSession) => Promise<T>): Promise<T>;
  /** Hears NOTIFY on `channel` until close() (lib/db/notices.ts). */
  listen(channel: string, to: NoticeListener): Promise<Listening>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { engine: 'postgresql'; url: string }
  | { engine: 'pglite'; dir: string } // persisted
  // In memory (tests). `cluster`: a dumpDataDir() of a fresh cluster to start from instead of running initdb.
  | { engine: 'pglite'; dir: null; cluster?: Blob };

/** The database the configuration names: DATABASE_URL, else the embedded one under the data dir. */
export function configuredTarget(cfg: { databaseUrl: string | undefined; dataDir: string }): DatabaseTarget {
  return cfg.databaseUrl ? { engine: 'postgresql', url: cfg.databaseUrl } : { engine: 'pglite', dir: path.join(cfg.dataDir, 'db') };
}

export interface OpenOptions {
  /**
   * PostgreSQL cancels any query of the Prisma client running longer (statement_timeout on each of its
   * connections; session() connections, used for migrations, have none). PGlite cannot: it runs queries
   * to the end inside this process (WebAssembly has no timer interrupts), which README states.
   */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL: how long the Prisma client waits for a new connection before the query fails (unset:
   * as long as it takes). Read replicas set it so that one that is down or unreachable fails fast and
   * the read goes to the primary (lib/db/replicas.ts).
   */
  connectTimeoutMs?: number;
}

/** The indexer's statement timeout: its writes of a busy block may take a while, a hung one must not. */
export const INDEXER_STATEMENT_TIMEOUT_MS = 60_000;

export async function openDatabase(target: DatabaseTarget, opts: OpenOptions = {}): Promise<Database> {
  if (target.engine === 'postgresql') return openPostgres(target.url, opts);
  return target.dir === null ? openPglite(null, target.cluster) : openPglite(target.dir);
}

/** The Database a PrismaClient was opened with: the stages handed a PrismaClient find its driver here. */
const opened = new WeakMap<PrismaClient, Database>();

export function databaseOf(prisma: PrismaClient): Database {
  const db = opened.get(prisma);
  if (!db) throw new Error('this PrismaClient was not opened by openDatabase (lib/db/database.ts)');
  return db;
}

function register(db: Database): Database {
  opened.set(db.prisma, db);
  return db;
}

// int8 as bigint on both drivers (pg: strings by default; PGlite: numbers, which lose lts past 2^53).
const INT8 = 20;
const parseInt8 = (v: string) => BigInt(v);
const PG_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 && format !== 'binary' ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
// The SqlReader's types: also numeric as Prisma.Decimal and (pg) bytea as a plain Uint8Array, as $queryRaw
// gives them.
const NUMERIC = 1700;
const BYTEA = 17;
const parseNumeric = (v: string) => new Prisma.Decimal(v);
const READ_PARSERS: Record<number, (v: string) => unknown> = { [INT8]: parseInt8, [NUMERIC]: parseNumeric };
const parsePgBytea = pg.types.getTypeParser(BYTEA, 'text') as (v: string) => Buffer;
const PG_READ_PARSERS: Record<number, (v: string) => unknown> = {
  ...READ_PARSERS,
  [BYTEA]: (v: string) => {
    const b = parsePgBytea(v);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  },
};
const PG_READ_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    format !== 'binary' && PG_READ_PARSERS[oid] ? PG_READ_PARSERS[oid] : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

function openPostgres(url: string, opts: OpenOptions): Database {
  const prisma = new PrismaClient({
    adapter: new PrismaPg({ connectionString: url, statement_timeout: opts.statementTimeoutMs, connectionTimeoutMillis: opts.connectTimeoutMs }),
  });
  // The reader's own pool, with the Prisma client's limits (the adapter's pool is not reachable).
  const readers = new pg.Pool({
    connectionString: url,
    statement_timeout: opts.statementTimeoutMs,
    connectionTimeoutMillis: opts.connectTimeoutMs,
    types: PG_READ_TYPES,
  });
  readers.on('error', () => undefined); // an idle connection the server dropped: discarded, the next read reconnects
  // Writers' own connections, opened on first use (the indexer and its backfills write side by side).
  let writers: pg.Pool | undefined;
  const listeners = new Set<Listening>();
  const pool = () => {
    if (!writers) {
      // connectionTimeoutMillis: a server that is down or restarting fails the write (retried from the
      // cursor) instead of leaving it waiting for a connection.
      writers = new pg.Pool({ connectionString: url, max: 4, statement_timeout: opts.statementTimeoutMs, connectionTimeoutMillis: 10_000, types: PG_TYPES });
      // An idle connection the server dropped (a restart): the pool discards it; the next write reconnects.
      writers.on('error', () => undefined);
    }
    return writers;
  };
  return register({
    engine: 'postgresql',
    prisma,
    sql: {
      // No name: pg's unnamed statement, planned at every run.
      rows: async <T>(q: Prisma.Sql, prepared?: string) =>
        (await readers.query({ name: prepared && statementName(prepared, q.text), text: q.text, values: q.values })).rows as T[],
    },
    async transaction(fn) {
      const client = await pool().connect();
      let broken: Error | undefined;
      // The connection may die between two statements (a server restart): pg then emits 'error' on the
      // checked-out client, which must not go unhandled; the next statement fails and rolls back.
      const lost = (err: Error) => (broken = err);
      client.on('error', lost);
      try {
        await client.query('BEGIN');
        const result = await fn(pgSession(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw err;
      } finally {
        client.off('error', lost);
        client.release(broken);
      }
    },
    async listen(channel, to) {
      // Its own notices, sent through the readers' pool now and then, must come back (notices.ts Probe).
      const probe = { send: (ch: string, payload: string) => readers.query('SELECT pg_notify($1, $2)', [ch, payload]), everyMs: 5_000, timeoutMs: 15_000 };
      const l = listenPostgres(url, channel, to, probe);
      listeners.add(l);
      return l;
    },
    async session(fn) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return await fn(pgSession(client));
      } finally {
        await client.end();
      }
    },
    async close() {
      await Promise.all([...listeners].map((l) => l.close()));
      await writers?.end();
      await readers.end();
      await prisma.$disconnect();
    },
  });
}

async function openPglite(dir: string | null, cluster?: Blob): Promise<Database> {
  const release = dir ? lockDataDir(dir) : () => {};
  try {
    const db = dir ? await PGlite.create(dir) : await PGlite.create(cluster ? { loadDataDir: cluster } : {});
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(db) });
    const mutex = new Mutex();
    const lanes = new ReadLanes();
    const listeners = new Set<Listening>();
    return register({
      engine: 'pglite',
      prisma,
      sql: {
        rows<T>(q: Prisma.Sql) {
          // PGlite runs a query on this thread and settles it without a macrotask: a request made of many
          // queries would otherwise hold the event loop from its first to its last, and health, other
          // clients and the edge's own checks would wait for whole heavy requests (issue 25). Reads take
          // turns (read-lanes.ts): light ones first, a long list's only after pending I/O ran.
          return lanes.run(async () => (await db.query<T>(q.text, q.values, { parsers: READ_PARSERS })).rows);
        },
      },
      session: (fn) => mutex.run(() => fn(pgliteSession(db))),
      // PGlite runs one query or transaction at a time: Prisma's queries wait while this one runs.
      transaction: (fn) => db.transaction((tx) => fn(pgliteSession(tx, { [INT8]: parseInt8 }))),
      async listen(channel, to) {
        const l = await listenPglite(db, channel, to);
        listeners.add(l);
        return l;
      },
      async close() {
        await Promise.all([...listeners].map((l) => l.close()));
        await prisma.$disconnect();
        // Closing flushes PGlite's files; skipping it is what corrupts an embedded database.
        await db.close();
        release();
      },
    });
  } catch (err) {
    release();
    throw err;
  }
}

/**
 * PGlite is single-process: a second process opening the same directory would corrupt it. A pid file
 * turns that into a clear error; a stale one (its process gone) is taken over.
 */
function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, '..', `${path.basename(dir)}.lock`);
  for (;;) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(fs.readFileSync(lockFile, 'utf8'));
      // Our own pid counts too: two handles in one process would corrupt it just the same.
      if (owner && isAlive(owner)) {
        throw new Error(`The embedded database ${dir} is in use by process ${owner}; stop it first or set DATABASE_URL`);
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
