// The NFT and DNS routes over a devnet indexed with the derive stage: every row against what the
// contracts' get-methods answer (getTokenData and runGetMethod run them live, at the head the index
// reached), transfers against the messages that carried them, and every route's errors.
import { sha256_sync } from '@ton/crypto';
import { Address, Cell, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_TEXTS } from '../../../devnet/genesis/genesis';
import { seedBytes } from '../../../devnet/genesis/keys';
import { DNS_CATEGORY, dnsChangeRecordBody } from '../../../devnet/contracts/dns';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { messageBoc, signedTransfer } from '../../../testing/devnet';
import { genesisWallet } from '../../../testing/wallets';
import { modelProblems } from '../../../testing/v3';
import { rawUpper } from '../../../ton/address';
import { ActionsResponse } from '../models/actions';
import { Metadata } from '../models/common';
import { DnsRecordsResponse } from '../models/dns';
import { NftCollectionsResponse, NftItemsResponse, NftSalesResponse, NftTransfersResponse } from '../models/nfts';
import type { ActionJson } from '../models/actions';
import type { MetadataJson } from '../models/common';
import type { DnsRecordJson } from '../models/dns';
import type { NftCollectionJson, NftItemJson, NftSaleJson, NftTransferJson } from '../models/nfts';

let chain: TestChain;
const raw = (a: string) => rawUpper(Address.parse(a));
const acc = (name: string) => raw(chain.account(name).address);

type Collections = { nft_collections: NftCollectionJson[]; address_book: Record<string, unknown>; metadata: Record<string, unknown> };
type Items = { nft_items: NftItemJson[]; address_book: Record<string, unknown>; metadata: Record<string, unknown> };
type Transfers = { nft_transfers: NftTransferJson[]; address_book: Record<string, unknown> };
type Sales = { nft_sales: NftSaleJson[]; address_book: Record<string, unknown> };
type Records = { records: DnsRecordJson[]; address_book: Record<string, unknown> };

/** What the contract's get-methods answer now (getTokenData runs them at the head). */
async function tokenData(address: string): Promise<Record<string, unknown>> {
  const r = await chain.callV2('get', 'getTokenData', { address });
  expect(r.body.ok, JSON.stringify(r.body)).toBe(true);
  return r.body.result as Record<string, unknown>;
}

/** A get-method's stack through v2 runGetMethod: numbers as bigint, cells and slices as cells. */
async function getMethod(address: string, method: string): Promise<(bigint | Cell | null)[]> {
  const r = await chain.callV2('post', 'runGetMethod', { address, method, stack: [] });
  expect(r.body.ok, JSON.stringify(r.body)).toBe(true);
  const result = r.body.result as { exit_code: number; stack: [string, unknown][] };
  expect(result.exit_code).toBe(0);
  return result.stack.map(([type, value]) => {
    if (type === 'num') return BigInt(value as string);
    if (type === 'cell' || type === 'slice') return Cell.fromBase64((value as { bytes: string }).bytes);
    return null;
  });
}
const stackAddr = (c: bigint | Cell | null) => {
  const a = (c as Cell).beginParse().loadMaybeAddress();
  return a ? rawUpper(a) : null;
};

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v3-nft', rounds: 2, index: true, derive: true });
}, 300_000);
afterAll(() => chain?.close());

describe('GET /nft/collections', () => {
  it('the genesis collections as get_collection_data answers, content parsed from on-chain TEP-64', async () => {
    const r = await chain.callV3<Collections>('nft/collections');
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, NftCollectionsResponse)).toEqual([]);
    const list = r.body.nft_collections;
    expect(list.map((c) => c.address).sort()).toEqual([acc('nft_collection'), acc('dns_collection'), acc('sbt_collection')].sort());
    for (const c of list) {
      const live = await tokenData(c.address);
      expect(c.next_item_index).toBe(live.next_item_index);
      expect(c.owner_address).toBe(raw(live.owner_address as string));
      expect({ type: 'onchain', data: c.collection_content }).toEqual(live.collection_content);
    }
    const cards = list.find((c) => c.address === acc('nft_collection'))!;
    expect(cards.next_item_index).toBe('5');
    expect(cards.collection_content).toMatchObject({ name: 'Atlas Devnet Cards', image: 'https://atlas.devnet/static/cards.png' });
    expect(list.find((c) => c.address === acc('dns_collection'))!.next_item_index).toBe('-1');
    expect(Object.keys(r.body.address_book).sort()).toEqual([acc('admin'), acc('nft_collection'), acc('dns_collection'), acc('sbt_collection')].sort());
    expect(Object.keys(r.body.metadata)).toContain(acc('nft_collection'));
  });

  it('filters by collection_address and owner_address, pages', async () => {
    const q = async (query: Record<string, string | number | string[]>) => (await chain.callV3<Collections>('nft/collections', query)).body.nft_collections.map((c) => c.address);
    expect(await q({ collection_address: chain.account('nft_collection').friendly.bounceable })).toEqual([acc('nft_collection')]);
    expect((await q({ owner_address: acc('admin') })).length).toBe(3);
    expect(await q({ owner_address: acc('alice') })).toEqual([]);
    const all = await q({});
    expect(await q({ limit: 1, offset: 1 })).toEqual(all.slice(1, 2));
  });

  it('422 for a bad address or limit', async () => {
    expect((await chain.callV3('nft/collections', { collection_address: 'nobody' })).body).toEqual({
      error: 'failed to decode: schema: error converting value for index 0 of "collection_address"',
    });
    expect((await chain.callV3('nft/collections', { limit: 1001 })).body).toEqual({ error: 'limit is not allowed: 1001 > 1000' });
  });
});

describe('GET /nft/items', () => {
  it('every item as get_nft_data answers at the indexed block, content joined with the collection\'s', async () => {
    const r = await chain.callV3<Items>('nft/items', { limit: 1000 });
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, NftItemsResponse)).toEqual([]);
    const list = r.body.nft_items;
    const names = ['nft_item_0', 'nft_item_1', 'nft_item_2', 'nft_item_3', 'nft_item_4', 'alice.ton', 'atlas.ton', 'files.ton', 'sbt_item_0'];
    expect(list.map((i) => i.address).sort()).toEqual(names.map(acc).sort());
    for (const i of list) {
      const live = await tokenData(i.address);
      expect({ index: i.index, owner: i.owner_address, collection: i.collection_address, init: i.init }).toEqual({
        index: live.index,
        owner: raw(live.owner_address as string),
        collection: raw(live.collection_address as string),
        init: live.init,
      });
      expect(i.collection?.address).toBe(i.collection_address);
    }
    const byName = (n: string) => list.find((i) => i.address === acc(n))!;
    // the collection's common content prefix joined with the item's individual content (get_nft_content)
    expect(byName('nft_item_2').content).toEqual({ uri: 'https://atlas.devnet/nft/2.json' });
    // off-chain content URIs wait in the metadata fetcher's queue
    const queued = await chain.db!.db.prisma.offchainMetadata.findMany({ where: { uri: { startsWith: 'https://atlas.devnet/' } } });
    expect(queued.map((q) => q.uri).filter((u) => !u.includes('/jettons/')).sort()).toEqual(
      ['nft/0.json', 'nft/1.json', 'nft/2.json', 'nft/3.json', 'nft/4.json', 'sbt/badge-0.json'].map((u) => `https://atlas.devnet/${u}`),
    );
    expect(byName('alice.ton').content).toMatchObject({ name: 'alice.ton' });
    // a soulbound item (TEP-85) is an item of its collection like any other
    expect(byName('sbt_item_0')).toMatchObject({ collection_address: acc('sbt_collection'), owner_address: acc('bob'), content: { uri: 'https://atlas.devnet/sbt/badge-0.json' } });
  });

  it('an item held by its sale contract is on sale, with the seller as real owner', async () => {
    const [item] = (await chain.callV3<Items>('nft/items', { address: acc('nft_item_1') })).body.nft_items;
    expect(item).toMatchObject({ owner_address: acc('nft_sale'), on_sale: true, sale_contract_address: acc('nft_sale'), real_owner: acc('alice') });
    expect(item!.auction_contract_address).toBeUndefined();
    // A card a wallet holds (the traffic lists some on the marketplace now and then): not on sale.
    const all = (await chain.callV3<Items>('nft/items', { collection_address: acc('nft_collection'), limit: 100 })).body.nft_items;
    const wallets = new Set(chain.devnet.genesisAccounts.filter((a) => a.secret_key_hex).map((a) => acc(a.name)));
    const other = all.find((i) => wallets.has(i.owner_address!));
    expect(other!.on_sale).toBe(false);
    expect(other!.real_owner).toBeUndefined();
    // One the traffic listed through the marketplace: on sale (or on auction), its seller the real owner.
    const listed = all.filter((i) => i.on_sale && i.address !== acc('nft_item_1') && i.address !== acc('nft_item_3'));
    for (const i of listed) expect(i.real_owner).toBeDefined();
  });

  it('filters: owner (with include_on_sale), collection, index; orders', async () => {
    const q = async (query: Record<string, string | number | boolean | string[]>) =>
      (await chain.callV3<Items>('nft/items', { limit: 1000, ...query })).body.nft_items.map((i) => i.address);
    const items = (await chain.callV3<Items>('nft/items', { limit: 1000 })).body.nft_items;
    const ownedBy = (o: string, onSale = false) => items.filter((i) => i.owner_address === o || (onSale && i.real_owner === o)).map((i) => i.address).sort();
    for (const owner of ['alice', 'bob', 'carol', 'admin'].map(acc)) {
      expect((await q({ owner_address: owner })).sort()).toEqual(ownedBy(owner));
      expect((await q({ owner_address: owner, include_on_sale: true })).sort()).toEqual(ownedBy(owner, true));
    }
    // the item on sale is found by its seller only with include_on_sale
    expect(await q({ owner_address: acc('alice'), include_on_sale: true })).toContain(acc('nft_item_1'));
    expect(await q({ owner_address: acc('alice') })).not.toContain(acc('nft_item_1'));
    expect(await q({ collection_address: acc('nft_collection') })).toEqual(['nft_item_0', 'nft_item_1', 'nft_item_2', 'nft_item_3', 'nft_item_4'].map(acc));
    expect(await q({ collection_address: acc('nft_collection'), index: ['2', '0'] })).toEqual(['nft_item_0', 'nft_item_2'].map(acc));
    const atlasOwner = items.find((i) => i.address === acc('atlas.ton'))!.owner_address!;
    expect(await q({ collection_address: [acc('nft_collection'), acc('dns_collection')], owner_address: atlasOwner })).toEqual(
      items.filter((i) => i.owner_address === atlasOwner).sort((a, b) => (a.collection_address! < b.collection_address! ? -1 : a.collection_address! > b.collection_address! ? 1 : BigInt(a.index) < BigInt(b.index) ? -1 : 1)).map((i) => i.address),
    );
    const byLt = (await chain.callV3<Items>('nft/items', { sort_by_last_transaction_lt: true, limit: 1000 })).body.nft_items.map((i) => BigInt(i.last_transaction_lt));
    expect(byLt).toEqual([...byLt].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    const all = await q({});
    expect(await q({ limit: 2, offset: 1 })).toEqual(all.slice(1, 3));
  });

  it('errors: several collections without one owner, index rules, bad address or bool', async () => {
    const two = [acc('nft_collection'), acc('dns_collection')];
    expect((await chain.callV3('nft/items', { collection_address: two })).body).toEqual({ error: 'exact one owner_address required for multiple collection_address' });
    expect((await chain.callV3('nft/items', { collection_address: acc('nft_collection'), index: '1x' })).body).toEqual({ error: 'index should contain digits only' });
    const noCollection = await chain.callV3('nft/items', { index: '1' });
    expect(noCollection.status).toBe(422);
    expect(noCollection.body).toEqual({ error: 'index parameter is not allowed without the collection_address' });
    expect((await chain.callV3('nft/items', { owner_address: '0:XYZ' })).status).toBe(422);
    expect((await chain.callV3('nft/items', { include_on_sale: 'maybe' })).status).toBe(422);
  });
});

/** In-messages with the NFT transfer opcode received by items, by transaction hash (base64). */
async function transferRequests(): Promise<string[]> {
  const items = (await chain.callV3<Items>('nft/items', { limit: 1000 })).body.nft_items.map((i) => i.address);
  const rows = await chain.db!.db.prisma.message.findMany({ where: { direction: 'in', opcode: 0x5fcc3d14, destination: { in: items } }, select: { txHash: true } });
  return rows.map((r) => Buffer.from(r.txHash).toString('base64'));
}

/** [hash, trace_id] of each transaction, as the transactions table has them (every one has a trace). */
async function tracesOf(hashes: string[]): Promise<[string, string][]> {
  const rows = await chain.db!.db.prisma.transaction.findMany({ where: { hash: { in: hashes.map((h) => Buffer.from(h, 'base64')) } }, select: { hash: true, traceId: true } });
  const trace = new Map(rows.map((r) => [Buffer.from(r.hash).toString('base64'), r.traceId ? Buffer.from(r.traceId).toString('base64') : null]));
  return hashes.map((h) => [h, trace.get(h) ?? 'missing']).map(([h, t]) => { expect(t, h!).not.toBeNull(); return [h!, t!]; });
}

describe('GET /nft/transfers', () => {
  it('one row per transfer request an item received, lt descending; the genesis gift with its comment', async () => {
    const r = await chain.callV3<Transfers>('nft/transfers', { limit: 1000 });
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, NftTransfersResponse)).toEqual([]);
    const list = r.body.nft_transfers;
    expect(list.map((t) => t.transaction_hash).sort()).toEqual((await transferRequests()).sort());
    const lts = list.map((t) => BigInt(t.transaction_lt));
    expect(lts).toEqual([...lts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    const gift = list.find((t) => t.nft_address === acc('nft_item_0') && t.new_owner === acc('carol'))!;
    expect(gift).toMatchObject({
      old_owner: acc('alice'),
      nft_collection: acc('nft_collection'),
      response_destination: acc('alice'),
      forward_amount: '10000000',
      transaction_aborted: false,
      custom_payload: null,
    });
    expect(gift.decoded_forward_payload).toMatchObject({ comment: GENESIS_TEXTS.nftGift });
    // bob's try to give his soulbound badge away: listed, aborted, and the badge stayed his
    const refused = list.find((t) => t.nft_address === acc('sbt_item_0'))!;
    expect(refused).toMatchObject({ query_id: '85', old_owner: acc('bob'), new_owner: acc('alice'), nft_collection: acc('sbt_collection'), transaction_aborted: true });
    const toSale = list.find((t) => t.nft_address === acc('nft_item_1'))!;
    expect(toSale).toMatchObject({ old_owner: acc('alice'), new_owner: acc('nft_sale'), forward_amount: '50000000' });
    expect(Object.keys(r.body.address_book)).toEqual(expect.arrayContaining([acc('alice'), acc('carol'), acc('nft_item_0'), acc('nft_collection')]));
    expect(list.map((t) => [t.transaction_hash, t.trace_id])).toEqual(await tracesOf(list.map((t) => t.transaction_hash)));
  });

  it('filters: owner with direction, item, collection, lt and time ranges; sort asc', async () => {
    const all = (await chain.callV3<Transfers>('nft/transfers', { limit: 1000 })).body.nft_transfers;
    expect(all.length).toBeGreaterThanOrEqual(2);
    const hashes = (xs: NftTransferJson[]) => xs.map((t) => t.transaction_hash).sort();
    const q = async (query: Record<string, string | number | string[]>) => (await chain.callV3<Transfers>('nft/transfers', { limit: 1000, ...query })).body.nft_transfers;
    const carol = acc('carol');
    const alice = acc('alice');
    expect(hashes(await q({ owner_address: carol, direction: 'in' }))).toEqual(hashes(all.filter((t) => t.new_owner === carol)));
    expect(hashes(await q({ owner_address: alice, direction: 'out' }))).toEqual(hashes(all.filter((t) => t.old_owner === alice)));
    expect(hashes(await q({ address: alice }))).toEqual(hashes(all.filter((t) => t.old_owner === alice || t.new_owner === alice)));
    expect(hashes(await q({ item_address: acc('nft_item_1') }))).toEqual(hashes(all.filter((t) => t.nft_address === acc('nft_item_1'))));
    expect(hashes(await q({ collection_address: acc('nft_collection') }))).toEqual(hashes(all.filter((t) => t.nft_collection === acc('nft_collection'))));
    expect(await q({ collection_address: acc('alice') })).toEqual([]);
    const first = all[all.length - 1]!;
    expect(hashes(await q({ start_lt: first.transaction_lt, end_lt: first.transaction_lt }))).toEqual([first.transaction_hash]);
    // A bound past int8 (uint64 is accepted) means "any", as on /transactions (routes/common.ts bounds).
    expect(hashes(await q({ end_lt: '18446744073709551615' }))).toEqual(hashes(all));
    const at = first.transaction_now;
    expect(hashes(await q({ start_utime: at, end_utime: at }))).toEqual(hashes(all.filter((t) => t.transaction_now === at)));
    expect((await q({ sort: 'asc' })).map((t) => t.transaction_hash)).toEqual([...all].reverse().map((t) => t.transaction_hash));
    expect((await q({ limit: 1, offset: 1 })).map((t) => t.transaction_hash)).toEqual(all.slice(1, 2).map((t) => t.transaction_hash));
  });

  it('errors: direction, address, lt, sort, limit', async () => {
    expect((await chain.callV3('nft/transfers', { owner_address: acc('alice'), direction: 'up' })).body).toEqual({ error: 'direction should be one of: in, out, both' });
    expect((await chain.callV3('nft/transfers', { collection_address: 'x' })).body).toEqual({ error: 'failed to decode: schema: error converting value for "collection_address"' });
    expect((await chain.callV3('nft/transfers', { start_lt: '-1' })).status).toBe(422);
    expect((await chain.callV3('nft/transfers', { sort: 'up' })).body).toEqual({ error: 'wrong value for sort parameter' });
    expect((await chain.callV3('nft/transfers', { limit: 1001 })).status).toBe(422);
  });
});

describe('GET /nft/sales', () => {
  it('the genesis sale as get_sale_data answers, with the item it sells', async () => {
    const r = await chain.callV3<Sales>('nft/sales', { address: [acc('nft_sale'), acc('alice')] });
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, NftSalesResponse)).toEqual([]);
    expect(r.body.nft_sales).toHaveLength(1);
    const sale = r.body.nft_sales[0]!;
    const s = await getMethod(acc('nft_sale'), 'get_sale_data');
    expect(sale).toMatchObject({
      type: 'getgems_sale',
      address: acc('nft_sale'),
      nft_address: stackAddr(s[4]!),
      nft_owner_address: stackAddr(s[5]!),
      marketplace_address: stackAddr(s[3]!),
      created_at: Number(s[2]),
    });
    expect(sale.nft_address).toBe(acc('nft_item_1'));
    expect(sale.nft_owner_address).toBe(acc('alice'));
    expect(sale.details).toEqual({
      is_complete: s[1] !== 0n,
      full_price: (s[6] as bigint).toString(),
      marketplace_fee_address: stackAddr(s[7]!),
      marketplace_fee: (s[8] as bigint).toString(),
      royalty_address: stackAddr(s[9]!),
      royalty_amount: (s[10] as bigint).toString(),
    });
    expect(sale.details.full_price).toBe('100000000000');
    expect(sale.nft_item).toMatchObject({ address: acc('nft_item_1'), on_sale: true, real_owner: acc('alice'), collection: { address: acc('nft_collection') } });
    expect(Object.keys(r.body.address_book)).toEqual(expect.arrayContaining([acc('nft_sale'), acc('nft_item_1'), acc('alice'), acc('admin'), acc('nft_collection')]));
  });

  it('errors: no address, too many, a bad one', async () => {
    expect((await chain.callV3('nft/sales')).body).toEqual({ error: 'at least 1 address required' });
    const many = Array.from({ length: 1001 }, () => acc('nft_sale'));
    expect((await chain.callV3('nft/sales', { address: many })).status).toBe(422);
    expect((await chain.callV3('nft/sales', { address: 'x' })).status).toBe(422);
  });
});

describe('GET /dns/records', () => {
  // The traffic's DNS edits point the wallet record of a name its owner holds at some genesis wallet;
  // point atlas.ton's back at the admin, as the genesis left it, for the expectations below.
  beforeAll(async () => {
    const admin = await genesisWallet(chain, 'admin');
    const item = Address.parse(chain.account('atlas.ton').address);
    const body = dnsChangeRecordBody({ category: DNS_CATEGORY.wallet, record: { type: 'smc_address', address: admin.address } });
    const msg = await signedTransfer(admin, [{ to: item, value: toNano('0.05'), bounce: true, body }]);
    expect((await chain.callV2('post', 'sendBoc', { boc: messageBoc(msg).toString('base64') })).status).toBe(200);
    await chain.seal();
  }, 60_000);

  /** The records getTokenData reads live with dnsresolve, in dns/records' shape. */
  async function liveRecords(item: string) {
    const content = (await tokenData(item)).content as { domain: string; data: Record<string, Record<string, unknown>> };
    const addr = (a: unknown) => (a ? `${(a as { workchain_id: number }).workchain_id}:${(a as { address: string }).address.toUpperCase()}` : null);
    const site = content.data.site;
    return {
      domain: content.domain,
      dns_wallet: addr(content.data.wallet?.smc_addr),
      dns_next_resolver: addr(content.data.dns_next_resolver?.resolver),
      dns_site_adnl: site?.['@type'] === 'dns_adnl_address' ? (site.adnl_addr as string) : null,
      dns_storage_bag_id: site?.['@type'] === 'dns_storage_address' ? (site.bag_id as string) : ((content.data.storage?.bag_id as string | undefined) ?? null),
    };
  }

  it('each .ton name with every record kind, as dnsresolve answers', async () => {
    for (const [name, owner] of [['alice.ton', 'alice'], ['atlas.ton', 'admin']] as const) {
      const r = await chain.callV3<Records>('dns/records', { domain: name });
      expect(r.status).toBe(200);
      expect(modelProblems(r.body, DnsRecordsResponse)).toEqual([]);
      expect(r.body.records).toHaveLength(1);
      const rec = r.body.records[0]!;
      expect(rec.domain).toBe(name);
      expect(rec).toMatchObject({ nft_item_address: acc(name), nft_item_owner: acc(owner), ...(await liveRecords(acc(name))) });
      expect(Object.keys(r.body).sort()).toEqual(['address_book', 'records']);
    }
    const [alice] = (await chain.callV3<Records>('dns/records', { domain: 'alice.ton' })).body.records;
    expect(alice).toMatchObject({ dns_wallet: acc('wallet_v5r1'), dns_next_resolver: acc('alice.ton'), dns_storage_bag_id: null });
    expect(alice!.dns_site_adnl).toMatch(/^[0-9a-f]{64}$/);
    const [atlas] = (await chain.callV3<Records>('dns/records', { domain: 'atlas.ton' })).body.records;
    expect(atlas).toMatchObject({ dns_wallet: acc('admin'), dns_site_adnl: null });
    expect(atlas!.dns_storage_bag_id).toMatch(/^[0-9a-f]{64}$/);
    // files.ton's bag is in the `storage` category itself.
    const [files] = (await chain.callV3<Records>('dns/records', { domain: 'files.ton' })).body.records;
    expect(files).toMatchObject({ nft_item_owner: acc('bob'), dns_site_adnl: null, dns_storage_bag_id: seedBytes('v3-nft', 'bag:files').toString('hex') });
  });

  it('by wallet: the names whose wallet record points at it', async () => {
    const r = await chain.callV3<Records>('dns/records', { wallet: chain.account('admin').friendly.bounceable });
    expect(r.body.records.map((x) => x.domain)).toEqual(['atlas.ton']);
    expect(Object.keys(r.body.address_book).sort()).toEqual([acc('admin'), acc('atlas.ton')].sort());
    expect((await chain.callV3<Records>('dns/records', { wallet: acc('wallet_v5r1') })).body.records.map((x) => x.domain)).toEqual(['alice.ton']);
    expect((await chain.callV3<Records>('dns/records', { wallet: acc('alice') })).body.records).toEqual([]);
    expect((await chain.callV3<Records>('dns/records', { domain: 'nobody.ton' })).body.records).toEqual([]);
  });

  it('errors: neither or both of wallet and domain, bad wallet, limit', async () => {
    expect((await chain.callV3('dns/records')).body).toEqual({ error: 'either wallet address or domain is required' });
    const both = await chain.callV3('dns/records', { wallet: acc('admin'), domain: 'atlas.ton' });
    expect(both.status).toBe(422);
    expect(both.body).toEqual({ error: 'provide either wallet address or domain, not both' });
    expect((await chain.callV3('dns/records', { wallet: 'x' })).status).toBe(422);
    expect((await chain.callV3('dns/records', { domain: 'atlas.ton', limit: 1001 })).status).toBe(422);
  });
});

/** The actions of `type` the index holds for `account`, checked against the response model. */
async function actionsOf(account: string, type: string): Promise<ActionJson[]> {
  const r = await chain.callV3<{ actions: ActionJson[] }>('actions', { account, action_type: type, limit: 1000 });
  expect(r.status, r.text).toBe(200);
  expect(modelProblems(r.body, ActionsResponse)).toEqual([]);
  return r.body.actions;
}

describe('NFT and DNS actions: the classifier reads the derived tables', () => {

  it('the genesis gift is an nft_transfer from alice to carol, with the item, its collection and index', async () => {
    const gift = (await chain.callV3<Transfers>('nft/transfers', { item_address: acc('nft_item_0'), limit: 1000 })).body.nft_transfers.find(
      (t) => t.old_owner === acc('alice') && t.new_owner === acc('carol'),
    )!;
    const found = (await actionsOf(acc('carol'), 'nft_transfer')).filter((a) => a.transactions.includes(gift.transaction_hash));
    expect(found).toHaveLength(1);
    expect(found[0]!.success).toBe(true);
    expect(found[0]!.details).toMatchObject({
      nft_item: acc('nft_item_0'),
      nft_collection: acc('nft_collection'),
      nft_item_index: '0',
      old_owner: acc('alice'),
      new_owner: acc('carol'),
      is_purchase: false,
      response_destination: acc('alice'),
    });
  });

  it('every transfer request an item received is an nft_transfer action (a sale contract\'s a purchase; a refused one failed), none a call_contract', async () => {
    const requests = (await chain.callV3<Transfers>('nft/transfers', { limit: 1000 })).body.nft_transfers;
    expect(requests.length).toBeGreaterThan(2);
    for (const t of requests) {
      // As a v2 client sees them: a marketplace listing or purchase (v3 types) shows the transfers it is made of.
      const r = await chain.callV3<{ actions: ActionJson[] }>('actions', { tx_hash: t.transaction_hash, supported_action_types: 'v2' });
      const own = r.body.actions.filter((a) => a.transactions.includes(t.transaction_hash));
      const transfer = own.filter((a) => a.type === 'nft_transfer');
      expect(transfer, t.nft_address).toHaveLength(1);
      // an item a sale contract hands over to a buyer is a purchase, with its price and seller
      if (transfer[0]!.details.is_purchase) expect(transfer[0]!.details).toMatchObject({ marketplace: 'getgems', real_old_owner: expect.any(String), price: expect.any(String) });
      expect(transfer[0]!.success).toBe(!t.transaction_aborted);
      expect(transfer[0]!.details).toMatchObject({ nft_item: t.nft_address, old_owner: t.old_owner, new_owner: t.new_owner });
      // an aborted request's bounce back to the sender is a call of its own (op 0xffffffff)
      if (!t.transaction_aborted) expect(own.map((a) => a.type)).not.toContain('call_contract');
    }
    // alice listing her item: a transfer to the sale contract, not a purchase
    const listing = (await actionsOf(acc('nft_sale'), 'nft_transfer')).find((a) => a.details.nft_item === acc('nft_item_1'))!;
    expect(listing.details).toMatchObject({ old_owner: acc('alice'), new_owner: acc('nft_sale'), is_purchase: false });
  });

  it('each genesis mint is an nft_mint of its collection, with the item index', async () => {
    const mints = await actionsOf(acc('nft_collection'), 'nft_mint');
    expect(mints.map((m) => m.details.nft_item).sort()).toEqual(['nft_item_0', 'nft_item_1', 'nft_item_2', 'nft_item_3', 'nft_item_4'].map(acc).sort());
    for (const m of mints) expect(m.details.nft_collection).toBe(acc('nft_collection'));
    expect(mints.find((m) => m.details.nft_item === acc('nft_item_2'))!.details).toMatchObject({ nft_item_index: '2' });
  });
});

describe('address_book domain', () => {
  type Book = Record<string, { user_friendly: string | null; domain: string | null; interfaces: string[] | null }>;
  it('names an address by the .ton name it owns and whose wallet record points at it, else null', async () => {
    const r = await chain.callV3<Book>('addressBook', { address: [acc('admin'), acc('alice'), acc('wallet_v5r1'), acc('bob')] });
    expect(r.status).toBe(200);
    // admin owns atlas.ton and its wallet record is admin
    expect(r.body[acc('admin')]!.domain).toBe('atlas.ton');
    // alice owns alice.ton but pointed its wallet record at her v5r1 wallet, which does not own it
    expect(r.body[acc('alice')]!.domain).toBeNull();
    expect(r.body[acc('wallet_v5r1')]!.domain).toBeNull();
    expect(r.body[acc('bob')]!.domain).toBeNull();
    // the side maps of other routes carry it too
    const records = await chain.callV3<Records>('dns/records', { domain: 'atlas.ton' });
    expect((records.body.address_book[acc('admin')] as Book[string]).domain).toBe('atlas.ton');
  });
});

describe('DNS expiry', () => {
  it('dns_entries.expiry is a year after the time get_last_fill_up_time answers', async () => {
    const entries = await chain.db!.db.prisma.dnsEntry.findMany({ orderBy: { domain: 'asc' } });
    expect(entries.map((e) => e.domain)).toEqual(['alice.ton', 'atlas.ton', 'files.ton']);
    for (const e of entries) {
      const [filledUp] = await getMethod(e.nftItemAddress, 'get_last_fill_up_time');
      expect(filledUp as bigint).toBeGreaterThan(0n);
      expect(e.expiry).toBe((filledUp as bigint) + 365n * 24n * 3600n);
    }
  });
});

describe('metadata of NFT items and collections', () => {
  const metadata = async (addresses: string[]) => {
    const r = await chain.callV3<MetadataJson>('metadata', { address: addresses });
    expect(r.status, r.text).toBe(200);
    expect(modelProblems(r.body, Metadata)).toEqual([]);
    return r.body;
  };

  it('on-chain content as token_info; off-chain content only typed (with the index) until fetched', async () => {
    const m = await metadata([acc('nft_collection'), acc('alice.ton'), acc('nft_item_2'), acc('bob')]);
    expect(Object.keys(m).sort()).toEqual([acc('nft_collection'), acc('alice.ton'), acc('nft_item_2')].sort());
    expect(m[acc('nft_collection')]).toEqual({
      is_indexed: true,
      token_info: [
        {
          valid: true,
          type: 'nft_collections',
          name: 'Atlas Devnet Cards',
          description: 'NFTs minted at genesis of the Atlas devnet',
          image: 'https://atlas.devnet/static/cards.png',
          is_nsfw: false,
          is_scam: false,
        },
      ],
    });
    const index = (await chain.callV3<Items>('nft/items', { address: acc('alice.ton') })).body.nft_items[0]!.index;
    expect(m[acc('alice.ton')]).toEqual({
      is_indexed: true,
      token_info: [
        { valid: true, type: 'nft_items', name: 'alice.ton', description: 'alice.ton on the Atlas devnet', nft_index: index, is_nsfw: false, is_scam: false },
      ],
    });
    expect(m[acc('nft_item_2')]).toEqual({ is_indexed: false, token_info: [{ type: 'nft_items', nft_index: '2' }] });
  });

  it('off-chain content once the fetcher read it: its attributes; a failed fetch: valid false', async () => {
    const prisma = chain.db!.db.prisma;
    await prisma.offchainMetadata.update({
      where: { uri: 'https://atlas.devnet/nft/2.json' },
      data: { state: 'ok', content: { name: 'Card #2', image: 'https://atlas.devnet/static/2.png', attributes: [{ trait_type: 'rank', value: 'ace' }] } },
    });
    await prisma.offchainMetadata.update({ where: { uri: 'https://atlas.devnet/nft/0.json' }, data: { state: 'failed', error: 'http 404' } });
    const m = await metadata([acc('nft_item_2'), acc('nft_item_0')]);
    expect(m[acc('nft_item_2')]).toEqual({
      is_indexed: true,
      token_info: [
        {
          valid: true,
          type: 'nft_items',
          name: 'Card #2',
          image: 'https://atlas.devnet/static/2.png',
          nft_index: '2',
          is_nsfw: false,
          is_scam: false,
          extra: { attributes: [{ trait_type: 'rank', value: 'ace' }] },
        },
      ],
    });
    expect(m[acc('nft_item_0')]).toEqual({ is_indexed: true, token_info: [{ valid: false, type: 'nft_items', nft_index: '0' }] });
  });
});

// Last: these send record changes to alice.ton, which the DNS route tests above read as the genesis left it.
describe('.ton record changes as actions', () => {
  const key = (category: string) => sha256_sync(Buffer.from(category)).toString('hex');

  it('deleting a record is delete_dns; the empty change of key 0 is renew_dns, and the expiry follows it', async () => {
    const alice = await genesisWallet(chain, 'alice');
    const item = Address.parse(chain.account('alice.ton').address);
    const before = (await chain.db!.db.prisma.dnsEntry.findUnique({ where: { nftItemAddress: acc('alice.ton') } }))!;
    const msg = await signedTransfer(alice, [
      { to: item, value: toNano('0.05'), bounce: true, body: dnsChangeRecordBody({ category: DNS_CATEGORY.site, record: null, queryId: 7n }) },
      { to: item, value: toNano('0.05'), bounce: true, body: dnsChangeRecordBody({ category: 0n, record: null, queryId: 8n }) },
    ]);
    expect((await chain.callV2('post', 'sendBoc', { boc: messageBoc(msg).toString('base64') })).status).toBe(200);
    await chain.seal();

    const deleted = await actionsOf(acc('alice.ton'), 'delete_dns');
    expect(deleted.map((a) => a.details)).toEqual([{ hash: key('site'), source: acc('alice'), asset: acc('alice.ton'), nft_collection: acc('dns_collection') }]);
    // (The genesis renews alice.ton too: the renewal of this trace is the one sent here.)
    const renewed = (await actionsOf(acc('alice'), 'renew_dns')).filter((a) => a.trace_id === deleted[0]!.trace_id);
    expect(renewed.map((a) => a.details)).toEqual([{ source: acc('alice'), asset: acc('alice.ton'), nft_collection: acc('dns_collection') }]);

    const after = (await chain.db!.db.prisma.dnsEntry.findUnique({ where: { nftItemAddress: acc('alice.ton') } }))!;
    expect(after.dnsSiteAdnl).toBeNull();
    const [filledUp] = await getMethod(acc('alice.ton'), 'get_last_fill_up_time');
    expect(after.expiry).toBe((filledUp as bigint) + 365n * 24n * 3600n);
    expect(after.expiry! >= before.expiry!).toBe(true);
  });
});
