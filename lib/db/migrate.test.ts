import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, MigrationError, readMigrations } from './migrate';
import { createTestDatabase, type TestDatabase } from '../testing/database';

const run = promisify(execFile);
let t: TestDatabase;
beforeEach(async () => {
  t = await createTestDatabase();
});
afterEach(async () => {
  await t.drop();
});

const recorded = () =>
  t.db.session((s) =>
    s.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    ),
  );

function tempMigrations(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atlas-mig-'));
  for (const [name, sql] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

describe('migrate', () => {
  it('applies every shipped migration once and records it the way Prisma does', async () => {
    const shipped = readMigrations();
    expect(shipped.length).toBeGreaterThan(0);
    const first = await migrate(t.db);
    expect(first.applied).toEqual(shipped.map((m) => m.name));
    const again = await migrate(t.db);
    expect(again).toEqual({ applied: [], alreadyApplied: shipped.length });

    const rows = await recorded();
    expect(rows.map((r) => r.migration_name)).toEqual(shipped.map((m) => m.name));
    for (const [i, r] of rows.entries()) {
      expect(r.finished_at).not.toBeNull();
      expect(r.applied_steps_count).toBe(1);
      expect(r.checksum).toBe(createHash('sha256').update(shipped[i]!.sql).digest('hex'));
    }
    // The tables exist and take rows.
    await t.db.prisma.messageContent.create({ data: { hash: Buffer.alloc(32, 1), boc: Buffer.from('b5ee9c72', 'hex') } });
    expect(await t.db.prisma.messageContent.count()).toBe(1);
  });

  it('applies each migration exactly once when two migrators start at the same moment', async () => {
    if (t.url) {
      // PostgreSQL: two real `npm run db:migrate` processes against one database.
      const env = { ...process.env, DATABASE_URL: t.url };
      const cmd = ['--import', 'tsx', 'scripts/db-migrate.ts'];
      const outs = await Promise.all([run(process.execPath, cmd, { env }), run(process.execPath, cmd, { env })]);
      const summary = outs.map((o) => o.stdout.trim().split('\n').at(-1)).sort();
      expect(summary).toEqual([
        `postgresql: 0 applied, ${readMigrations().length} already applied`,
        `postgresql: ${readMigrations().length} applied, 0 already applied`,
      ]);
    } else {
      // PGlite is single-process: two migrators in this process must still serialize.
      const results = await Promise.all([migrate(t.db), migrate(t.db)]);
      expect(results.map((r) => r.applied.length).sort()).toEqual([0, readMigrations().length]);
    }
    const rows = await recorded();
    expect(rows.map((r) => r.migration_name)).toEqual(readMigrations().map((m) => m.name));
  });

  it('rolls a failing migration back completely and keeps earlier data', async () => {
    const dir = tempMigrations({
      '1_ok': 'CREATE TABLE kept (v int); INSERT INTO kept VALUES (42);',
      '2_bad': 'CREATE TABLE half (v int); SELECT * FROM no_such_table;',
    });
    await expect(migrate(t.db, { dir })).rejects.toThrow(/Migration 2_bad failed: .*no_such_table/);
    const state = await t.db.session(async (s) => ({
      kept: await s.query<{ v: number }>('SELECT v FROM kept'),
      half: await s.query<{ n: string }>("SELECT count(*)::text AS n FROM pg_tables WHERE tablename = 'half'"),
    }));
    expect(state.kept).toEqual([{ v: 42 }]);
    expect(state.half).toEqual([{ n: '0' }]);
    expect((await recorded()).map((r) => r.migration_name)).toEqual(['1_ok']);
  });

  it('refuses a migration that was edited after it was applied', async () => {
    const dir = tempMigrations({ '1_a': 'CREATE TABLE a (v int);' });
    await migrate(t.db, { dir });
    fs.writeFileSync(path.join(dir, '1_a', 'migration.sql'), 'CREATE TABLE a (v bigint);');
    await expect(migrate(t.db, { dir })).rejects.toThrow(MigrationError);
    await expect(migrate(t.db, { dir })).rejects.toThrow('1_a was modified after it was applied');
  });
});
