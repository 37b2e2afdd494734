// The derive backfill over an index made without the derive stage: the token tables come out as the
// get-methods answer at the indexed head and as the indexed messages say, a stopped run resumes where it
// stopped, and the indexer starts the backfill by itself when the index needs it.
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JettonTransferJson, JettonWalletJson } from '../../api/v3/models/jettons';
import { log } from '../../log';
import { startTestChain, type TestChain } from '../../testing/chain';
import { rawUpper } from '../../ton/address';
import { Indexer } from '../follower';
import { BACKFILL_JOB, backfillNeeded, runBackfill } from './backfill';
import { Deriver } from './index';

let chain: TestChain;
const raw = (a: string) => rawUpper(Address.parse(a));

beforeAll(async () => {
  chain = await startTestChain({ seed: 'derive-backfill', rounds: 2, index: true, derive: false });
}, 300_000);
afterAll(() => chain?.close());

const prisma = () => chain.db!.db.prisma;

describe('derive backfill', () => {
  it('an index made without the derive stage has no token rows and needs the backfill', async () => {
    expect(await prisma().jettonWallet.count()).toBe(0);
    expect(await prisma().jettonTransfer.count()).toBe(0);
    expect(await prisma().nftItem.count()).toBe(0);
    expect(await backfillNeeded(prisma())).toBe(true);
  });

  it('a stopped run keeps its committed batches and its cursor', async () => {
    const deriver = new Deriver({ prisma: prisma(), lite: chain.lite, tvm: chain.tvm, log });
    let checks = 0;
    const r = await runBackfill({ prisma: prisma(), deriver, log, batch: 3, shouldStop: () => ++checks > 2 });
    expect(r).toMatchObject({ done: false, accounts: 6, history: 0 });
    const job = await prisma().deriveJob.findUnique({ where: { id: BACKFILL_JOB } });
    expect(job).toMatchObject({ processed: 6, doneAt: null });
    const first6 = await prisma().latestAccountState.findMany({ where: { codeHash: { not: null } }, orderBy: { account: 'asc' }, take: 6, select: { account: true } });
    expect(job!.lastAccount).toBe(first6.at(-1)!.account);
    expect(await backfillNeeded(prisma())).toBe(true);
  }, 120_000);

  it('the indexer resumes it at start-up; the tables then match get-methods and messages', async () => {
    const indexer = new Indexer({ prisma: prisma(), client: chain.lite, log, network: 'devnet', tvm: chain.tvm });
    await indexer.run({ untilLive: true });
    expect(indexer.backfill).toBeDefined();
    await indexer.backfill;
    await indexer.stop();
    expect(await backfillNeeded(prisma())).toBe(false);
    const job = await prisma().deriveJob.findUnique({ where: { id: BACKFILL_JOB } });
    expect(job!.processed).toBe(await prisma().latestAccountState.count({ where: { codeHash: { not: null } } }));

    const wallets = (await chain.callV3<{ jetton_wallets: JettonWalletJson[] }>('jetton/wallets', { limit: 1000 })).body.jetton_wallets;
    expect(wallets.length).toBeGreaterThanOrEqual(3);
    for (const w of wallets) {
      const live = (await chain.callV2('get', 'getTokenData', { address: w.address })).body.result as Record<string, string>;
      expect([w.balance, w.owner, w.jetton]).toEqual([live.balance, raw(live.owner), raw(live.jetton)]);
    }
    const master = chain.account('jetton_minter').address;
    const supply = ((await chain.callV2('get', 'getTokenData', { address: master })).body.result as Record<string, string>).total_supply;
    expect((await prisma().jettonMaster.findUnique({ where: { address: raw(master) } }))!.totalSupply.toFixed()).toBe(supply);

    // History: one row per transfer / burn request the wallets received, as the messages say.
    const addresses = wallets.map((w) => w.address);
    const inbound = async (opcode: number) =>
      (await prisma().message.findMany({ where: { direction: 'in', opcode, destination: { in: addresses } }, select: { txHash: true } })).map((m) => Buffer.from(m.txHash).toString('base64')).sort();
    const transfers = (await chain.callV3<{ jetton_transfers: JettonTransferJson[] }>('jetton/transfers', { limit: 1000 })).body.jetton_transfers;
    const aborted = await prisma().jettonTransfer.count({ where: { txAborted: true } });
    expect(transfers.length + aborted).toBe((await inbound(0x0f8a7ea5)).length);
    expect(transfers.length).toBeGreaterThan(2);
    const burns = (await prisma().jettonBurn.findMany()).map((b) => Buffer.from(b.txHash).toString('base64')).sort();
    expect(burns).toEqual(await inbound(0x595f07bc));
    expect(burns.length).toBeGreaterThan(0);

    // NFTs, sales and names: items as get_nft_data answers at the head, one transfer row per request.
    const items = await prisma().nftItem.findMany();
    expect(items.length).toBe(9); // five cards, three .ton names and a soulbound badge
    for (const i of items) {
      const live = (await chain.callV2('get', 'getTokenData', { address: i.address })).body.result as Record<string, string>;
      expect([i.index.toFixed(), i.ownerAddress, i.collectionAddress]).toEqual([live.index, raw(live.owner_address), raw(live.collection_address)]);
    }
    expect(await prisma().nftCollection.count()).toBe(3);
    const listing = (sale: string, item: string) => [raw(chain.account(sale).address), raw(chain.account(item).address)].join(' ');
    // The genesis' three, and the listings the traffic made through the marketplace's deployer.
    const sales = await prisma().nftSale.findMany();
    expect(sales.map((x) => `${x.address} ${x.nftAddress}`)).toEqual(expect.arrayContaining([listing('nft_sale', 'nft_item_1'), listing('nft_sale_sold', 'nft_item_4'), listing('nft_auction', 'nft_item_3')]));
    const genesisSales = new Set(['nft_sale', 'nft_sale_sold', 'nft_auction'].map((n) => raw(chain.account(n).address)));
    for (const x of sales.filter((x) => !genesisSales.has(x.address))) expect(x.marketplaceAddress).toBe(raw(chain.account('nft_marketplace').address));
    expect((await prisma().dnsEntry.findMany({ orderBy: { domain: 'asc' } })).map((d) => d.domain)).toEqual(['alice.ton', 'atlas.ton', 'files.ton']);
    const itemRequests = await prisma().message.findMany({ where: { direction: 'in', opcode: 0x5fcc3d14, destination: { in: items.map((i) => i.address) } }, select: { txHash: true } });
    const nftTransfers = (await prisma().nftTransfer.findMany()).map((t) => Buffer.from(t.txHash).toString('base64')).sort();
    expect(nftTransfers).toEqual(itemRequests.map((m) => Buffer.from(m.txHash).toString('base64')).sort());
    expect(nftTransfers.length).toBeGreaterThanOrEqual(2);
    // Each history row carries its transaction's trace (the transactions were traced by the block path).
    const txTrace = new Map((await prisma().transaction.findMany({ select: { hash: true, traceId: true } })).map((t) => [Buffer.from(t.hash).toString('hex'), t.traceId]));
    const events = [...(await prisma().jettonTransfer.findMany()), ...(await prisma().jettonBurn.findMany()), ...(await prisma().nftTransfer.findMany())];
    for (const e of events) expect(e.traceId, Buffer.from(e.txHash).toString('hex')).toEqual(txTrace.get(Buffer.from(e.txHash).toString('hex')));
    expect(events.every((e) => e.traceId !== null)).toBe(true);

    // Vesting: the genesis vesting wallet, alice's, 1000 TON.
    const vesting = await prisma().vestingContract.findMany();
    expect(vesting.map((v) => [v.address, v.ownerAddress, v.vestingTotalAmount.toFixed()])).toEqual([[raw(chain.account('vesting').address), raw(chain.account('alice').address), '1000000000000']]);
  }, 180_000);

  it('a finished backfill is not run again', async () => {
    const indexer = new Indexer({ prisma: prisma(), client: chain.lite, log, network: 'devnet', tvm: chain.tvm });
    await indexer.run({ untilLive: true });
    expect(indexer.backfill).toBeUndefined();
    await indexer.stop();
  });
});
