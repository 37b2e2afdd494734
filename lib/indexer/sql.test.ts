// The write path's rows on the real database (PGlite, or PostgreSQL when DATABASE_URL is set): binary
// columns (sql.ts TableRows.binary) go as binary parameters and come back exactly as the hex-in-JSON rows do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { insertItem, insertRows, insertTables, runWith, writeMode, type Row } from './sql';
import { Prisma } from '../db/generated/client';

let t: TestDatabase;
const COLUMNS = ['id', 'hash', 'boc', 'note'] as const;
const BINARY = ['hash', 'boc'];

beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.prisma.$executeRawUnsafe('CREATE TABLE probe_rows (id int PRIMARY KEY, hash bytea, boc bytea NOT NULL, note text)');
});
afterAll(() => t.drop());

const stored = async () =>
  (await t.db.prisma.$queryRawUnsafe<{ id: number; hash: Uint8Array | null; boc: Uint8Array; note: string | null }[]>('SELECT * FROM probe_rows ORDER BY id')).map((r) => ({
    id: r.id,
    hash: r.hash && Buffer.from(r.hash).toString('hex'),
    boc: Buffer.from(r.boc).toString('hex'),
    note: r.note,
  }));

// Lengths that straddle nothing in particular, a null, an empty value, bytes that are not text.
const rows = (from: number): Row[] => [
  { id: from, hash: Buffer.alloc(32, 0xab), boc: Buffer.from('b5ee9c72', 'hex'), note: 'first' },
  { id: from + 1, hash: null, boc: Buffer.alloc(0), note: null },
  { id: from + 2, hash: Buffer.from([0, 0x5c, 0x78, 0xff]), boc: Buffer.alloc(3000, 7), note: '\\x00 not bytes' },
];
const expected = (from: number) => [
  { id: from, hash: 'ab'.repeat(32), boc: 'b5ee9c72', note: 'first' },
  { id: from + 1, hash: null, boc: '', note: null },
  { id: from + 2, hash: '005c78ff', boc: '07'.repeat(3000), note: '\\x00 not bytes' },
];

describe('rows with binary columns', () => {
  it('insertRows stores each Buffer byte for byte, null as NULL and an empty Buffer as empty', async () => {
    await t.db.transaction((tx) => insertRows(tx, { table: 'probe_rows', columns: COLUMNS, rows: rows(1), binary: BINARY }));
    expect(await stored()).toEqual(expected(1));
  });

  it('as a WITH item, and written again: nothing changes (ON CONFLICT DO NOTHING)', async () => {
    const write = () => t.db.transaction((tx) => runWith(tx, [insertItem('w0', { table: 'probe_rows', columns: COLUMNS, rows: rows(10), binary: BINARY })], Prisma.sql`SELECT 1 AS done`));
    await write();
    await write();
    expect((await stored()).slice(3)).toEqual(expected(10));
  });

  it('the one-statement-per-table path (hex inside the JSON) stores the same rows', async () => {
    writeMode.statementPerTable = true;
    try {
      await t.db.transaction((tx) => insertTables(tx, [{ table: 'probe_rows', columns: COLUMNS, rows: rows(20), binary: BINARY }]));
    } finally {
      writeMode.statementPerTable = false;
    }
    expect((await stored()).slice(6)).toEqual(expected(20));
  });

  it('refuses a binary column that holds hex text', async () => {
    const mixed: Row[] = [{ id: 30, hash: Buffer.alloc(1), boc: Buffer.alloc(1), note: null }, { id: 31, hash: '\\x00', boc: Buffer.alloc(1), note: null }];
    await expect(t.db.transaction((tx) => insertRows(tx, { table: 'probe_rows', columns: COLUMNS, rows: mixed, binary: BINARY }))).rejects.toThrow(/probe_rows.hash: a binary column holds a string/);
  });
});
