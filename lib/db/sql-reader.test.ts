// The driver reader (Database.sql) answers a query with the rows Prisma's $queryRaw gives for it: the
// same values of the same JS types for every column type and parameter kind the API's queries use, on
// the engine the suite runs against (PGlite, or PostgreSQL with DATABASE_URL).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { Prisma } from './generated/client';

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.drop());

/** A row's values with their JS types named, so a Buffer and a Decimal are told apart from look-alikes. */
const typed = (rows: Record<string, unknown>[]) =>
  rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [
        k,
        v instanceof Uint8Array
          ? [v.constructor.name, Buffer.from(v).toString('hex')]
          : Prisma.Decimal.isDecimal(v)
            ? ['decimal', (v as Prisma.Decimal).toFixed()]
            : Array.isArray(v)
              ? ['array', v.map((x) => (x instanceof Uint8Array ? Buffer.from(x).toString('hex') : x))]
              : [v === null ? 'null' : v instanceof Date ? 'date' : typeof v, v],
      ]),
    ),
  );

const same = async (q: Prisma.Sql) => {
  const [viaPrisma, viaDriver] = await Promise.all([t.db.prisma.$queryRaw<Record<string, unknown>[]>(q), t.db.sql.rows<Record<string, unknown>>(q)]);
  expect(viaDriver.length).toBeGreaterThan(0);
  expect(typed(viaDriver)).toEqual(typed(viaPrisma));
  return viaDriver;
};

it('every column type the API reads: int4, int8 past 2^53, numeric past 2^64, bytea, text, bool, json, timestamptz, arrays, nulls', async () => {
  const rows = await same(Prisma.sql`
    SELECT 7::int4 AS i, (-(2::int8 ^ 62)::int8) AS big, 123456789012345678901234567890::numeric AS amount, 0::numeric AS zero,
      '\\x00ff10'::bytea AS b, 'EQ text'::text AS s, TRUE AS yes, '{"a": [1, "2"], "b": null}'::jsonb AS j,
      '2026-11-26T12:00:00Z'::timestamptz AS at, ARRAY[1, 2]::int4[] AS ints, ARRAY['a', 'b']::text[] AS texts,
      NULL::bytea AS nb, NULL::numeric AS nn, NULL::int8 AS ni`);
  expect(rows[0]!.big).toBe(-(2n ** 62n));
  expect((rows[0]!.amount as Prisma.Decimal).toFixed()).toBe('123456789012345678901234567890');
});

it('every parameter kind the API passes: numbers, bigints, strings, bytes, byte and text arrays, booleans, null', async () => {
  const hashes = [Buffer.from('aa'.repeat(32), 'hex'), new Uint8Array(32).fill(0xbb)];
  const rows = await same(Prisma.sql`
    SELECT ${42}::int4 AS n, ${2n ** 63n - 1n}::int8 AS lt, ${'0:AB'}::text AS account, ${hashes[0]}::bytea AS h,
      cardinality(${hashes}::bytea[]) AS count, (${hashes}::bytea[])[2] AS second, ${['x', 'y']}::text[] AS texts,
      ${false}::bool AS no, ${null}::text AS nothing, x FROM unnest(${hashes}::bytea[]) AS x WHERE x = ANY(${hashes}::bytea[])`);
  expect(rows).toHaveLength(2);
  expect(Buffer.from(rows[1]!.second as Uint8Array)).toEqual(Buffer.from(hashes[1]!));
});

it('an error names the problem, as Prisma does', async () => {
  await expect(t.db.sql.rows(Prisma.sql`SELECT * FROM no_such_table`)).rejects.toThrow(/no_such_table/);
});

it('a prepared statement answers what the same query answers unprepared, past the runs after which PostgreSQL may keep a generic plan, and two spellings under one name stay apart', async () => {
  await t.db.prisma.$executeRawUnsafe(`CREATE TABLE prepared_rows (k text PRIMARY KEY, v bytea, n numeric)`);
  await t.db.prisma.$executeRawUnsafe(
    `INSERT INTO prepared_rows SELECT 'k' || i, decode(md5(i::text), 'hex'), i * 1000000000000 FROM generate_series(1, 200) i`,
  );
  const byKeys = (keys: string[]) => Prisma.sql`SELECT k, v, n FROM prepared_rows WHERE k = ANY(${keys}::text[]) ORDER BY k`;
  const byValue = (min: number) => Prisma.sql`SELECT k, n FROM prepared_rows WHERE n >= ${min} ORDER BY n LIMIT 3`;
  for (let run = 1; run <= 8; run++) {
    const keys = Array.from({ length: run * 3 }, (_, i) => `k${(i * 7 + run) % 220}`); // some not in the table
    const [prepared, plain] = await Promise.all([t.db.sql.rows<Record<string, unknown>>(byKeys(keys), 'prepared-test'), t.db.sql.rows<Record<string, unknown>>(byKeys(keys))]);
    expect(typed(prepared)).toEqual(typed(plain));
    expect(prepared.length).toBeGreaterThan(0);
    const second = await t.db.sql.rows<Record<string, unknown>>(byValue(run * 10 ** 13), 'prepared-test');
    expect(typed(second)).toEqual(typed(await t.db.sql.rows<Record<string, unknown>>(byValue(run * 10 ** 13))));
    expect(second).toHaveLength(3);
  }
});
