// Trace assembly, run inside the database transaction that stores a masterchain block (store.ts), so a
// crash leaves the traces exactly as consistent as the transactions.
//
// A transaction starts a trace when it has no internal in-message (an external-in or a tick-tock): the
// trace_id is its hash. A transaction whose in-message is internal joins the trace of the transaction
// that sent it: in the same batch (transactions are walked in lt order, and a receiver's lt is always
// above its sender's) or already stored (its out-message row carries the trace_id). A message is
// always sent in the same or an earlier masterchain block than it is received, so when neither holds
// the sender was never indexed (the index started after it, or the sender was stored before traces
// existed): the receiver then roots a trace of its own in state `broken`, which never changes.
//
// Counters as toncenter's trace_info: `transactions` (nodes), `messages` (delivered internal messages,
// the edges), `pending_messages` (internal messages sent and not yet received). A trace is `pending`
// while pending_messages > 0 and `complete` when it reaches 0 (nothing in flight means nothing more can
// join). Each batch only adds deltas, in one upsert.
import { Prisma } from '../db/generated/client';
import { CLASSIFIER_VERSION } from '../actions/model';
import type { MessageRecord, TransactionRecord } from '../chain/records';
import { byteaList, hex, optHex, run, tableSql, type Row, type Tx } from './sql';

/** A trace's classification_state once the classifier ran on it. */
export type ClassificationState = 'ok' | 'failed';

/** toncenter's -max-trace-txs: larger traces are flagged is_incomplete, not classified nor served whole. */
export const MAX_TRACE_TRANSACTIONS = 4000;

/** What trace assembly reads of a transaction and of a message (records of a block, or stored rows). */
export type TraceTransactionInput = Pick<TransactionRecord, 'hash' | 'lt' | 'now' | 'mcBlockSeqno'>;
export type TraceMessageInput = Pick<MessageRecord, 'txHash' | 'direction' | 'msgHash' | 'msgHashNorm' | 'source' | 'destination'>;

export interface TraceAssembly {
  /** trace_id of every new transaction of the batch, by transaction hash (hex). */
  traceOf: Map<string, Buffer>;
  /** Traces that became complete with this batch (not is_incomplete): to classify. */
  completed: Buffer[];
  /**
   * Of those, the ones whose every transaction is in the batch (most traces: a devnet or a busy chain
   * delivers a trace's messages within one masterchain block), by trace_id (hex): the classifier's input
   * is built from the batch's records instead of read back (trace-input.ts batchTraces).
   */
  whole: Map<string, TraceHead>;
}

/** A trace's own fields the classifier reads (as stored after the batch). */
export interface TraceHead {
  traceId: Buffer;
  externalHash: Buffer | null;
  externalHashNorm: Buffer | null;
  mcSeqnoEnd: number;
  endLt: bigint;
  endUtime: number;
}

export interface Delta {
  traceId: Buffer;
  externalHash: Buffer | null;
  externalHashNorm: Buffer | null;
  broken: boolean;
  isNew: boolean;
  mcStart: number;
  mcEnd: number;
  startLt: bigint;
  startUtime: number;
  endLt: bigint;
  endUtime: number;
  transactions: number;
  messages: number;
  pending: number;
}

const key = (b: Buffer) => b.toString('hex');

/**
 * Assigns a trace to every transaction of the batch not stored yet (a re-run batch adds nothing) and
 * writes the traces' new counters. Call before inserting the transactions and messages.
 *
 * `untraced`: the transactions are stored already without a trace (an index made before trace assembly,
 * trace-backfill.ts); those that have one are skipped instead. Call before setting their trace_id.
 */
export async function assembleTraces(
  tx: Tx,
  transactions: TraceTransactionInput[],
  messages: TraceMessageInput[],
  mcSeqno: number,
  o: { untraced?: boolean } = {},
): Promise<TraceAssembly> {
  const plan = await planTraces(tx, transactions, messages, mcSeqno, o);
  return { traceOf: plan.traceOf, ...(await writeTraces(tx, plan)) };
}

/** The batch's traces worked out before anything of them is written (assembleTraces' first half). */
export interface TracePlan {
  traceOf: Map<string, Buffer>;
  deltas: Delta[];
}

/**
 * The traces the batch creates and completes on its own (a new root, nothing left in flight, not over
 * MAX_TRACE_TRANSACTIONS): known complete and whole before the traces are written, so the store
 * classifies them first and inserts them classified, instead of an UPDATE of every such trace row
 * after the insert (which rewrote the row and every index of it). writeTraces checks each was indeed
 * inserted, not merged into a stored row.
 */
export function wholeNewTraces(plan: TracePlan): TraceHead[] {
  return plan.deltas
    .filter((d) => d.isNew && !d.broken && d.pending <= 0 && d.transactions <= MAX_TRACE_TRANSACTIONS)
    .map((d) => ({ traceId: d.traceId, externalHash: d.externalHash, externalHashNorm: d.externalHashNorm, mcSeqnoEnd: d.mcEnd, endLt: d.endLt, endUtime: d.endUtime }));
}

/**
 * The first half of assembleTraces: reads what is stored (transactions of the batch already there, the
 * senders of its messages) and assigns every new transaction its trace; writes nothing.
 */
export async function planTraces(
  tx: Tx,
  transactions: TraceTransactionInput[],
  messages: TraceMessageInput[],
  mcSeqno: number,
  o: { untraced?: boolean; senderTrace?: (msgHashHex: string) => Buffer | undefined } = {},
): Promise<TracePlan> {
  const traceOf = new Map<string, Buffer>();
  if (transactions.length === 0) return { traceOf, deltas: [] };

  const hashes = byteaList(transactions.map((t) => t.hash));
  const stored = o.untraced
    ? await run<{ hash: Uint8Array }>(tx, Prisma.sql`SELECT hash FROM transactions WHERE hash IN ${hashes} AND trace_id IS NOT NULL`)
    : await run<{ hash: Uint8Array }>(tx, Prisma.sql`SELECT hash FROM transactions WHERE hash IN ${hashes}`);
  const skip = new Set(stored.map((r) => key(Buffer.from(r.hash))));
  const fresh = transactions.filter((t) => !skip.has(key(t.hash))).sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  if (fresh.length === 0) return { traceOf, deltas: [] };

  const inMsg = new Map<string, TraceMessageInput>();
  const outMsgs = new Map<string, TraceMessageInput[]>();
  const sentInBatch = new Map<string, string>(); // message hash -> sending transaction hash (new ones only)
  for (const m of messages) {
    const t = key(m.txHash);
    if (skip.has(t)) continue; // a stored sender is found through its stored out-message
    if (m.direction === 'in') inMsg.set(t, m);
    else {
      outMsgs.set(t, [...(outMsgs.get(t) ?? []), m]);
      sentInBatch.set(key(m.msgHash), t);
    }
  }
  const isInternal = (m: TraceMessageInput | undefined): m is TraceMessageInput => !!m && m.source !== null;

  // Senders stored by earlier batches: their out-message rows carry the trace_id.
  // Those the caller holds in memory (open-traces.ts) are not asked for.
  const storedParent = new Map<string, Buffer>();
  const earlier: TraceMessageInput[] = [];
  for (const t of fresh) {
    const m = inMsg.get(key(t.hash));
    if (!isInternal(m) || sentInBatch.has(key(m.msgHash))) continue;
    const held = o.senderTrace?.(key(m.msgHash));
    if (held) storedParent.set(key(m.msgHash), held);
    else earlier.push(m);
  }
  if (earlier.length > 0) {
    const rows = await run<{ msg_hash: Uint8Array; trace_id: Uint8Array }>(tx, Prisma.sql`
      SELECT msg_hash, trace_id FROM messages
      WHERE direction = 'out' AND trace_id IS NOT NULL AND msg_hash IN ${byteaList(earlier.map((m) => m.msgHash))}`);
    for (const r of rows) storedParent.set(key(Buffer.from(r.msg_hash)), Buffer.from(r.trace_id));
  }

  const deltas = new Map<string, Delta>();
  for (const t of fresh) {
    const h = key(t.hash);
    const m = inMsg.get(h);
    const mc = t.mcBlockSeqno ?? mcSeqno;
    let traceId: Buffer | undefined;
    let joined = false;
    if (isInternal(m)) {
      const sender = sentInBatch.get(key(m.msgHash));
      traceId = sender ? traceOf.get(sender) : storedParent.get(key(m.msgHash));
      joined = !!traceId;
    }
    if (!traceId) traceId = t.hash;
    traceOf.set(h, traceId);

    let d = deltas.get(key(traceId));
    if (!d) {
      const root = !joined;
      d = {
        traceId,
        externalHash: root ? (m?.msgHash ?? null) : null,
        externalHashNorm: root ? (m?.msgHashNorm ?? null) : null,
        broken: root && isInternal(m),
        isNew: root,
        mcStart: mc,
        mcEnd: mc,
        startLt: t.lt,
        startUtime: t.now,
        endLt: t.lt,
        endUtime: t.now,
        transactions: 0,
        messages: 0,
        pending: 0,
      };
      deltas.set(key(traceId), d);
    }
    d.transactions++;
    if (joined) {
      d.messages++;
      d.pending--;
    }
    d.pending += (outMsgs.get(h) ?? []).filter((o) => o.destination !== null).length;
    if (t.lt > d.endLt) d.endLt = t.lt;
    if (t.now > d.endUtime) d.endUtime = t.now;
    if (mc > d.mcEnd) d.mcEnd = mc;
  }

  return { traceOf, deltas: [...deltas.values()] };
}

const TRACE_COLUMNS = [
  'trace_id', 'external_hash', 'external_hash_norm', 'mc_seqno_start', 'mc_seqno_end', 'start_lt', 'start_utime', 'end_lt', 'end_utime',
  'state', 'transactions', 'messages', 'pending_messages', 'is_incomplete', 'classification_state', 'classifier_version',
] as const;

/**
 * New traces are inserted as they are. A trace that exists (its root was stored by an earlier batch) gets
 * its counters from its stored rows plus the batch's (not its stored counters plus the batch's: a
 * transaction that was lost and is indexed again would count twice), and its end extended. A broken
 * trace stays broken. Returns the traces that are complete after the batch and not classified yet.
 *
 * `classified`: traces of wholeNewTraces the caller classified already (by trace_id hex), inserted with
 * their classification_state and the classifier's version; `classifiedInserted` says which were indeed
 * inserted (their actions are to be stored), not found stored already.
 */
export async function writeTraces(
  tx: Tx,
  plan: TracePlan,
  classified: Map<string, ClassificationState> = new Map(),
  held: HeldCount = () => 0,
): Promise<TraceWrite> {
  const upsert = traceUpsert(plan, classified, held);
  return upsert.read(await run<TraceResultRow>(tx, upsert.sql));
}

/** What writeTraces tells of the traces after the batch; `open`: those still in flight (trace_id hex), not broken nor too large. */
export type TraceWrite = Pick<TraceAssembly, 'completed' | 'whole'> & { classifiedInserted: Set<string>; open: Set<string> };

/** How many earlier transactions of a trace (hex) the caller holds in memory (open-traces.ts). */
export type HeldCount = (traceHex: string) => number;

/** A trace row as the upsert returns it. */
export interface TraceResultRow {
  trace_id: Uint8Array;
  state: string;
  is_incomplete: boolean;
  classifier_version: number | null;
  transactions: number;
  external_hash: Uint8Array | null;
  external_hash_norm: Uint8Array | null;
  mc_seqno_end: number;
  end_lt: bigint;
  end_utime: number;
  inserted: boolean;
}

/**
 * writeTraces as a statement and the reading of its rows: the store runs it as a WITH item (named tr)
 * of the statement that also inserts the batch's transactions and messages — which that statement's
 * counting subqueries do not see, as the counters want.
 */
export function traceUpsert(
  { deltas }: TracePlan,
  classified: Map<string, ClassificationState>,
  held: HeldCount,
): { sql: Prisma.Sql; read: (rows: TraceResultRow[]) => TraceWrite } {
  const rows: Row[] = deltas.map((d) => ({
    trace_id: hex(d.traceId),
    external_hash: optHex(d.externalHash),
    external_hash_norm: optHex(d.externalHashNorm),
    mc_seqno_start: d.mcStart,
    mc_seqno_end: d.mcEnd,
    start_lt: d.startLt.toString(),
    start_utime: d.startUtime,
    end_lt: d.endLt.toString(),
    end_utime: d.endUtime,
    state: d.broken ? 'broken' : d.pending > 0 ? 'pending' : 'complete',
    transactions: d.transactions,
    messages: d.messages,
    pending_messages: d.pending,
    is_incomplete: d.transactions > MAX_TRACE_TRANSACTIONS,
    classification_state: classified.get(key(d.traceId)) ?? 'unclassified',
    classifier_version: classified.has(key(d.traceId)) ? CLASSIFIER_VERSION : null,
  }));
  const { cols } = tableSql('traces', TRACE_COLUMNS);
  // The stored rows' counts, as verify.ts counts them (the batch's rows are not inserted yet).
  const storedTxs = Prisma.sql`(SELECT count(*) FROM transactions t WHERE t.trace_id = traces.trace_id)`;
  const storedJoined = Prisma.sql`(SELECT count(*) FROM messages m WHERE m.trace_id = traces.trace_id AND m.direction = 'in' AND m.source IS NOT NULL AND m.tx_hash <> traces.trace_id)`;
  const storedOuts = Prisma.sql`(SELECT count(*) FROM messages m WHERE m.trace_id = traces.trace_id AND m.direction = 'out' AND m.destination IS NOT NULL)`;
  const pending = Prisma.sql`(${storedOuts} - ${storedJoined} + EXCLUDED.pending_messages)`;
  const sql = Prisma.sql`
    INSERT INTO traces (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::traces, ${JSON.stringify(rows)}::json)
    ON CONFLICT (trace_id) DO UPDATE SET
      mc_seqno_end = GREATEST(traces.mc_seqno_end, EXCLUDED.mc_seqno_end),
      end_lt = GREATEST(traces.end_lt, EXCLUDED.end_lt),
      end_utime = GREATEST(traces.end_utime, EXCLUDED.end_utime),
      transactions = ${storedTxs} + EXCLUDED.transactions,
      messages = ${storedJoined} + EXCLUDED.messages,
      pending_messages = ${pending},
      is_incomplete = ${storedTxs} + EXCLUDED.transactions > ${MAX_TRACE_TRANSACTIONS},
      state = CASE WHEN traces.state = 'broken' THEN 'broken' WHEN ${pending} > 0 THEN 'pending' ELSE 'complete' END
    RETURNING trace_id, state, is_incomplete, classifier_version, transactions, external_hash, external_hash_norm, mc_seqno_end, end_lt, end_utime,
      (xmax = 0) AS inserted`;
  return { sql, read: (after) => readTraces(deltas, classified, held, after) };
}

function readTraces(deltas: Delta[], classified: Map<string, ClassificationState>, held: HeldCount, after: TraceResultRow[]): TraceWrite {
  const inBatch = new Map(deltas.map((d) => [key(d.traceId), d.transactions]));
  const completed: Buffer[] = [];
  const whole = new Map<string, TraceHead>();
  // Classified before the write and inserted as such (a row merged into a stored one kept its own state).
  const classifiedInserted = new Set<string>();
  const open = new Set<string>();
  for (const r of after) {
    const id = key(Buffer.from(r.trace_id));
    if (r.inserted && classified.has(id)) {
      classifiedInserted.add(id);
      continue;
    }
    if (r.state === 'pending' && !r.is_incomplete) open.add(id);
    if (r.state !== 'complete' || r.is_incomplete || r.classifier_version !== null) continue;
    const traceId = Buffer.from(r.trace_id);
    completed.push(traceId);
    // Its stored count (after the batch) is the batch's own and the earlier ones the caller holds: no
    // transaction of it is stored that the caller does not have.
    if (Number(r.transactions) === inBatch.get(id)! + held(id)) {
      const opt = (b: Uint8Array | null) => (b ? Buffer.from(b) : null);
      whole.set(key(traceId), {
        traceId,
        externalHash: opt(r.external_hash),
        externalHashNorm: opt(r.external_hash_norm),
        mcSeqnoEnd: r.mc_seqno_end,
        endLt: BigInt(r.end_lt),
        endUtime: r.end_utime,
      });
    }
  }
  return { completed, whole, classifiedInserted, open };
}
