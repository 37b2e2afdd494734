// Jetton transfers, jetton burns and NFT transfers carry the trace of the transaction they were read
// from (trace_id of /api/v3/jetton/transfers, /jetton/burns, /nft/transfers). The derive stage reads
// them before the block's traces are assembled, so the rows get it where they are written: the block
// path from the traces it just assembled, the derive backfill from the stored transactions, the trace
// backfill when it gives old transactions their trace.
import { Prisma } from '../../db/generated/client';
import { byteaList, run, type TableRows, type Tx } from '../sql';

export const TRACED_TABLES: readonly string[] = ['jetton_transfers', 'jetton_burns', 'nft_transfers'];

/** The table's rows with a trace_id column: `traceOf` answers by transaction hash (hex), null when it has no trace yet. */
export function withTraceIds(t: TableRows, traceOf: (txHashHex: string) => Buffer | null): TableRows {
  if (!TRACED_TABLES.includes(t.table) || t.columns.includes('trace_id')) return t;
  const hashHex = (v: unknown) => String(v).replace(/^\\x/, '');
  return {
    ...t,
    columns: [...t.columns, 'trace_id'],
    rows: t.rows.map((r) => {
      const trace = traceOf(hashHex(r.tx_hash));
      return { ...r, trace_id: trace ? `\\x${trace.toString('hex')}` : null };
    }),
  };
}

/** withTraceIds for rows of transactions already stored: their trace_id read from `transactions`. */
export async function withStoredTraceIds(tx: Tx, tables: TableRows[]): Promise<TableRows[]> {
  const hashes = tables.filter((t) => TRACED_TABLES.includes(t.table)).flatMap((t) => t.rows.map((r) => Buffer.from(String(r.tx_hash).replace(/^\\x/, ''), 'hex')));
  if (hashes.length === 0) return tables;
  const rows = await run<{ hash: Uint8Array; trace_id: Uint8Array | null }>(tx, Prisma.sql`SELECT hash, trace_id FROM transactions WHERE hash IN ${byteaList(hashes)}`);
  const traces = new Map(rows.filter((r) => r.trace_id).map((r) => [Buffer.from(r.hash).toString('hex'), Buffer.from(r.trace_id!)]));
  return tables.map((t) => withTraceIds(t, (h) => traces.get(h) ?? null));
}

/** The trace backfill's step: rows of transactions that just got their trace (`assigned`: hash, trace). */
export async function fillTraceIds(tx: Tx, assigned: Prisma.Sql): Promise<void> {
  for (const table of TRACED_TABLES) {
    await run(tx, Prisma.sql`UPDATE ${Prisma.raw(`"${table}"`)} AS r SET trace_id = a.trace FROM ${assigned} AS a WHERE r.tx_hash = a.hash AND r.trace_id IS NULL`);
  }
}
