// The one way the indexer writes: a transaction on the database driver itself (lib/db/database.ts
// transaction(); Prisma re-encodes a raw query's parameters twice, which cost a fifth of the indexer's
// main thread), and a whole table's rows as a single JSON parameter that PostgreSQL expands with
// json_populate_recordset against the table's own row type: one statement per table and block, on
// PGlite and PostgreSQL alike, and no value is ever spliced into SQL text.
import { Prisma, type PrismaClient } from '../db/generated/client';
import { databaseOf } from '../db/database';
import type { SqlSession } from '../db/sql';

/** A write transaction (or, for reads outside one, prismaReader): parameterized queries only. */
export type Tx = Pick<SqlSession, 'query'>;
export type Row = Record<string, string | number | boolean | null | object>;

/** Rows another stage (lib/indexer/derive) computed for a table, written in the block's transaction. */
export interface TableRows {
  table: string;
  columns: readonly string[];
  rows: Row[];
  /** ON CONFLICT clause, a constant of the module that builds the rows (default: skip existing rows). */
  onConflict?: string;
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
 * INSERT INTO table (columns) SELECT columns FROM json_populate_recordset(NULL::table, $1) ON CONFLICT …
 * Table and column names are constants of the calling module (Prisma.raw); the rows are the one parameter.
 */
export async function insertRows(tx: Tx, table: string, columns: readonly string[], rows: Row[], onConflict = 'ON CONFLICT DO NOTHING') {
  if (rows.length === 0) return;
  const { cols, tbl } = tableSql(table, columns);
  await run(tx, Prisma.sql`INSERT INTO ${tbl} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${tbl}, ${JSON.stringify(rows)}::json) ${Prisma.raw(onConflict)}`);
}

/** `bytea` values of a list of buffers, for `= ANY(...)` filters: one JSON parameter. */
export const byteaList = (bufs: Buffer[]) => Prisma.sql`(SELECT decode(x, 'hex') FROM json_array_elements_text(${JSON.stringify(bufs.map((b) => b.toString('hex')))}::json) AS x)`;
