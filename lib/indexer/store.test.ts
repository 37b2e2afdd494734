// Real mainnet blocks stored into the real database (PGlite, or PostgreSQL when DATABASE_URL is set).
import { beginCell, storeAccount } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { BLOCK_FIXTURES, fixtureBytes } from '../testing/fixtures';
import { parseAccountState } from './account-state';
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
    const row = await p.transaction.findFirstOrThrow({ where: { hash: new Uint8Array(sample.hash) } });
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

describe('account states', () => {
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32, 5) });
  const account = `0:${wallet.address.hash.toString('hex').toUpperCase()}`;
  const accountCell = (balance: bigint, lastLt: bigint) =>
    beginCell()
      .storeBit(1) // account$1
      .store(
        storeAccount({
          addr: wallet.address,
          storageStats: { used: { cells: 1n, bits: 1n }, storageExtra: null, lastPaid: 1, duePayment: null },
          storage: { lastTransLt: lastLt, balance: { coins: balance }, state: { type: 'active', state: { code: wallet.init.code, data: wallet.init.data } } },
        }),
      )
      .endCell()
      .toBoc();
  const state = (balance: bigint, lt: bigint) => parseAccountState(account, accountCell(balance, lt), { lt, hash: Buffer.alloc(32, Number(lt)) }, 1_700_000_000);

  it('parses an active wallet: balance, status, code and data', () => {
    const s = state(5_000_000_000n, 10n);
    expect(s).toMatchObject({ account, balance: 5_000_000_000n, accountStatus: 'active', lastTransLt: 10n });
    expect(s.codeHash!.equals(wallet.init.code.hash())).toBe(true);
    expect(s.dataHash!.equals(wallet.init.data.hash())).toBe(true);
    expect(parseAccountState(account, Buffer.alloc(0), null, 0)).toMatchObject({ accountStatus: 'nonexist', balance: 0n });
  });

  it('keeps every state in history and only a newer one as latest', async () => {
    const p = t.db.prisma;
    const latest = () => p.latestAccountState.findUniqueOrThrow({ where: { account } });
    await storeMasterchainBlock(p, [], { indexerId: 'main', mcSeqno: 46992000 }, [state(7n, 10n)]);
    expect((await latest()).balance.toFixed()).toBe('7');
    await storeMasterchainBlock(p, [], { indexerId: 'main', mcSeqno: 46992001 }, [state(3n, 5n)]);
    expect((await latest()).lastTransLt).toBe(10n);
    await storeMasterchainBlock(p, [], { indexerId: 'main', mcSeqno: 46992002 }, [state(99n, 20n)]);
    const now = await latest();
    expect(now.balance.toFixed()).toBe('99');
    expect(Buffer.from(now.codeBoc!).equals(wallet.init.code.toBoc())).toBe(true);
    expect(await p.accountState.count({ where: { account } })).toBe(3);
  });
});
