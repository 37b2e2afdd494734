// NFT routes (api-v3.md §2.3): nft/collections, nft/items, nft/transfers, nft/sales, read from the
// tables the indexer's derive stage fills (lib/indexer/derive/nft.ts). Each entity's SQL, filters and
// ordering live in its query module (../queries).
import { z } from 'zod';
import { unprocessable } from '../errors';
import { bounds, DIRECTIONS, ownerSide } from './common';
import { NftCollectionsResponse, NftItemsResponse, NftSalesResponse, NftTransfersResponse } from '../models/nfts';
import { limitParams, ltParams, p, page, sortOrder, utimeParams } from '../params';
import { findNftCollections } from '../queries/nft-collections';
import { findNftItems } from '../queries/nft-items';
import { findNftSales } from '../queries/nft-sales';
import { findNftTransfers } from '../queries/nft-transfers';
import { defineRoute } from '../route';
import { sideMaps } from '../queries/side-maps';

export const nftCollections = defineRoute({
  path: 'nft/collections',
  tag: 'nft',
  summary: 'NFT collections',
  description: 'As get_collection_data answers at the indexed block, ordered by first appearance.',
  query: z.object({
    collection_address: p.addresses('Collection address.'),
    owner_address: p.addresses('Owner address.'),
    limit: limitParams().limit,
    offset: limitParams().offset,
  }),
  response: NftCollectionsResponse,
  errors: { 422: 'invalid parameter or limit' },
  async run(q, ctx) {
    const list = await findNftCollections(ctx.sql, { address: q.collection_address, owner: q.owner_address }, page(q));
    const maps = await sideMaps(ctx, list.flatMap((c) => [c.address, c.owner_address]));
    return { nft_collections: list, ...maps };
  },
});

export const nftItems = defineRoute({
  path: 'nft/items',
  tag: 'nft',
  summary: 'NFT items',
  description:
    'As get_nft_data answers at the indexed block, content joined with the collection\'s by get_nft_content. Ordered by ' +
    'last_transaction_lt desc with sort_by_last_transaction_lt, else by owner, collection and index when owner_address is ' +
    'given, by index within a single collection, else by first appearance.',
  query: z.object({
    address: p.addresses('NFT item address.'),
    owner_address: p.addresses('Current owner (with include_on_sale, also the seller behind a sale or auction).'),
    collection_address: p.addresses('Collection address; several require exactly one owner_address.'),
    index: p.strings('Item index (decimal digits); requires collection_address.'),
    include_on_sale: p.bool('owner_address also matches the seller of an item held by its sale or auction contract.', false),
    sort_by_last_transaction_lt: p.bool('Order by last_transaction_lt desc.'),
    limit: limitParams().limit,
    offset: limitParams().offset,
  }),
  response: NftItemsResponse,
  errors: {
    422: 'exact one owner_address required for multiple collection_address · index should contain digits only · ' +
      'index parameter is not allowed without the collection_address · invalid parameter or limit',
  },
  async run(q, ctx) {
    if ((q.collection_address?.length ?? 0) > 1 && q.owner_address?.length !== 1) throw unprocessable('exact one owner_address required for multiple collection_address');
    if (q.index?.some((i) => !/^[0-9]+$/.test(i))) throw unprocessable('index should contain digits only');
    // [quirk] toncenter answers this with 500; it is the client's mistake, so 422 here.
    if (q.index?.length && !q.collection_address?.length) throw unprocessable('index parameter is not allowed without the collection_address');
    const list = await findNftItems(
      ctx.sql,
      {
        address: q.address,
        owner: q.owner_address,
        includeOnSale: q.include_on_sale,
        collection: q.collection_address,
        index: q.index,
        sortByLastTransactionLt: q.sort_by_last_transaction_lt,
      },
      page(q),
    );
    const maps = await sideMaps(ctx, list.flatMap((i) => [i.address, i.collection_address, i.owner_address, i.real_owner, i.sale_contract_address, i.auction_contract_address]));
    return { nft_items: list, ...maps };
  },
});


export const nftTransfers = defineRoute({
  path: 'nft/transfers',
  tag: 'nft',
  summary: 'NFT transfers',
  description:
    'Transfer requests received by NFT items, aborted ones included. Ordered by transaction_lt {sort}, or by ' +
    'transaction_now with start_utime/end_utime. direction (with owner_address): in = received, out = sent, both = either.',
  query: z.object({
    owner_address: p.addresses('Old or new owner.'),
    address: p.address('Alias of a single owner_address.'),
    item_address: p.addresses('NFT item address.'),
    collection_address: p.address('Collection address.'),
    direction: p.string('in | out | both (default): which side owner_address is on.', { enum: [...DIRECTIONS] }),
    ...utimeParams('transaction_now'),
    ...ltParams('transaction_lt'),
    ...limitParams(),
  }),
  response: NftTransfersResponse,
  errors: { 422: 'direction should be one of: in, out, both · invalid parameter, limit or sort' },
  async run(q, ctx) {
    const { owner, direction } = ownerSide(q);
    const list = await findNftTransfers(
      ctx.sql,
      {
        owner,
        direction,
        item: q.item_address,
        collection: q.collection_address,
        ...bounds(q),
        sort: sortOrder(q.sort),
      },
      page(q),
    );
    const maps = await sideMaps(ctx, list.flatMap((t) => [t.nft_address, t.nft_collection, t.old_owner, t.new_owner, t.response_destination]));
    return { nft_transfers: list, ...maps };
  },
});

export const nftSales = defineRoute({
  path: 'nft/sales',
  tag: 'nft',
  summary: 'NFT sales and auctions',
  description: 'The GetGems fixed-price sales and auctions among the addresses, as get_sale_data answers at the indexed block; sales first.',
  query: z.object({
    address: p.addresses('Sale or auction contract address (1 to 1000).'),
  }),
  response: NftSalesResponse,
  // More than 1000 addresses are refused by the list parser (params.ts) before this runs.
  errors: { 422: 'at least 1 address required · too many values (more than 1000) · invalid parameter' },
  async run(q, ctx) {
    if (!q.address?.length) throw unprocessable('at least 1 address required');
    const list = await findNftSales(ctx.sql, q.address);
    const maps = await sideMaps(
      ctx,
      list.flatMap((s) => [
        s.address,
        s.nft_address,
        s.nft_owner_address,
        s.marketplace_address,
        ...Object.entries(s.details).flatMap(([k, v]) => (k.endsWith('_address') || k === 'last_member') && typeof v === 'string' ? [v] : []),
        s.nft_item?.collection_address,
        s.nft_item?.owner_address,
      ]),
    );
    return { nft_sales: list, ...maps };
  },
});
