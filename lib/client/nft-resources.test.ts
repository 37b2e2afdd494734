// The NFT, DNS and jetton resources the explorer's NFT pages and search read, through the registry over
// real HTTP on a devnet indexed with the derive stage: the queries the pages share with their prefetch
// (filters.ts) answer what a reader expects to see, and the search's name matching finds the genesis tokens.
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '@/lib/testing/chain';
import type { HttpTestServer } from '@/lib/testing/http-server';
import { rawUpper } from '@/lib/ton/address';
import { claimedDomain, contentDisplay } from '../format/nft';
import { fetchResource, setOrigin } from './fetcher';
import { accountNftsParams, collectionItemsParams, collectionTransfersParams, dnsFillUpParams, itemTransfersParams, nftCollectionsParams } from './filters';

let chain: TestChain;
let server: HttpTestServer;
const acc = (name: string) => rawUpper(Address.parse(chain.account(name).address));

beforeAll(async () => {
  chain = await startTestChain({ seed: 'client-nft', rounds: 2, index: true, derive: true });
  server = await chain.serve();
  setOrigin(server.url);
}, 300_000);

afterAll(async () => {
  await server?.close();
  await chain?.close();
});

describe('NFT pages', () => {
  it('the collections grid lists the genesis collections with their owners, and a page of a collection its items by index', async () => {
    const grid = await fetchResource('nftCollections', nftCollectionsParams(0));
    const cards = grid.nft_collections.find((c) => c.address === acc('nft_collection'))!;
    expect(contentDisplay(cards.collection_content).name).toBe('Atlas Devnet Cards');
    expect(cards.owner_address).toBe(acc('admin'));
    const items = await fetchResource('nftItems', collectionItemsParams(cards.address, 0));
    expect(items.nft_items.map((i) => i.index)).toEqual(Array.from({ length: Number(cards.next_item_index) }, (_, i) => String(i)));
    // The second page starts after the first (offset paging): nothing past the three cards.
    expect((await fetchResource('nftItems', collectionItemsParams(cards.address, 1))).nft_items).toEqual([]);
    const transfers = await fetchResource('nftTransfers', collectionTransfersParams(cards.address));
    expect(transfers.nft_transfers.length).toBeGreaterThan(0);
    expect(transfers.nft_transfers.every((t) => t.nft_collection === cards.address)).toBe(true);
  });

  it("an item's history is its transfers, newest first; the card on sale names its seller", async () => {
    const card1 = acc('nft_item_1');
    const item = (await fetchResource('nftItems', { address: [card1] })).nft_items[0]!;
    expect(item.on_sale).toBe(true);
    expect(item.real_owner).toBe(acc('alice'));
    const sale = await fetchResource('nftSales', { address: [item.sale_contract_address!] });
    expect(sale.nft_sales[0]!.details.full_price).toBe('100000000000');
    const history = (await fetchResource('nftTransfers', itemTransfersParams(card1))).nft_transfers;
    expect(history.map((t) => t.new_owner)).toContain(item.owner_address);
    expect(history.map((t) => BigInt(t.transaction_lt))).toEqual(history.map((t) => BigInt(t.transaction_lt)).sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
  });

  it("an account's NFTs include what it put on sale, and its .ton names are confirmed by dns/records", async () => {
    const owned = await fetchResource('nftItems', accountNftsParams(acc('alice')));
    const addresses = owned.nft_items.map((i) => i.address);
    expect(addresses).toContain(acc('nft_item_1'));
    expect(addresses).toContain(acc('alice.ton'));
    expect(addresses).not.toContain(acc('nft_item_0')); // given to carol
    const names = owned.nft_items.filter((i) => owned.address_book[i.address]?.interfaces?.includes('dns'));
    expect(names.map((i) => i.address)).toEqual([acc('alice.ton')]);
    const domain = claimedDomain(names[0]!.content)!;
    expect(domain).toBe('alice.ton');
    const records = await fetchResource('dnsRecords', { domain });
    expect(records.records[0]!.nft_item_address).toBe(acc('alice.ton'));
    expect(records.records[0]!.nft_item_owner).toBe(acc('alice'));
  });

  it('the DNS page asks the item for its last renewal and gets a get-method answer, not an HTTP failure', async () => {
    const run = await fetchResource('runGetMethod', dnsFillUpParams(acc('atlas.ton')));
    expect(typeof run.exit_code).toBe('number');
  });
});

describe('search by name', () => {
  it('finds the genesis jetton by its symbol first, collections by word prefixes of their name, and not the other way round', async () => {
    const exact = await fetchResource('tokenSearch', { q: 'atlas' });
    // "atlas" is the jetton's symbol (exact, first) and a word of every genesis collection's name.
    expect(exact.tokens[0]).toMatchObject({ type: 'jetton', address: acc('jetton_minter'), symbol: 'ATLAS', name: 'Atlas Devnet Token' });
    expect(exact.tokens.filter((t) => t.type === 'nft_collection').map((t) => t.address).sort()).toEqual([acc('nft_collection'), acc('sbt_collection')].sort());
    expect(exact.address_book[acc('jetton_minter')]?.user_friendly).toBeTruthy();

    const cards = await fetchResource('tokenSearch', { q: 'devnet ca' });
    expect(cards.tokens.map((t) => [t.type, t.address, t.name])).toEqual([['nft_collection', acc('nft_collection'), 'Atlas Devnet Cards']]);
    // A prefix of the symbol is not the symbol; a word that is in no name finds nothing.
    expect((await fetchResource('tokenSearch', { q: 'ATL' })).tokens.every((t) => t.name?.toLowerCase().startsWith('atl'))).toBe(true);
    expect((await fetchResource('tokenSearch', { q: 'cardsx' })).tokens).toEqual([]);
  });

  it('answers a query with no letters or digits, a long one and a large limit with 422', async () => {
    for (const params of [{ q: '%%' }, { q: 'x'.repeat(65) }, { q: 'atlas', limit: 51 }]) {
      await expect(fetchResource('tokenSearch', params)).rejects.toMatchObject({ status: 422 });
    }
  });
});
