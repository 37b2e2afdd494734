// The `traces` table for the v3 trace routes (api-v3.md §2.4 /traces): filters, toncenter's ordering
// (end_lt {sort}, trace_id {sort}; end_utime with a time filter) and the SQL, including a page of one
// account's traces read off its own transactions.
import { Prisma, type Transaction } from '../../../db/generated/client';
import { bytes } from '../encode';
import type { SortOrder } from '../params';
import { transactionsWhere } from './transactions';
import type { SqlReader } from '../../../db/sql';

export interface TraceRow {
  trace_id: Uint8Array;
  external_hash: Uint8Array | null;
  external_hash_norm: Uint8Array | null;
  mc_seqno_start: number;
  mc_seqno_end: number;
  start_lt: bigint;
  start_utime: number;
  end_lt: bigint;
  end_utime: number;
  state: 'complete' | 'pending' | 'broken';
  transactions: number;
  messages: number;
  pending_messages: number;
  is_incomplete: boolean;
  classification_state: 'unclassified' | 'failed' | 'ok' | 'broken';
  classifier_version: number | null;
}

export interface TraceFilter {
  account?: string;
  traceId?: Buffer[];
  txHash?: Buffer[];
  msgHash?: Buffer[];
  mcSeqno?: number;
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
  take: number;
  skip: number;
  sort: SortOrder;
}

const byteaArray = (bufs: Buffer[]) => Prisma.sql`${bufs.map(bytes)}::bytea[]`;

const TRACE_COLUMNS = Prisma.sql`tr.trace_id, tr.external_hash, tr.external_hash_norm, tr.mc_seqno_start, tr.mc_seqno_end, tr.start_lt, tr.start_utime, tr.end_lt, tr.end_utime,
  tr.state, tr.transactions, tr.messages, tr.pending_messages, tr.is_incomplete, tr.classification_state, tr.classifier_version`;

const byTime = (f: TraceFilter) => f.startUtime !== undefined || f.endUtime !== undefined;
const direction = (f: TraceFilter) => Prisma.raw(f.sort === 'asc' ? 'ASC' : 'DESC');
const ordering = (f: TraceFilter) =>
  byTime(f) ? Prisma.sql`tr.end_utime ${direction(f)}, tr.trace_id ${direction(f)}` : Prisma.sql`tr.end_lt ${direction(f)}, tr.trace_id ${direction(f)}`;

/** The WHERE conditions of `f` on the traces alias tr, the account aside (see findTraces). */
function conditions(f: TraceFilter): Prisma.Sql {
  const cond: Prisma.Sql[] = [Prisma.sql`TRUE`];
  // Each key resolves to trace ids through an index of its own table (transactions.hash,
  // messages.msg_hash / msg_hash_norm), then the traces by primary key.
  if (f.traceId?.length) cond.push(Prisma.sql`tr.trace_id = ANY(${byteaArray(f.traceId)})`);
  if (f.txHash?.length) cond.push(Prisma.sql`tr.trace_id IN (SELECT trace_id FROM transactions WHERE hash = ANY(${byteaArray(f.txHash)}))`);
  if (f.msgHash?.length) {
    const hs = byteaArray(f.msgHash);
    cond.push(Prisma.sql`tr.trace_id IN (SELECT trace_id FROM messages WHERE msg_hash = ANY(${hs}) OR msg_hash_norm = ANY(${hs}))`);
  }
  // toncenter: mc_seqno lists the traces that completed in that masterchain block.
  if (f.mcSeqno !== undefined) cond.push(Prisma.sql`tr.mc_seqno_end = ${f.mcSeqno} AND tr.state = 'complete'`);
  if (f.startUtime !== undefined) cond.push(Prisma.sql`tr.end_utime >= ${f.startUtime}::int8`);
  if (f.endUtime !== undefined) cond.push(Prisma.sql`tr.end_utime <= ${f.endUtime}::int8`);
  if (f.startLt !== undefined) cond.push(Prisma.sql`tr.end_lt >= ${f.startLt}::int8`);
  if (f.endLt !== undefined) cond.push(Prisma.sql`tr.end_lt <= ${f.endLt}::int8`);
  return Prisma.join(cond, ' AND ');
}

const pageOf = (f: TraceFilter) => Prisma.sql`ORDER BY ${ordering(f)} LIMIT ${f.take} OFFSET ${f.skip}`;

/** /traces: at most one of account, trace_id, tx_hash, msg_hash (the route checks), plus ranges. */
export async function findTraces(sql: SqlReader, f: TraceFilter): Promise<TraceRow[]> {
  if (!f.account || f.mcSeqno !== undefined) return sql.rows<TraceRow>(tracesQuery(f));
  return byTime(f) ? accountTracesByTime(sql, f, f.account) : accountTracesByLt(sql, f, f.account);
}

/**
 * A page by the filters' own indexes (exported for the plan test). With an account, only together with
 * mc_seqno: the traces that ended in one masterchain block are few, so each is checked for a
 * transaction of the account (by the transactions' trace_id index) — the account walks below would go
 * through its whole history looking for that block's traces.
 */
export function tracesQuery(f: TraceFilter): Prisma.Sql {
  const mine = f.account
    ? Prisma.sql`AND EXISTS (SELECT 1 FROM transactions t WHERE t.trace_id = tr.trace_id AND t.account = ${f.account})`
    : Prisma.empty;
  return Prisma.sql`SELECT ${TRACE_COLUMNS} FROM traces tr WHERE ${conditions(f)} ${mine} ${pageOf(f)}`;
}

/**
 * An account's traces in end_lt order, walking its transactions by lt (the (account, lt) index) in
 * growing batches until the walk proves the page exact. A trace spans its transactions: start_lt ≤ lt
 * ≤ end_lt (start_lt is the root's lt, every other transaction of it comes later; end_lt the latest).
 * Newest first, after walking down to lt P: every trace met ends at or after P; a trace not met has only
 * transactions of the account below P, so it ends before P unless it is still running at P — those
 * traces "alive at P" are few and found by the span index (traces_lt_span_idx). So the met and alive
 * traces hold the page once they hold offset + limit traces, or the walk ran out of transactions, or
 * P is at or below start_lt (what ends before P is filtered out). Oldest first, after walking up to lt
 * P: a trace not met ends after P, so the page is exact once its last trace ends at or before P, the
 * walk ran out, or P reached end_lt. (`firstBatch`: tests start small to take every step.)
 */
export async function accountTracesByLt(sql: SqlReader, f: TraceFilter, account: string, firstBatch = Math.max(64, 3 * (f.skip + f.take))): Promise<TraceRow[]> {
  for (let batch = firstBatch; ; batch *= 4) {
    const walk = await sql.rows<{ lt: bigint; trace_id: Uint8Array | null }>(accountWalkQuery(f, account, batch));
    if (!walk.length) return [];
    const edge = walk[walk.length - 1]!.lt;
    const ids = [...new Map(walk.flatMap((w) => (w.trace_id ? [[Buffer.from(w.trace_id).toString('hex'), bytes(w.trace_id)] as const] : []))).values()];
    const page = await sql.rows<TraceRow>(accountPageQuery(f, account, ids, edge));
    if (walk.length < batch) return page;
    const exact =
      f.sort === 'asc'
        ? (page.length === f.take && page[page.length - 1]!.end_lt <= edge) || (f.endLt !== undefined && edge >= f.endLt)
        : page.length === f.take || (f.startLt !== undefined && edge <= f.startLt);
    if (exact) return page;
  }
}

/**
 * One step of accountTracesByLt: the account's `batch` transactions nearest the page's end, in the
 * walk's order (below end_lt when newest first: a trace ending by then has all its transactions by
 * then). Exported for the plan test.
 */
export function accountWalkQuery(f: TraceFilter, account: string, batch: number): Prisma.Sql {
  const below = f.sort !== 'asc' && f.endLt !== undefined ? Prisma.sql`AND t.lt <= ${f.endLt}::int8` : Prisma.empty;
  return Prisma.sql`SELECT t.lt, t.trace_id FROM transactions t WHERE t.account = ${account} ${below} ORDER BY t.lt ${direction(f)} LIMIT ${batch}`;
}

/**
 * The page among the walked traces `ids` and (newest first) the traces alive at the walk's `edge` with
 * a transaction of the account. A query of its own, so the edge is a value the planner sees: the span
 * index then estimates the few traces alive there (as an unknown it guesses thousands, and a parallel
 * plan costs more to start than the whole lookup). Each trace by its primary key (LIMIT 1 keeps the
 * lookup per id: never a join the planner could turn into reading traces by a range filter's index).
 * Exported for the plan test.
 */
export function accountPageQuery(f: TraceFilter, account: string, ids: Uint8Array[], edge: bigint): Prisma.Sql {
  const alive =
    f.sort !== 'asc'
      ? Prisma.sql`UNION SELECT s.trace_id FROM traces s
          WHERE int8range(s.start_lt, s.end_lt, '[]') @> ${edge}::int8
            AND EXISTS (SELECT 1 FROM transactions x WHERE x.trace_id = s.trace_id AND x.account = ${account})`
      : Prisma.empty;
  return Prisma.sql`
    SELECT tr.* FROM (SELECT unnest(${ids}::bytea[]) AS trace_id ${alive}) ids
    CROSS JOIN LATERAL (SELECT ${TRACE_COLUMNS} FROM traces tr WHERE tr.trace_id = ids.trace_id AND ${conditions(f)} LIMIT 1) tr
    ${pageOf(f)}`;
}

/**
 * With a time filter (end_utime order, which lts do not bound). A busy account has some traces in
 * nearly every stretch of traces, so the first WINDOW traces in the page's order hold its page: exact
 * whenever they hold at least offset + limit of its traces (any later trace sorts after all of them).
 * Otherwise (a quiet account, or one busy long ago) its own transactions' traces are looked up and
 * sorted: few, or bounded by its history, never a walk down every newer trace looking for it.
 */
async function accountTracesByTime(sql: SqlReader, f: TraceFilter, account: string): Promise<TraceRow[]> {
  const busy = await sql.rows<{ n: bigint }>(accountBusyQuery(account));
  if (Number(busy[0]!.n) >= WINDOW) {
    const rows = await sql.rows<TraceRow>(accountWindowQuery(f, account));
    if (rows.length === f.take) return rows;
  }
  return sql.rows<TraceRow>(accountOwnTracesQuery(f, account));
}

/** The steps of accountTracesByTime (exported for the plan test): whether the account is busy (WINDOW transactions or more), */
export const accountBusyQuery = (account: string): Prisma.Sql => Prisma.sql`
  SELECT count(*) AS n FROM (SELECT 1 FROM transactions WHERE account = ${account} LIMIT ${WINDOW}) x`;

/** its page among the newest WINDOW traces of the filters, */
export const accountWindowQuery = (f: TraceFilter, account: string): Prisma.Sql => Prisma.sql`
  SELECT ${TRACE_COLUMNS} FROM (SELECT * FROM traces tr WHERE ${conditions(f)} ORDER BY ${ordering(f)} LIMIT ${WINDOW}) tr
  WHERE EXISTS (SELECT 1 FROM transactions t WHERE t.trace_id = tr.trace_id AND t.account = ${account}) ${pageOf(f)}`;

/** and its page among its own transactions' traces. */
export const accountOwnTracesQuery = (f: TraceFilter, account: string): Prisma.Sql => Prisma.sql`
  WITH mine AS MATERIALIZED (SELECT DISTINCT trace_id FROM transactions WHERE account = ${account})
  SELECT ${TRACE_COLUMNS} FROM traces tr WHERE tr.trace_id IN (SELECT trace_id FROM mine) AND ${conditions(f)} ${pageOf(f)}`;

// Traces in the window a busy account's page is looked for in first (see accountTracesByTime).
const WINDOW = 2000;

/** The ids of the traces served with their transactions (not is_incomplete ones: those are not served whole). */
export const servedWhole = (traces: TraceRow[]) => traces.filter((t) => !t.is_incomplete).map((t) => bytes(t.trace_id));

/** The stored transaction rows of the traces served whole (servedWhole), in lt and account order. */
export async function transactionsOfTraces(sql: SqlReader, traces: TraceRow[]): Promise<Transaction[]> {
  const ids = servedWhole(traces);
  if (!ids.length) return [];
  return transactionsWhere(sql, { traceIds: ids });
}
