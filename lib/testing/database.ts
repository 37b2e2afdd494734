// Test databases on the engine the suite runs against: a fresh PostgreSQL database per call when
// DATABASE_URL is set (CI runs the whole suite both ways), otherwise an in-memory PGlite.
import { randomBytes } from 'node:crypto';
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
    const db = await openDatabase({ engine: 'pglite', dir: null });
    return { db, url: undefined, drop: () => db.close() };
  }
  return createScratchDatabase(baseUrl);
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
