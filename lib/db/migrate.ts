// Applies prisma/migrations/<name>/migration.sql in name order and records them in `_prisma_migrations`
// exactly as Prisma does, so `prisma migrate deploy` (which needs a downloaded engine) agrees with us.
// A session-level advisory lock makes concurrent starters apply each migration exactly once.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './database';
import type { SqlSession } from './sql';

export const MIGRATIONS_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), 'prisma', 'migrations');

// Arbitrary constant shared by every Atlas process ("ATLASMIG" in ASCII).
const LOCK_KEY = '4706372165316233031';

// Prisma's own DDL for its bookkeeping table.
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, 'migration.sql')))
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export class MigrationError extends Error {}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

export async function migrate(
  db: Database,
  opts: { dir?: string; onApply?: (name: string) => void } = {},
): Promise<MigrateResult> {
  const migrations = readMigrations(opts.dir);
  return db.session(async (s) => {
    await s.query(`SELECT pg_advisory_lock(${LOCK_KEY})`);
    try {
      return await applyPending(s, migrations, opts.onApply);
    } finally {
      await s.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`);
    }
  });
}

async function applyPending(
  s: SqlSession,
  migrations: Migration[],
  onApply?: (name: string) => void,
): Promise<MigrateResult> {
  await s.exec(CREATE_TABLE);
  const rows = await s.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
    'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
  );
  const done = new Map(rows.filter((r) => r.finished_at && !r.rolled_back_at).map((r) => [r.migration_name, r]));
  const failed = rows.find((r) => !r.finished_at && !r.rolled_back_at);
  if (failed) {
    throw new MigrationError(
      `Migration ${failed.migration_name} failed earlier and was never finished; repair the database, then mark it rolled back (prisma migrate resolve)`,
    );
  }
  const applied: string[] = [];
  for (const m of migrations) {
    const prior = done.get(m.name);
    if (prior) {
      if (prior.checksum !== m.checksum) {
        throw new MigrationError(`Migration ${m.name} was modified after it was applied (checksum differs)`);
      }
      continue;
    }
    onApply?.(m.name);
    // The script and its record commit together: a failure leaves neither behind.
    await s.exec('BEGIN');
    try {
      await s.query(
        'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
        [randomUUID(), m.checksum, m.name],
      );
      await s.exec(m.sql);
      await s.query(
        'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE migration_name = $1 AND finished_at IS NULL',
        [m.name],
      );
      await s.exec('COMMIT');
    } catch (err) {
      await s.exec('ROLLBACK');
      throw new MigrationError(`Migration ${m.name} failed: ${(err as Error).message}`);
    }
    applied.push(m.name);
  }
  return { applied, alreadyApplied: done.size };
}
