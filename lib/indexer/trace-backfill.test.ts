// The trace backfill over an index made before trace assembly, simulated on a real indexed devnet (with
// the derive stage): trace_id nulled on every transaction and message, traces and actions deleted. The
// backfill, stopped halfway and resumed by the indexer at start-up, gives back exactly the rows the block
// path wrote: every transaction's and message's trace, every trace's counters and state, every action.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { log } from '../log';
import { startTestChain, type TestChain } from '../testing/chain';
import { createTestDatabase } from '../testing/database';
import { migrate } from '../db/migrate';
import { Indexer } from './follower';
import { runTraceBackfill, TRACE_BACKFILL_JOB, traceBackfillNeeded } from './trace-backfill';

let chain: TestChain;
const prisma = () => chain.db!.db.prisma;

/** Everything trace assembly and classification write, in a stable order. */
async function snapshot() {
  const p = prisma();
  return {
    transactions: await p.transaction.findMany({ select: { hash: true, traceId: true }, orderBy: { hash: 'asc' } }),
    messages: await p.message.findMany({ select: { txHash: true, msgHash: true, direction: true, traceId: true }, orderBy: [{ txHash: 'asc' }, { msgHash: 'asc' }, { direction: 'asc' }] }),
    traces: await p.trace.findMany({ orderBy: { traceId: 'asc' } }),
    actions: await p.action.findMany({ orderBy: [{ traceId: 'asc' }, { actionId: 'asc' }] }),
    actionAccounts: await p.actionAccount.findMany({ orderBy: [{ account: 'asc' }, { traceId: 'asc' }, { actionId: 'asc' }] }),
    tokenEvents: [
      ...(await p.jettonTransfer.findMany({ select: { txHash: true, traceId: true } })),
      ...(await p.jettonBurn.findMany({ select: { txHash: true, traceId: true } })),
      ...(await p.nftTransfer.findMany({ select: { txHash: true, traceId: true } })),
    ].sort((a, b) => Buffer.compare(Buffer.from(a.txHash), Buffer.from(b.txHash))),
  };
}
let original: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'trace-backfill', rounds: 3, index: true, derive: true });
  original = await snapshot();
  // An index made before trace assembly: no trace on any row, no traces, no actions.
  const p = prisma();
  await p.$executeRaw`UPDATE transactions SET trace_id = NULL`;
  await p.$executeRaw`UPDATE messages SET trace_id = NULL`;
  for (const t of ['jetton_transfers', 'jetton_burns', 'nft_transfers']) await p.$executeRawUnsafe(`UPDATE ${t} SET trace_id = NULL`);
  await p.$executeRaw`DELETE FROM action_accounts`;
  await p.$executeRaw`DELETE FROM actions`;
  await p.$executeRaw`DELETE FROM traces`;
}, 300_000);
afterAll(() => chain?.close());

describe('trace backfill', () => {
  it('the original index has traces and classified actions (NFT and jetton ones among them)', () => {
    expect(original.traces.length).toBeGreaterThan(20);
    expect(original.transactions.every((t) => t.traceId !== null)).toBe(true);
    // Jetton transfers and burns, NFT transfers: each with its transaction's trace.
    const traceOf = new Map(original.transactions.map((t) => [Buffer.from(t.hash).toString('hex'), t.traceId]));
    expect(original.tokenEvents.length).toBeGreaterThan(5);
    for (const e of original.tokenEvents) expect(e.traceId).toEqual(traceOf.get(Buffer.from(e.txHash).toString('hex')));
    const types = new Set(original.actions.map((a) => a.type));
    for (const t of ['jetton_transfer', 'nft_transfer', 'nft_mint', 'ton_transfer']) expect(types).toContain(t);
  });

  it('an index with untraced transactions needs it; a stopped run keeps its committed batches and cursor', async () => {
    expect(await traceBackfillNeeded(prisma())).toBe(true);
    const last = (await prisma().transaction.aggregate({ _max: { mcBlockSeqno: true } }))._max.mcBlockSeqno!;
    const half = Math.floor(last / 2);
    let batches = 0;
    const r = await runTraceBackfill({ prisma: prisma(), log, blocks: 1, shouldStop: () => batches++ >= half });
    expect(r.done).toBe(false);
    const job = await prisma().deriveJob.findUnique({ where: { id: TRACE_BACKFILL_JOB } });
    expect(job!.doneAt).toBeNull();
    const cursor = Number(job!.lastAccount);
    expect(cursor).toBeGreaterThan(0);
    expect(cursor).toBeLessThan(last);
    // Exactly the blocks up to the cursor are traced, and the progress counts their transactions.
    const traced = await prisma().transaction.count({ where: { traceId: { not: null } } });
    expect(traced).toBe(await prisma().transaction.count({ where: { mcBlockSeqno: { lte: cursor } } }));
    expect(job!.processed).toBe(traced);
    expect(r.transactions).toBe(traced);
    expect(await prisma().transaction.count({ where: { traceId: null, mcBlockSeqno: { lte: cursor } } })).toBe(0);
    expect(await traceBackfillNeeded(prisma())).toBe(true);
  }, 120_000);

  it('the indexer resumes it at start-up; traces, counters and actions come out as the block path wrote them', async () => {
    const indexer = new Indexer({ prisma: prisma(), client: chain.lite, log, network: 'devnet' });
    const started = performance.now();
    await indexer.run({ untilLive: true });
    expect(indexer.backfill).toBeDefined();
    await indexer.backfill;
    const ms = performance.now() - started;
    await indexer.stop();
    expect(await traceBackfillNeeded(prisma())).toBe(false);
    const job = await prisma().deriveJob.findUnique({ where: { id: TRACE_BACKFILL_JOB } });
    expect(job!.processed).toBe(await prisma().transaction.count());

    const rebuilt = await snapshot();
    console.log(
      `trace backfill: ${original.transactions.length} transactions, ${original.traces.length} traces, ${original.actions.length} actions; second half resumed in ${ms.toFixed(0)} ms`,
    );
    expect(rebuilt.transactions).toEqual(original.transactions);
    expect(rebuilt.messages).toEqual(original.messages);
    expect(rebuilt.traces).toEqual(original.traces);
    expect(rebuilt.actions).toEqual(original.actions);
    expect(rebuilt.actionAccounts).toEqual(original.actionAccounts);
    expect(rebuilt.tokenEvents).toEqual(original.tokenEvents);
  }, 180_000);

  it('a finished backfill is not run again; an index whose transactions all have traces never needs it', async () => {
    const indexer = new Indexer({ prisma: prisma(), client: chain.lite, log, network: 'devnet' });
    await indexer.run({ untilLive: true });
    expect(indexer.backfill).toBeUndefined();
    await indexer.stop();
    expect((await runTraceBackfill({ prisma: prisma(), log })).done).toBe(true);

    const fresh = await createTestDatabase();
    try {
      await migrate(fresh.db);
      expect(await traceBackfillNeeded(fresh.db.prisma)).toBe(false);
      expect((await fresh.db.prisma.deriveJob.findUnique({ where: { id: TRACE_BACKFILL_JOB } }))!.doneAt).not.toBeNull();
    } finally {
      await fresh.drop();
    }
  });
});
