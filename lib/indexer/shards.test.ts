/**
 * The indexer on a devnet whose basechain splits and merges (two shards, four on a cycle): every
 * shard block indexed once, under the masterchain block that registered it, through every split and
 * merge (verifyRange: 0 differences, topology included); a trace that crosses shards and masterchain
 * blocks assembled whole.
 */
import { Prisma } from '../db/generated/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../testing/chain';
import { genesisJettonTransfer, genesisWallet } from '../testing/wallets';
import { verifyRange } from './verify';
import { migrate } from '../db/migrate';
import { log } from '../log';
import { createTestDatabase } from '../testing/database';
import { Indexer } from './follower';
import { backfillRange } from './range-backfill';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain({ seed: 'index-shards', shards: 2, shardSchedule: { kind: 'cycle', rounds: 5 }, rounds: 22, tps: 8, index: true, derive: true });
}, 300_000);
afterAll(() => chain?.close());

const roundsOf = (c: TestChain) => Array.from({ length: c.devnet.chain.lastSeqno }, (_, i) => c.devnet.chain.store.round(i + 1));

describe('indexing a devnet that splits and merges', () => {
  it('indexes every shard block once, under the masterchain block that registered it, with 0 differences', async () => {
    const rounds = roundsOf(chain);
    const sizes = rounds.map((r) => r.length);
    // The layout changed both ways during the run: splits (1 → 2 → 4) and merges (4 → 2).
    expect(sizes.some((n, i) => i > 0 && n > sizes[i - 1])).toBe(true);
    expect(sizes.some((n, i) => i > 0 && n < sizes[i - 1])).toBe(true);
    const prisma = chain.db!.db.prisma;
    expect(await prisma.block.count({ where: { workchain: 0 } })).toBe(sizes.reduce((a, b) => a + b, 0));
    for (const [i, round] of rounds.entries()) {
      const stored = await prisma.block.findMany({ where: { workchain: 0, mcBlockSeqno: i + 1 }, select: { shard: true, seqno: true }, orderBy: { shard: 'asc' } });
      expect(stored.map((b) => `${BigInt.asUintN(64, b.shard).toString(16)}:${b.seqno}`)).toEqual(
        round.map((m) => m.shard).sort((a, b) => (BigInt.asIntN(64, a) < BigInt.asIntN(64, b) ? -1 : 1)).map((s) => `${s.toString(16)}:${i + 1}`),
      );
    }
    const merged = await prisma.block.findFirst({ where: { afterMerge: true } });
    expect((merged?.prevBlocks as unknown[]).length).toBe(2);
    expect(await prisma.block.count({ where: { afterSplit: true } })).toBeGreaterThan(0);
    const report = await verifyRange({ prisma, client: chain.lite, from: 1, to: chain.devnet.chain.lastSeqno });
    expect(report.differences).toEqual([]);
    expect(report.blocks).toBe(sizes.reduce((a, b) => a + b, 0) + sizes.length);
  });

  it('verify names a block stored under a masterchain block that did not register it', async () => {
    const prisma = chain.db!.db.prisma;
    const seqno = 6;
    const victim = (await prisma.block.findFirst({ where: { workchain: 0, mcBlockSeqno: seqno } }))!;
    await prisma.$executeRaw(Prisma.sql`UPDATE blocks SET mc_block_seqno = ${seqno + 1} WHERE workchain = 0 AND shard = ${victim.shard} AND seqno = ${victim.seqno}`);
    try {
      const report = await verifyRange({ prisma, client: chain.lite, from: seqno, to: seqno + 1 });
      const name = `0:${BigInt.asUintN(64, victim.shard).toString(16)}:${victim.seqno}`;
      expect(report.differences).toContain(`block ${name} is stored under masterchain block ${seqno + 1}, which did not register it`);
      expect(report.differences).toContain(`block ${name}: mc_block_seqno ${seqno + 1} != ${seqno}`);
    } finally {
      await prisma.$executeRaw(Prisma.sql`UPDATE blocks SET mc_block_seqno = ${seqno} WHERE workchain = 0 AND shard = ${victim.shard} AND seqno = ${victim.seqno}`);
    }
  });

  it('backfills a range below a running index, blocks of shards that no longer exist included', async () => {
    const head = chain.devnet.chain.lastSeqno;
    const live = new Set(chain.devnet.chain.store.round(head).map((m) => m.shard));
    const from = head - 3;
    const gone = roundsOf(chain).slice(0, from - 1).flat().filter((m) => !live.has(m.shard));
    expect(gone.length).toBeGreaterThan(0);
    const db = await createTestDatabase();
    const indexer = new Indexer({ prisma: db.db.prisma, client: chain.lite, log, network: 'devnet', startSeqno: from });
    try {
      await migrate(db.db);
      await indexer.claim();
      await indexer.indexRange(from, head);
      const r = await backfillRange({ prisma: db.db.prisma, indexer, from: 1, to: from - 1, log });
      expect(r.indexed).toBe(from - 1);
      for (const m of gone) {
        expect(await db.db.prisma.block.count({ where: { workchain: 0, shard: BigInt.asIntN(64, m.shard), seqno: m.seqno } })).toBe(1);
      }
      const report = await verifyRange({ prisma: db.db.prisma, client: chain.lite, from: 1, to: head });
      expect(report.differences).toEqual([]);
    } finally {
      await indexer.stop();
      await db.drop();
    }
  });

  it('assembles a trace that crosses shards and masterchain blocks whole, and classifies it', async () => {
    const from = await genesisWallet(chain, 'alice');
    await chain.devnet.chain.sendExternal(await genesisJettonTransfer(chain, from, { to: 'bob', amount: 5n, comment: 'across shards' }));
    for (let i = 0; i < 5; i++) await chain.seal();
    const prisma = chain.db!.db.prisma;
    const traces = await prisma.$queryRaw<{ trace_id: Uint8Array; shards: bigint; mc_blocks: bigint; n: bigint; state: string }[]>`
      SELECT t.trace_id, count(DISTINCT t.block_shard) AS shards, count(DISTINCT t.mc_block_seqno) AS mc_blocks, count(*) AS n, tr.state
      FROM transactions t JOIN traces tr ON tr.trace_id = t.trace_id
      WHERE t.trace_id IS NOT NULL GROUP BY t.trace_id, tr.state HAVING count(DISTINCT t.block_shard) > 1 ORDER BY max(t.lt) DESC`;
    const crossing = traces[0];
    expect(crossing).toBeDefined();
    expect(Number(crossing.mc_blocks)).toBeGreaterThan(1);
    expect(crossing.state).toBe('complete');
    const r = await chain.callV3<{ traces: { transactions_order: string[]; actions?: { type: string }[] }[] }>('traces', {
      trace_id: Buffer.from(crossing.trace_id).toString('base64'),
      include_actions: true,
    });
    expect(r.status).toBe(200);
    expect(r.body.traces[0].transactions_order).toHaveLength(Number(crossing.n));
    // The jetton transfer's trace (4 transactions over 3 shards or more) is one of those: classified whole.
    const jetton = await chain.callV3<{ actions: { type: string; trace_id: string }[] }>('actions', { account: from.address.toRawString(), action_type: 'jetton_transfer', limit: 1 });
    expect(jetton.body.actions).toHaveLength(1);
    const trace = await chain.callV3<{ traces: { transactions_order: string[]; trace_info: { trace_state: string } }[] }>('traces', { trace_id: jetton.body.actions[0].trace_id });
    expect(trace.body.traces[0].trace_info.trace_state).toBe('complete');
    expect(trace.body.traces[0].transactions_order.length).toBeGreaterThanOrEqual(4);
    const [span] = await prisma.$queryRaw<{ shards: bigint; mc_blocks: bigint }[]>`
      SELECT count(DISTINCT block_shard) AS shards, count(DISTINCT mc_block_seqno) AS mc_blocks FROM transactions WHERE trace_id = ${Buffer.from(jetton.body.actions[0].trace_id, 'base64')}`;
    expect(Number(span.shards)).toBeGreaterThan(1);
    expect(Number(span.mc_blocks)).toBeGreaterThan(1);
  });
});
