// v3 response models: NFTs (/nft/collections, /nft/items, /nft/transfers, /nft/sales). Conventions: ./index.ts.
import { z } from 'zod';
import { addr, AddressBook, boc, decoded, hash, int64s, Metadata } from './common';

const content = z.record(z.string(), z.string()).describe('TEP-64 content: on-chain attributes, or {uri} for off-chain content');

export const NftCollection = z.object({
  address: addr,
  owner_address: addr.nullable(),
  last_transaction_lt: int64s,
  next_item_index: int64s,
  collection_content: content.nullable(),
  data_hash: hash.nullable(),
  code_hash: hash.nullable(),
});

export const NftItem = z.object({
  address: addr,
  init: z.boolean(),
  index: int64s,
  collection_address: addr.nullable(),
  owner_address: addr.nullable(),
  content: content.nullable(),
  last_transaction_lt: int64s,
  code_hash: hash.nullable(),
  data_hash: hash.nullable(),
  collection: NftCollection.nullable(),
  on_sale: z.boolean().describe('the owner is a GetGems sale or auction contract of this item'),
  sale_contract_address: addr.optional(),
  auction_contract_address: addr.optional(),
  real_owner: addr.optional().describe('the seller behind the sale or auction'),
});

export const NftTransfer = z.object({
  query_id: int64s,
  nft_address: addr,
  nft_collection: addr.nullable(),
  transaction_hash: hash,
  transaction_lt: int64s,
  transaction_now: z.number().int(),
  transaction_aborted: z.boolean(),
  old_owner: addr.nullable(),
  new_owner: addr.nullable(),
  response_destination: addr.nullable(),
  custom_payload: boc.nullable(),
  decoded_custom_payload: decoded.nullable(),
  forward_amount: int64s,
  forward_payload: boc.nullable(),
  decoded_forward_payload: decoded.nullable(),
  trace_id: hash.nullable(),
});

export const NftSale = z.object({
  type: z.enum(['getgems_sale', 'getgems_auction', 'telemint']),
  address: addr,
  nft_address: addr.optional(),
  nft_owner_address: addr.optional(),
  marketplace_address: addr.optional(),
  created_at: z.number().int().optional(),
  last_transaction_lt: int64s.optional(),
  code_hash: hash.optional(),
  data_hash: hash.optional(),
  details: z.record(z.string(), z.unknown()).describe('getgems_sale or getgems_auction fields (api-v3.md NFTSale)'),
  nft_item: NftItem.optional(),
});

export const NftCollectionsResponse = z.object({ nft_collections: z.array(NftCollection), address_book: AddressBook, metadata: Metadata });
export const NftItemsResponse = z.object({ nft_items: z.array(NftItem), address_book: AddressBook, metadata: Metadata });
export const NftTransfersResponse = z.object({ nft_transfers: z.array(NftTransfer), address_book: AddressBook, metadata: Metadata });
export const NftSalesResponse = z.object({ nft_sales: z.array(NftSale), address_book: AddressBook, metadata: Metadata });

export type NftCollectionJson = z.infer<typeof NftCollection>;
export type NftItemJson = z.infer<typeof NftItem>;
export type NftTransferJson = z.infer<typeof NftTransfer>;
export type NftSaleJson = z.infer<typeof NftSale>;
