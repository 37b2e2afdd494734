// The one way the indexer writes rows: a whole table's rows as a single JSON parameter that PostgreSQL
// expands with json_populate_recordset against the table's own row type. Prisma's createMany through the
// driver adapters costs ~1 ms per row; one parameterized statement per table costs a few ms for
// thousands of rows, on PGlite and PostgreSQL alike, and no value is ever spliced into SQL text.
import { Prisma, type PrismaClient } from '../db/generated/client';

export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;
export type Row = Record<string, string | number | boolean | null | object>;

/** Rows another stage (lib/indexer/derive) computed for a table, written in the block's transaction. */
export interface TableRows {
  table: string;
  columns: readonly string[];
  rows: Row[];
  /** ON CONFLICT clause, a constant of the module that builds the rows (default: skip existing rows). */
  onConflict?: string;
}

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
  await tx.$executeRaw`INSERT INTO ${tbl} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${tbl}, ${JSON.stringify(rows)}::json) ${Prisma.raw(onConflict)}`;
}

/** `bytea` values of a list of buffers, for `= ANY(...)` filters: one JSON parameter. */
export const byteaList = (bufs: Buffer[]) => Prisma.sql`(SELECT decode(x, 'hex') FROM json_array_elements_text(${JSON.stringify(bufs.map((b) => b.toString('hex')))}::json) AS x)`;
