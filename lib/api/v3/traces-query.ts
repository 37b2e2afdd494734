// The `traces` table for the v3 routes: filters, ordering and SQL (api-v3.md §2.4 /traces), and a
// stored trace with its transactions as v3's Trace (trace_info, transactions_order, the trace tree).
import { Prisma, type PrismaClient } from '../../db/generated/client';
import { b64, bytes } from './encode';
import type { TraceJson, TraceNodeJson, TransactionJson } from './models';
import type { SortOrder } from './params';
import { transactionsWhere } from './queries/transactions';

export interface TraceRow {
  trace_id: Uint8Array;
  external_hash: Uint8Array | null;
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

/** /traces: at most one of account, trace_id, tx_hash, msg_hash (the route checks), plus ranges. */
export async function findTraces(prisma: PrismaClient, f: TraceFilter): Promise<TraceRow[]> {
  const cond: Prisma.Sql[] = [Prisma.sql`TRUE`];
  // Each key resolves to trace ids through an index of its own table (transactions.hash,
  // messages.msg_hash / msg_hash_norm), then the traces by primary key; an account is below.
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
  const dir = Prisma.raw(f.sort === 'asc' ? 'ASC' : 'DESC');
  const byTime = f.startUtime !== undefined || f.endUtime !== undefined;
  const order = byTime ? Prisma.sql`tr.end_utime ${dir}, tr.trace_id ${dir}` : Prisma.sql`tr.end_lt ${dir}, tr.trace_id ${dir}`;
  const where = Prisma.join(cond, ' AND ');
  const page = Prisma.sql`ORDER BY ${order} LIMIT ${f.take} OFFSET ${f.skip}`;
  if (!f.account) return prisma.$queryRaw<TraceRow[]>(Prisma.sql`SELECT ${TRACE_COLUMNS} FROM traces tr WHERE ${where} ${page}`);

  // An account: its traces are those of its transactions. A busy account has some in nearly every
  // stretch of traces, so the first WINDOW traces in the page's order hold its page: exact whenever they
  // hold at least offset + limit of its traces (any later trace sorts after all of them). Otherwise (a
  // quiet account, or one busy long ago) its own transactions' traces are looked up and sorted: few, or
  // bounded by its history, never a walk down every newer trace looking for it.
  const mine = (id: Prisma.Sql) => Prisma.sql`EXISTS (SELECT 1 FROM transactions t WHERE t.trace_id = ${id} AND t.account = ${f.account})`;
  const busy = await prisma.$queryRaw<{ n: bigint }[]>(Prisma.sql`
    SELECT count(*) AS n FROM (SELECT 1 FROM transactions WHERE account = ${f.account} LIMIT ${WINDOW}) x`);
  if (Number(busy[0]!.n) >= WINDOW) {
    const rows = await prisma.$queryRaw<TraceRow[]>(Prisma.sql`
      SELECT ${TRACE_COLUMNS} FROM (SELECT * FROM traces tr WHERE ${where} ORDER BY ${order} LIMIT ${WINDOW}) tr
      WHERE ${mine(Prisma.sql`tr.trace_id`)} ${page}`);
    if (rows.length === f.take) return rows;
  }
  return prisma.$queryRaw<TraceRow[]>(Prisma.sql`
    WITH mine AS MATERIALIZED (SELECT DISTINCT trace_id FROM transactions WHERE account = ${f.account})
    SELECT ${TRACE_COLUMNS} FROM traces tr WHERE tr.trace_id IN (SELECT trace_id FROM mine) AND ${where} ${page}`);
}

// Traces in the window a busy account's page is looked for in first (see findTraces).
const WINDOW = 2000;

const TRACE_COLUMNS = Prisma.sql`tr.trace_id, tr.external_hash, tr.mc_seqno_start, tr.mc_seqno_end, tr.start_lt, tr.start_utime, tr.end_lt, tr.end_utime,
  tr.state, tr.transactions, tr.messages, tr.pending_messages, tr.is_incomplete, tr.classification_state`;

/** The stored transaction rows of the given traces (not is_incomplete ones: those are not served whole). */
export async function transactionsOfTraces(prisma: PrismaClient, traces: TraceRow[]) {
  const ids = traces.filter((t) => !t.is_incomplete).map((t) => bytes(t.trace_id));
  if (!ids.length) return [];
  return transactionsWhere(prisma, { traceIds: ids });
}

/** Transactions in toncenter's transactions_order: lt ascending, then account. */
const byLtThenAccount = (a: TransactionJson, b: TransactionJson) => {
  const x = BigInt(a.lt);
  const y = BigInt(b.lt);
  return x < y ? -1 : x > y ? 1 : a.account < b.account ? -1 : a.account > b.account ? 1 : 0;
};

/**
 * The tree: each transaction hangs under the earlier transaction that sent its in-message. children is
 * [] for a transaction that sent nothing and null for one whose messages led to no transaction of the
 * trace (toncenter's shape).
 */
export function traceTree(txs: TransactionJson[]): { order: string[]; root: TraceNodeJson | null; missing: boolean } {
  const sorted = [...txs].sort(byLtThenAccount);
  const nodes = new Map<string, TraceNodeJson>();
  const sentBy = new Map<string, TraceNodeJson>();
  let root: TraceNodeJson | null = null;
  let missing = false;
  for (const t of sorted) {
    const node: TraceNodeJson = { tx_hash: t.hash, ...(t.in_msg ? { in_msg_hash: t.in_msg.hash } : {}), children: t.out_msgs.length ? null : [] };
    nodes.set(t.hash, node);
    const parent = t.in_msg ? sentBy.get(t.in_msg.hash) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else if (!root) root = node;
    else missing = true;
    for (const m of t.out_msgs) sentBy.set(m.hash, node);
  }
  return { order: sorted.map((t) => t.hash), root, missing };
}

/** v3's Trace (api-v3.md §3.5) from its row, its transactions (when loaded) and actions (when asked). */
export function traceJson(r: TraceRow, txs: TransactionJson[] | null, actions: TraceJson['actions']): TraceJson {
  const warnings: string[] = [];
  if (r.is_incomplete) warnings.push('trace is too large');
  const out: TraceJson = {
    trace_id: b64(r.trace_id),
    external_hash: r.external_hash ? b64(r.external_hash) : null,
    mc_seqno_start: String(r.mc_seqno_start),
    mc_seqno_end: String(r.mc_seqno_end),
    start_lt: String(r.start_lt),
    start_utime: r.start_utime,
    end_lt: String(r.end_lt),
    end_utime: r.end_utime,
    trace_info: {
      trace_state: r.state,
      messages: r.messages,
      transactions: r.transactions,
      pending_messages: r.pending_messages,
      classification_state: r.classification_state,
    },
    is_incomplete: r.is_incomplete,
  };
  let tree: ReturnType<typeof traceTree> | null = null;
  if (txs?.length) {
    tree = traceTree(txs);
    if (tree.missing) warnings.push('missing node in trace found');
  }
  if (warnings.length) out.warning = warnings.join(', ');
  if (actions) out.actions = actions;
  if (tree?.root && txs) {
    out.trace = tree.root;
    out.transactions_order = tree.order;
    out.transactions = Object.fromEntries(txs.map((t) => [t.hash, t]));
  }
  return out;
}
