// The trace backfill: an index made before trace assembly (its transactions and messages have trace_id
// NULL, and it has no traces nor actions) gets them as if its blocks had been indexed with traces.
// Transactions are walked in masterchain block order, a range of blocks per batch, through the same
// assembly as the block path (traces.ts: a receiver joins its sender's trace, found in the batch or
// already stored) and the completed traces are classified in the batch's transaction. Resumable like
// the derive backfill (same job table and batch commit, derive/backfill.ts): the cursor is the last
// masterchain block whose transactions are done, committed with the batch's rows.
//
// Run after the derive backfill when both are due, so the classifier sees the derived token tables.
import { Prisma, type PrismaClient } from '../db/generated/client';
import type { Logger } from '../log';
import { commitJobBatch } from './derive/backfill';
import { fillTraceIds } from './derive/trace-ids';
import { byteaList, run, type Tx } from './sql';
import { classifyTraces } from './trace-actions';
import { assembleTraces, type TraceMessageInput, type TraceTransactionInput } from './traces';

/** The job's id in derive_jobs. */
export const TRACE_BACKFILL_JOB = 'traces-v1';

export interface TraceBackfillOptions {
  prisma: PrismaClient;
  log: Logger;
  /** Masterchain blocks per batch and database transaction. */
  blocks?: number;
  /** Checked between batches: true ends the run early (it resumes next time). */
  shouldStop?: () => boolean;
}

export interface TraceBackfillResult {
  transactions: number;
  traces: number;
  done: boolean;
}

/**
 * Whether the index holds transactions without a trace. Decided once: an index with none (a fresh one,
 * or one whose every transaction has its trace) records the job as done and is not looked at again.
 */
export async function traceBackfillNeeded(prisma: PrismaClient): Promise<boolean> {
  const job = await prisma.deriveJob.findUnique({ where: { id: TRACE_BACKFILL_JOB } });
  if (job) return job.doneAt === null;
  const untraced = await prisma.transaction.findFirst({ where: { traceId: null }, select: { hash: true } });
  await prisma.deriveJob.upsert({ where: { id: TRACE_BACKFILL_JOB }, create: { id: TRACE_BACKFILL_JOB, doneAt: untraced ? null : new Date() }, update: {} });
  return untraced !== null;
}

/** Assigns traces to the untraced transactions of masterchain blocks [from, to] (one batch). */
async function traceBlocks(tx: Tx, from: number, to: number): Promise<{ transactions: number; traces: number }> {
  const txs = await run<{ hash: Uint8Array; lt: bigint; now: number; mc_block_seqno: number }>(tx, Prisma.sql`
    SELECT hash, lt, now, mc_block_seqno FROM transactions
    WHERE mc_block_seqno BETWEEN ${from} AND ${to} AND trace_id IS NULL ORDER BY lt`);
  if (!txs.length) return { transactions: 0, traces: 0 };
  const hashes = byteaList(txs.map((t) => Buffer.from(t.hash)));
  const msgs = await run<{ tx_hash: Uint8Array; direction: string; msg_hash: Uint8Array; msg_hash_norm: Uint8Array | null; source: string | null; destination: string | null }>(tx, Prisma.sql`
    SELECT tx_hash, direction, msg_hash, msg_hash_norm, source, destination FROM messages WHERE tx_hash IN ${hashes}`);
  const transactions: TraceTransactionInput[] = txs.map((t) => ({ hash: Buffer.from(t.hash), lt: BigInt(t.lt), now: t.now, mcBlockSeqno: t.mc_block_seqno }));
  const messages: TraceMessageInput[] = msgs.map((m) => ({
    txHash: Buffer.from(m.tx_hash),
    direction: m.direction as TraceMessageInput['direction'],
    msgHash: Buffer.from(m.msg_hash),
    msgHashNorm: m.msg_hash_norm ? Buffer.from(m.msg_hash_norm) : null,
    source: m.source,
    destination: m.destination,
  }));
  // Counters first (they count the stored rows that already carry the trace), then the rows' trace_id.
  const { traceOf, completed } = await assembleTraces(tx, transactions, messages, to, { untraced: true });
  const pairs = JSON.stringify([...traceOf].map(([hash, trace]) => ({ hash, trace: trace.toString('hex') })));
  const assigned = Prisma.sql`(SELECT decode(p->>'hash', 'hex') AS hash, decode(p->>'trace', 'hex') AS trace FROM json_array_elements(${pairs}::json) AS p)`;
  await run(tx, Prisma.sql`UPDATE transactions SET trace_id = a.trace FROM ${assigned} AS a WHERE transactions.hash = a.hash AND transactions.trace_id IS NULL`);
  await run(tx, Prisma.sql`UPDATE messages SET trace_id = a.trace FROM ${assigned} AS a WHERE messages.tx_hash = a.hash AND messages.trace_id IS NULL`);
  await fillTraceIds(tx, assigned);
  await classifyTraces(tx, completed, undefined, { unclassified: true });
  return { transactions: traceOf.size, traces: new Set([...traceOf.values()].map((b) => b.toString('hex'))).size };
}

/** Runs (or resumes) the trace backfill until it is done or shouldStop() says so. */
export async function runTraceBackfill(o: TraceBackfillOptions): Promise<TraceBackfillResult> {
  const step = o.blocks ?? 100;
  const result: TraceBackfillResult = { transactions: 0, traces: 0, done: false };
  const job = await o.prisma.deriveJob.upsert({ where: { id: TRACE_BACKFILL_JOB }, create: { id: TRACE_BACKFILL_JOB }, update: {} });
  if (job.doneAt) return { ...result, done: true };
  // Blocks indexed from now on get their traces on the block path: the job ends at the last untraced one.
  const [range] = await o.prisma.$queryRaw<{ first: number | null; last: number | null }[]>`
    SELECT min(mc_block_seqno) AS first, max(mc_block_seqno) AS last FROM transactions WHERE trace_id IS NULL`;
  let cursor = job.lastAccount !== null ? Number(job.lastAccount) : (range?.first ?? 1) - 1;
  const last = range?.last ?? cursor;
  o.log.info({ fromSeqno: cursor + 1, toSeqno: last, processed: job.processed }, 'trace backfill: starting');
  while (cursor < last) {
    if (o.shouldStop?.()) return result;
    const from = cursor + 1;
    const to = Math.min(last, cursor + step);
    let batch = { transactions: 0, traces: 0 };
    await commitJobBatch(o.prisma, TRACE_BACKFILL_JOB, String(to), async (tx) => {
      batch = await traceBlocks(tx, from, to);
      return batch.transactions;
    });
    cursor = to;
    result.transactions += batch.transactions;
    result.traces += batch.traces;
    o.log.info({ seqno: to, lastSeqno: last, transactions: job.processed + result.transactions }, 'trace backfill: blocks');
  }
  await o.prisma.deriveJob.update({ where: { id: TRACE_BACKFILL_JOB }, data: { doneAt: new Date() } });
  o.log.info({ transactions: result.transactions }, 'trace backfill: done');
  return { ...result, done: true };
}
