import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '../config';
import { createTestDatabase } from '../testing/database';
import { openDatabase } from './database';
import { migrate } from './migrate';

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'atlas-db-'));
  dirs.push(d);
  return path.join(d, 'db');
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('embedded PGlite database', () => {
  it('keeps its data across a clean close and reopen', async () => {
    const dir = tempDir();
    const first = await openDatabase({ engine: 'pglite', dir });
    await migrate(first);
    await first.prisma.messageContent.create({ data: { hash: Buffer.alloc(32, 7), boc: Buffer.from('b5ee9c72', 'hex') } });
    await first.close();

    const second = await openDatabase({ engine: 'pglite', dir });
    expect((await migrate(second)).applied).toEqual([]);
    const row = await second.prisma.messageContent.findUnique({ where: { hash: Buffer.alloc(32, 7) } });
    expect(Buffer.from(row!.boc).toString('hex')).toBe('b5ee9c72');
    await second.close();
  });

  it('refuses a second opener of the same directory with a clear error, and frees it on close', async () => {
    const dir = tempDir();
    const first = await openDatabase({ engine: 'pglite', dir });
    await expect(openDatabase({ engine: 'pglite', dir })).rejects.toThrow(`is in use by process ${process.pid}`);
    // Another live process holding it is refused the same way.
    fs.writeFileSync(`${dir}.lock`, String(process.ppid));
    await expect(openDatabase({ engine: 'pglite', dir })).rejects.toThrow(`is in use by process ${process.ppid}`);
    fs.writeFileSync(`${dir}.lock`, String(process.pid));
    await first.close();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
    const again = await openDatabase({ engine: 'pglite', dir });
    await again.close();
  });

  it('takes over a lock left by a process that no longer exists', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.writeFileSync(`${dir}.lock`, '2147483646');
    const db = await openDatabase({ engine: 'pglite', dir });
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    await db.close();
  });
});

describe('statement timeout', () => {
  it('PostgreSQL cancels a query of the Prisma client running past it; PGlite (in-process) runs it to the end', async () => {
    if (config().databaseUrl) {
      const t = await createTestDatabase();
      const db = await openDatabase({ engine: 'postgresql', url: t.url! }, { statementTimeoutMs: 200 });
      try {
        await expect(db.prisma.$queryRaw`SELECT pg_sleep(2)::text AS slept`).rejects.toThrow(/statement timeout/);
        expect(await db.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]); // the connection stays usable
      } finally {
        await db.close();
        await t.drop();
      }
    } else {
      const db = await openDatabase({ engine: 'pglite', dir: null }, { statementTimeoutMs: 200 });
      try {
        const t0 = performance.now();
        await db.prisma.$queryRaw`SELECT pg_sleep(0.4)::text AS slept`;
        expect(performance.now() - t0).toBeGreaterThanOrEqual(400);
      } finally {
        await db.close();
      }
    }
  });
});
