// Opens the database: embedded PGlite under $ATLAS_DATA_DIR/db by default, PostgreSQL when DATABASE_URL
// is set. Both are reached through Prisma Client's driver adapters, so no native engine is needed.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from './generated/client';
import { Mutex, pgliteSession, pgSession, type SqlSession } from './sql';

export type DatabaseEngine = 'pglite' | 'postgresql';

export interface Database {
  engine: DatabaseEngine;
  prisma: PrismaClient;
  /** Runs fn on one dedicated connection (a session-scoped lock or transaction stays on it). */
  session<T>(fn: (s: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { engine: 'postgresql'; url: string }
  | { engine: 'pglite'; dir: string } // persisted
  | { engine: 'pglite'; dir: null }; // in memory (tests)

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
}

/** The indexer's statement timeout: its writes of a busy block may take a while, a hung one must not. */
export const INDEXER_STATEMENT_TIMEOUT_MS = 60_000;

export async function openDatabase(target: DatabaseTarget, opts: OpenOptions = {}): Promise<Database> {
  return target.engine === 'postgresql' ? openPostgres(target.url, opts) : openPglite(target.dir);
}

function openPostgres(url: string, opts: OpenOptions): Database {
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, statement_timeout: opts.statementTimeoutMs }) });
  return {
    engine: 'postgresql',
    prisma,
    async session(fn) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return await fn(pgSession(client));
      } finally {
        await client.end();
      }
    },
    close: () => prisma.$disconnect(),
  };
}

async function openPglite(dir: string | null): Promise<Database> {
  const release = dir ? lockDataDir(dir) : () => {};
  try {
    const db = dir ? await PGlite.create(dir) : await PGlite.create();
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(db) });
    const mutex = new Mutex();
    return {
      engine: 'pglite',
      prisma,
      session: (fn) => mutex.run(() => fn(pgliteSession(db))),
      async close() {
        await prisma.$disconnect();
        // Closing flushes PGlite's files; skipping it is what corrupts an embedded database.
        await db.close();
        release();
      },
    };
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
