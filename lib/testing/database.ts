// Test databases on the engine the suite runs against: a fresh PostgreSQL database per call when
// DATABASE_URL is set (CI runs the whole suite both ways), otherwise an in-memory PGlite.
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { config } from '../config';
import { openDatabase, type Database } from '../db/database';

export interface TestDatabase {
  db: Database;
  /** A connection URL for child processes (PostgreSQL only). */
  url: string | undefined;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const baseUrl = config().databaseUrl;
  if (!baseUrl) {
    const db = await openDatabase({ engine: 'pglite', dir: null, cluster: await freshCluster() });
    return { db, url: undefined, drop: () => db.close() };
  }
  return createScratchDatabase(baseUrl);
}

/**
 * The files of a freshly initialized PGlite cluster, made once per test process: initdb is four fifths of
 * an in-memory PGlite's start (about 2 of 2.5 s, over sixty times a suite), loading these files a fifth.
 * Each test database still starts as initdb leaves one (no schema: the tests migrate it) and is its own.
 */
let cluster: Promise<Blob> | undefined;
function freshCluster(): Promise<Blob> {
  if (!cluster) {
    cluster = (async () => {
      const db = await PGlite.create();
      try {
        return await db.dumpDataDir('none');
      } finally {
        await db.close();
      }
    })();
    cluster.catch(() => (cluster = undefined)); // a failed attempt is not kept: the next test tries again
  }
  return cluster;
}

/** A fresh database on the PostgreSQL server of `baseUrl` (tests, benchmarks), dropped by drop(). */
export async function createScratchDatabase(baseUrl: string, prefix = 'atlas_t'): Promise<TestDatabase & { url: string }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdmin(baseUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ engine: 'postgresql', url: url.toString() });
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close();
      await withAdmin(baseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function withAdmin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
