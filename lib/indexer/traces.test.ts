/**
 * Trace assembly on the real devnet: the genesis (jetton transfers, a bounce, a cross-workchain
 * transfer) and traffic indexed into the real database, then the traces checked against the chain's
 * message links. The devnet delivers every message in the round that sent it, so traces that span
 * masterchain blocks are made by storing one real round in two batches, as a chain whose messages land
 * a block later would arrive.
 */
import { Address } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate';
import { startDevnet, type Devnet } from '../devnet';
import { createTrafficGenerator } from '../devnet/genesis';
import { createLiteClient } from '../lite';
import { log } from '../log';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { rmDir, tempDir } from '../testing/devnet';
import { rawUpper } from '../ton/address';
import { Indexer } from './follower';
import type { ParsedBlock } from '../chain/records';
import { storeMasterchainBlock } from './store';
import { reclassify } from './reclassify';
import { verifyRange } from './verify';
import { CLASSIFIER_VERSION } from '../actions/model';

let devnet: Devnet;
let lite: LiteClient;
let t: TestDatabase;
const extra: TestDatabase[] = [];
const dir = tempDir();

beforeAll(async () => {
  devnet = await startDevnet({ dataDir: dir, seed: 'traces-test', blockMs: 0, tps: 0, traffic: false, adnlPort: 0 });
  const traffic = createTrafficGenerator(devnet.chain, devnet.genesisAccounts, { seed: 'traces-test', tps: 15 });
  for (let i = 0; i < 3; i++) {
    await traffic.step();
    await devnet.sealNow();
  }
  lite = createLiteClient({ kind: 'engine', engine: devnet.engine });
  t = await createTestDatabase();
  await migrate(t.db);
  const ix = new Indexer({ prisma: t.db.prisma, client: lite, log, network: 'devnet', startSeqno: 1 });
  await ix.claim();
  await ix.indexRange(1, devnet.chain.lastSeqno);
}, 180_000);

afterAll(async () => {
  for (const d of [t, ...extra]) await d?.drop();
  await devnet?.close();
  rmDir(dir);
});

const account = (name: string) => rawUpper(Address.parseRaw(devnet.genesisAccounts.find((a) => a.name === name)!.address));
const JETTON_TRANSFER = 0x0f8a7ea5;

/** The stored trace holding the transaction of `accountName` whose in-message has `opcode`. */
async function traceOfIncoming(accountName: string, opcode: number, db = t) {
  const msg = await db.db.prisma.message.findFirst({ where: { direction: 'in', destination: account(accountName), opcode: opcode | 0 } });
  expect(msg, `${accountName} received opcode ${opcode.toString(16)}`).not.toBeNull();
  const tx = await db.db.prisma.transaction.findFirst({ where: { hash: msg!.txHash } });
  const trace = await db.db.prisma.trace.findUnique({ where: { traceId: tx!.traceId! } });
  const txs = await db.db.prisma.transaction.findMany({ where: { traceId: tx!.traceId! }, orderBy: { lt: 'asc' } });
  return { trace: trace!, txs };
}

async function freshDatabase() {
  const d = await createTestDatabase();
  extra.push(d);
  await migrate(d.db);
  const ix = new Indexer({ prisma: d.db.prisma, client: lite, log, network: 'devnet', startSeqno: 1 });
  await ix.claim();
  return { d, ix };
}

/** The part of a round's blocks whose transactions satisfy `keep` (with their messages). */
const part = (blocks: ParsedBlock[], keep: (lt: bigint) => boolean): ParsedBlock[] =>
  blocks.map((b) => ({ ...b, transactions: b.transactions.filter((x) => keep(x.lt)), messages: b.messages.filter((m) => keep(m.txLt)) }));

describe('trace assembly', () => {
  it('gives every transaction and message the trace of its root, with counters verify agrees with', async () => {
    const p = t.db.prisma;
    const total = await p.transaction.count();
    expect(total).toBeGreaterThan(100);
    expect(await p.transaction.count({ where: { traceId: null } })).toBe(0);
    expect(await p.message.count({ where: { traceId: null } })).toBe(0);
    // Every transaction is counted in exactly one trace.
    const sum = await p.trace.aggregate({ _sum: { transactions: true } });
    expect(sum._sum.transactions).toBe(total);
    // The devnet delivers every message within its round: nothing stays pending, no link is missing.
    expect(await p.trace.count({ where: { NOT: { state: 'complete' } } })).toBe(0);
    expect(await p.trace.count({ where: { pendingMessages: { not: 0 } } })).toBe(0);
    const report = await verifyRange({ prisma: p, client: lite, from: 1, to: devnet.chain.lastSeqno });
    expect(report.differences).toEqual([]);
  }, 120_000);

  it('follows a jetton transfer from the wallet external through both jetton wallets to the notification and excess', async () => {
    const { trace, txs } = await traceOfIncoming('alice_jetton', JETTON_TRANSFER);
    expect(txs.map((x) => x.account)).toEqual([account('alice'), account('alice_jetton'), account('carol_jetton'), account('carol'), account('alice')]);
    expect(Buffer.from(trace.traceId).equals(Buffer.from(txs[0]!.hash))).toBe(true);
    const root = await t.db.prisma.message.findFirst({ where: { txHash: txs[0]!.hash, direction: 'in' } });
    expect(root!.source).toBeNull(); // the external the wallet signed
    expect(Buffer.from(trace.externalHash!).equals(Buffer.from(root!.msgHash))).toBe(true);
    expect(trace.externalHashNorm).not.toBeNull();
    expect(trace).toMatchObject({ state: 'complete', transactions: 5, messages: 4, pendingMessages: 0, isIncomplete: false });
    expect(trace.startLt).toBe(txs[0]!.lt);
    expect(trace.endLt).toBe(txs.at(-1)!.lt);
  });

  it('keeps a bounced message in the trace of the message that bounced', async () => {
    const { trace, txs } = await traceOfIncoming('jetton_minter', 0x0badc0de);
    expect(txs.map((x) => x.account)).toEqual([account('admin'), account('jetton_minter'), account('admin')]);
    const back = await t.db.prisma.message.findFirst({ where: { txHash: txs[2]!.hash, direction: 'in' } });
    expect(back!.bounced).toBe(true);
    expect(trace).toMatchObject({ state: 'complete', transactions: 3, messages: 2, pendingMessages: 0 });
  });

  it('joins a transfer from the masterchain to its basechain receiver across the two chains\' blocks', async () => {
    const msg = await t.db.prisma.message.findFirst({ where: { direction: 'in', source: account('master_wallet'), destination: account('bob') } });
    const tx = await t.db.prisma.transaction.findFirst({ where: { hash: msg!.txHash } });
    const txs = await t.db.prisma.transaction.findMany({ where: { traceId: tx!.traceId! }, orderBy: { lt: 'asc' } });
    expect(txs.map((x) => [x.account, x.blockWorkchain])).toEqual([
      [account('master_wallet'), -1],
      [account('bob'), 0],
    ]);
  });

  it('is pending while a message of it is in flight to a later masterchain block, then complete and classified', async () => {
    const { trace: whole, txs } = await traceOfIncoming('alice_jetton', JETTON_TRANSFER);
    const round = txs[0]!.mcBlockSeqno!;
    const { d, ix } = await freshDatabase();
    if (round > 1) await ix.indexRange(1, round - 1);
    const { blocks, shardState } = await ix.collect(round);
    // The cut falls after the jetton wallet's transaction: its internal_transfer is still in flight.
    const cut = txs[2]!.lt;
    const p = d.db.prisma;
    await storeMasterchainBlock(p, part(blocks, (lt) => lt < cut), { indexerId: 'main', mcSeqno: round }, [], shardState);
    let trace = await p.trace.findUnique({ where: { traceId: whole.traceId } });
    expect(trace).toMatchObject({ state: 'pending', transactions: 2, messages: 1, pendingMessages: 1, classificationState: 'unclassified', classifierVersion: null });
    expect(await p.action.count({ where: { traceId: whole.traceId } })).toBe(0);

    // The next batch holds the whole round: what is stored is skipped, the rest joins through the stored rows.
    await storeMasterchainBlock(p, blocks, { indexerId: 'main', mcSeqno: round + 1 }, [], shardState);
    trace = await p.trace.findUnique({ where: { traceId: whole.traceId } });
    expect(trace).toMatchObject({ state: 'complete', transactions: 5, messages: 4, pendingMessages: 0, classificationState: 'ok', classifierVersion: CLASSIFIER_VERSION });
    expect(trace!.endLt).toBe(whole.endLt);
    expect(await p.action.count({ where: { traceId: whole.traceId } })).toBeGreaterThan(0);
    const joined = await p.transaction.findMany({ where: { traceId: whole.traceId } });
    expect(joined).toHaveLength(5);

    // Storing the second batch again changes nothing.
    await storeMasterchainBlock(p, part(blocks, (lt) => lt >= cut), { indexerId: 'main', mcSeqno: round + 1 }, [], shardState);
    expect(await p.trace.findUnique({ where: { traceId: whole.traceId } })).toEqual(trace);
  }, 60_000);

  it('roots a broken trace at a transaction whose sender was never indexed', async () => {
    const { trace: whole, txs } = await traceOfIncoming('alice_jetton', JETTON_TRANSFER);
    const round = txs[0]!.mcBlockSeqno!;
    const { d, ix } = await freshDatabase();
    const { blocks, shardState } = await ix.collect(round);
    // As an index that started after the wallet's transaction: the jetton wallet's is the first seen.
    const from = txs[1]!.lt;
    await storeMasterchainBlock(d.db.prisma, part(blocks, (lt) => lt >= from), { indexerId: 'main', mcSeqno: round }, [], shardState);
    const orphan = await d.db.prisma.transaction.findFirst({ where: { hash: txs[1]!.hash } });
    expect(Buffer.from(orphan!.traceId!).equals(Buffer.from(txs[1]!.hash))).toBe(true);
    const broken = await d.db.prisma.trace.findUnique({ where: { traceId: orphan!.traceId! } });
    // Its four transactions, their three delivered messages; the wallet's message that started it is no edge.
    expect(broken).toMatchObject({ state: 'broken', transactions: 4, messages: 3, pendingMessages: 0 });
    expect(await d.db.prisma.trace.findUnique({ where: { traceId: whole.traceId } })).toBeNull();
  }, 60_000);

  it('re-classifies traces an older classifier produced, resuming after an interruption', async () => {
    const p = t.db.prisma;
    const key = (a: { traceId: Uint8Array; actionId: Uint8Array; type: string }) => `${Buffer.from(a.traceId).toString('hex')}/${Buffer.from(a.actionId).toString('hex')}/${a.type}`;
    const before = (await p.action.findMany({ select: { traceId: true, actionId: true, type: true } })).map(key).sort();
    expect(before.length).toBeGreaterThan(50);
    // As after a classifier upgrade: every trace's actions are from an older version; some were lost.
    const total = await p.trace.updateMany({ where: { state: 'complete' }, data: { classifierVersion: CLASSIFIER_VERSION - 1 } });
    const victim = await p.action.findFirstOrThrow({ where: { type: 'jetton_transfer' } });
    await p.actionAccount.deleteMany({ where: { traceId: victim.traceId } });
    await p.action.deleteMany({ where: { traceId: victim.traceId } });

    // Interrupted after its first batch...
    const seen: number[] = [];
    await expect(
      reclassify(p, {
        batch: 10,
        onBatch: ({ done }) => {
          seen.push(done);
          throw new Error('interrupted');
        },
      }),
    ).rejects.toThrow('interrupted');
    expect(seen).toEqual([10]);
    // ...and run again: it does the rest, reporting progress against what was left.
    const progress: { done: number; total: number }[] = [];
    const done = await reclassify(p, { batch: 10, onBatch: (x) => progress.push(x) });
    expect(done).toBe(total.count - 10);
    expect(progress.at(-1)).toEqual({ done: total.count - 10, total: total.count - 10 });
    expect(await p.trace.count({ where: { state: 'complete', classifierVersion: { not: CLASSIFIER_VERSION } } })).toBe(0);
    const after = (await p.action.findMany({ select: { traceId: true, actionId: true, type: true } })).map(key).sort();
    expect(after).toEqual(before);
    expect(await p.actionAccount.count({ where: { traceId: victim.traceId } })).toBeGreaterThan(0);
    expect(await reclassify(p)).toBe(0);
  }, 60_000);

  it('verify reports a transaction without a trace and a trace whose counters disagree with its rows', async () => {
    const p = t.db.prisma;
    const { trace, txs } = await traceOfIncoming('alice_jetton', JETTON_TRANSFER);
    const seqno = txs[0]!.mcBlockSeqno!;
    await p.trace.update({ where: { traceId: trace.traceId }, data: { messages: 7 } });
    await p.transaction.updateMany({ where: { hash: txs[1]!.hash }, data: { traceId: null } });
    const report = await verifyRange({ prisma: p, client: lite, from: seqno, to: seqno });
    const id = Buffer.from(trace.traceId).toString('hex');
    expect(report.differences).toEqual(
      expect.arrayContaining([`transaction ${Buffer.from(txs[1]!.hash).toString('hex')} has no trace_id`, `trace ${id}: messages 7 != 4 delivered`, `trace ${id}: transactions 5 != 4 stored`]),
    );
  }, 60_000);
});
