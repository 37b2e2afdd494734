// The one way the indexer writes: a transaction on the database driver itself (lib/db/database.ts
// transaction(); Prisma re-encodes a raw query's parameters twice, which cost a fifth of the indexer's
// main thread), and a whole table's rows as a single JSON parameter that PostgreSQL expands with
// json_populate_recordset against the table's own row type, its BoC columns as binary parameters
// beside it (rowSource): one statement per table and block, on PGlite and PostgreSQL alike,
// and no value is ever spliced into SQL text.
import { Prisma, type PrismaClient } from '../db/generated/client';
import { databaseOf } from '../db/database';
import type { SqlSession } from '../db/sql';

/** A write transaction (or, for reads outside one, prismaReader): parameterized queries only. */
export type Tx = Pick<SqlSession, 'query'>;
/** A row by column name (a binary column's values are Buffers: TableRows.binary). */
export type Row = Record<string, string | number | boolean | null | object>;

/** Rows another stage (lib/indexer/derive) computed for a table, written in the block's transaction. */
export interface TableRows {
  table: string;
  columns: readonly string[];
  rows: Row[];
  /** ON CONFLICT clause, a constant of the module that builds the rows (default: skip existing rows). */
  onConflict?: string;
  /**
   * Columns whose values are Buffers (or null), sent as binary parameters beside the JSON (rowSource): the
   * BoC columns, whose hex was a third of a block's JSON text. Other bytea go as hex text (`hex`): for a
   * 32-byte hash, taking it out of the rows costs more JS than its hex saves.
   */
  binary?: readonly string[];
}

/** Runs fn in one transaction of the database `prisma` was opened with, on its driver. */
export function writeTransaction<T>(prisma: PrismaClient, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return databaseOf(prisma).transaction(fn);
}

/** Runs a Prisma.sql template (its $n text and values) on tx. */
export const run = <T = Record<string, unknown>>(tx: Tx, q: Prisma.Sql) => tx.query<T & Record<string, unknown>>(q.text, q.values);

/**
 * A reader over Prisma for the queries of this module's users that also run outside the write path (the
 * pending traces' classifier input). Results as Prisma gives them (int8 bigint, numeric Decimal): the
 * shared queries select numerics as text.
 */
export const prismaReader = (prisma: PrismaClient): Tx => ({
  query: <T>(text: string, params: unknown[] = []) => prisma.$queryRawUnsafe<T[]>(text, ...params),
});

// bytea's hex input form; inside JSON it reaches the column's input function as text.
export const hex = (b: Buffer) => `\\x${b.toString('hex')}`;
export const optHex = (b: Buffer | null) => (b ? hex(b) : null);
export const dec = (n: bigint | null) => (n === null ? null : n.toString());

/** The columns and row type of `table` as SQL fragments (names are constants of the calling module). */
export function tableSql(table: string, columns: readonly string[]) {
  return { cols: Prisma.raw(columns.map((c) => `"${c}"`).join(', ')), tbl: Prisma.raw(`"${table}"`) };
}

/**
 * The rows as a relation of the table's row type, for `SELECT columns FROM <this> AS r`: the JSON rows
 * expanded by json_populate_recordset, and each binary column sliced out of its parameter — every value of
 * the column end to end (node-postgres sends a Buffer as binary), where each starts (int4[]) and how long
 * it is (-1: null), by the row's position. Names are constants of the calling module (Prisma.raw).
 */
function rowSource(t: TableRows): Prisma.Sql {
  const { tbl } = tableSql(t.table, t.columns);
  const binary = t.binary ?? [];
  if (binary.length === 0) return Prisma.sql`json_populate_recordset(NULL::${tbl}, ${JSON.stringify(t.rows)}::json)`;
  const params = binary.map((c, i) => {
    const starts: number[] = [];
    const lengths: number[] = [];
    const values: Buffer[] = [];
    let at = 0;
    for (const r of t.rows) {
      const b = r[c];
      if (b !== null && b !== undefined && !Buffer.isBuffer(b)) throw new Error(`${t.table}.${c}: a binary column holds a ${typeof b}`);
      starts.push(at);
      lengths.push(b ? b.length : -1);
      if (b) {
        values.push(b);
        at += b.length;
      }
    }
    // Array literals as text: node-postgres would build them element by element.
    return Prisma.sql`${Buffer.concat(values, at)}::bytea AS ${Prisma.raw(`b${i}`)}, ${`{${starts.join(',')}}`}::int4[] AS ${Prisma.raw(`s${i}`)}, ${`{${lengths.join(',')}}`}::int4[] AS ${Prisma.raw(`l${i}`)}`;
  });
  const n = 'j.ordinality::int4';
  const select = t.columns.map((c) => {
    const i = binary.indexOf(c);
    return Prisma.raw(i < 0 ? `j."${c}"` : `CASE WHEN p.l${i}[${n}] < 0 THEN NULL ELSE substring(p.b${i} FROM p.s${i}[${n}] + 1 FOR p.l${i}[${n}]) END AS "${c}"`);
  });
  const json = JSON.stringify(t.rows.map((r) => withoutKeys(r, binary)));
  return Prisma.sql`(SELECT ${Prisma.join(select)} FROM (SELECT ${Prisma.join(params)}) AS p, json_populate_recordset(NULL::${tbl}, ${json}::json) WITH ORDINALITY AS j)`;
}

function withoutKeys(r: Row, keys: readonly string[]): Row {
  const out: Row = {};
  for (const k in r) if (!keys.includes(k)) out[k] = r[k]!;
  return out;
}

/** `t` with its binary columns as bytea's hex text, as they were written before (rowSource). */
const hexRows = (t: TableRows): TableRows =>
  t.binary?.length
    ? { ...t, binary: undefined, rows: t.rows.map((r) => ({ ...r, ...Object.fromEntries(t.binary!.map((c) => [c, r[c] ? hex(r[c] as Buffer) : null])) })) }
    : t;

/**
 * INSERT INTO table (columns) SELECT columns FROM <the rows> ON CONFLICT … (rowSource). Table and column
 * names are constants of the calling module (Prisma.raw); the rows are parameters.
 */
export async function insertRows(tx: Tx, t: TableRows) {
  if (t.rows.length === 0) return;
  const { cols, tbl } = tableSql(t.table, t.columns);
  await run(tx, Prisma.sql`INSERT INTO ${tbl} (${cols}) SELECT ${cols} FROM ${rowSource(t)} AS r ${Prisma.raw(t.onConflict ?? 'ON CONFLICT DO NOTHING')}`);
}

/**
 * The write path before tables were merged into one statement (one statement per table), kept for the
 * equivalence test (write-path.test.ts): it sets this to index a chain both ways and compare the rows.
 */
export const writeMode = { statementPerTable: false };

/**
 * The INSERT of insertRows as a data-modifying WITH item `name AS (INSERT …)`; `filter` a WHERE on the
 * recordset's rows (alias r), `returning` a RETURNING clause (both constants of the calling module).
 */
export function insertItem(name: string, t: TableRows, o: { filter?: Prisma.Sql; returning?: string } = {}): Prisma.Sql {
  const { cols, tbl } = tableSql(t.table, t.columns);
  return Prisma.sql`${Prisma.raw(name)} AS (INSERT INTO ${tbl} (${cols}) SELECT ${cols} FROM ${rowSource(t)} AS r ${o.filter ?? Prisma.empty} ${Prisma.raw(t.onConflict ?? 'ON CONFLICT DO NOTHING')} ${Prisma.raw(o.returning ?? '')})`;
}

/** WITH items… select: one statement, so one round trip for all of them (each item runs once, to completion). */
export const runWith = <T = Record<string, unknown>>(tx: Tx, items: Prisma.Sql[], select: Prisma.Sql) =>
  items.length === 0 ? run<T>(tx, select) : run<T>(tx, Prisma.sql`WITH ${Prisma.join(items, ', ')} ${select}`);

/**
 * Writes the tables' rows in as few statements as can be: the INSERTs of a statement are WITH items of
 * it, which all read the snapshot taken before it, so a table written twice (derive stages may both add
 * to one) starts the next statement — an upsert must not meet the row another item of its statement
 * inserted. A round trip per table per block was most of the indexer's write time on a loaded machine.
 */
export async function insertTables(tx: Tx, tables: TableRows[]): Promise<void> {
  const nonEmpty = tables.filter((t) => t.rows.length > 0);
  if (writeMode.statementPerTable) {
    for (const t of nonEmpty.map(hexRows)) await insertRows(tx, t);
    return;
  }
  const groups: TableRows[][] = [];
  for (const t of nonEmpty) {
    const last = groups.at(-1);
    if (last && !last.some((g) => g.table === t.table)) last.push(t);
    else groups.push([t]);
  }
  for (const g of groups) {
    if (g.length === 1) await insertRows(tx, g[0]!);
    else await runWith(tx, g.map((t, i) => insertItem(`w${i}`, t)), Prisma.sql`SELECT 1 AS done`);
  }
}

/** `bytea` values of a list of buffers, for `= ANY(...)` filters: one JSON parameter. */
export const byteaList = (bufs: Buffer[]) => Prisma.sql`(SELECT decode(x, 'hex') FROM json_array_elements_text(${JSON.stringify(bufs.map((b) => b.toString('hex')))}::json) AS x)`;
