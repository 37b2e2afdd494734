// Real mainnet blocks stored into the real database (PGlite, or PostgreSQL when DATABASE_URL is set).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from '../db/testing';
import { BLOCK_FIXTURES, fixtureBytes } from '../ton/test-fixtures';
import { parseBlock } from './parse-block';
import { storeMasterchainBlock } from './store';

let t: TestDatabase;
const mc = parseBlock(fixtureBytes(BLOCK_FIXTURES.master46991999), 46991999);
const shards = [parseBlock(fixtureBytes(BLOCK_FIXTURES.shard71398501), 46991999), parseBlock(fixtureBytes(BLOCK_FIXTURES.shard52111590), 46991999)];
const all = [mc, ...shards];
const txCount = all.reduce((n, b) => n + b.transactions.length, 0);

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  await t.db.prisma.indexerState.create({
    data: { id: 'main', network: 'mainnet', zeroStateRootHash: new Uint8Array(32), zeroStateFileHash: new Uint8Array(32) },
  });
});
afterAll(() => t.drop());

describe('storeMasterchainBlock', () => {
  it('stores every block, transaction, message and body of the real blocks, and moves the cursor', async () => {
    await storeMasterchainBlock(t.db.prisma, all, { indexerId: 'main', mcSeqno: 46991999 });
    const p = t.db.prisma;
    expect(await p.block.count()).toBe(3);
    expect(await p.transaction.count()).toBe(txCount);
    expect(await p.message.count()).toBe(all.reduce((n, b) => n + b.messages.length, 0));
    expect((await p.indexerState.findUniqueOrThrow({ where: { id: 'main' } })).lastMcSeqno).toBe(46991999);

    // Values come back exactly: a transaction's fees, a message's value and a body BoC.
    const sample = shards[0]!.transactions[17]!;
    const row = await p.transaction.findUniqueOrThrow({ where: { hash: new Uint8Array(sample.hash) } });
    expect(row.lt).toBe(sample.lt);
    expect(row.totalFees.toFixed()).toBe(sample.totalFees.toString());
    expect(row.description).toEqual(JSON.parse(JSON.stringify(sample.description)));
    const msg = shards[0]!.messages.find((m) => m.value !== null && m.value > 10n ** 9n)!;
    const stored = await p.message.findFirstOrThrow({ where: { msgHash: new Uint8Array(msg.msgHash), direction: msg.direction } });
    expect(stored.value!.toFixed()).toBe(msg.value!.toString());
    const body = await p.messageContent.findUniqueOrThrow({ where: { hash: new Uint8Array(msg.bodyHash) } });
    expect(body.boc.length).toBeGreaterThan(0);
  });

  it('is idempotent: storing the same masterchain block again changes nothing', async () => {
    await storeMasterchainBlock(t.db.prisma, all, { indexerId: 'main', mcSeqno: 46991999 });
    expect(await t.db.prisma.transaction.count()).toBe(txCount);
    expect(await t.db.prisma.block.count()).toBe(3);
  });

  it('never moves the cursor backwards', async () => {
    await storeMasterchainBlock(t.db.prisma, [], { indexerId: 'main', mcSeqno: 46991990 });
    expect((await t.db.prisma.indexerState.findUniqueOrThrow({ where: { id: 'main' } })).lastMcSeqno).toBe(46991999);
  });

  it('rolls everything back when any part fails', async () => {
    await expect(storeMasterchainBlock(t.db.prisma, [mc], { indexerId: 'missing', mcSeqno: 1 })).rejects.toThrow(/no state row/);
    expect(await t.db.prisma.block.count()).toBe(3);
  });
});
