// TEP-62 / TEP-81 / GetGems get-method answers read from a TVM stack: collections, items, sales,
// auctions and DNS items. The indexer's derive stage reads them here; each reader throws when the
// stack is not what the method of that interface returns.
import { beginCell, Dictionary, type Address, type Cell, type TupleItem } from '@ton/core';
import { dnsCategory, parseDnsRecord } from './dns';
import { stackAddress, stackCell, stackInt } from './jetton-getters';

export interface CollectionData {
  nextItemIndex: bigint;
  content: Cell;
  owner: Address | null;
}

/** get_collection_data: (next_item_index, collection_content, owner_address). */
export function readCollectionData(s: TupleItem[]): CollectionData {
  return { nextItemIndex: stackInt(s[0]), content: stackCell(s[1]), owner: stackAddress(s[2]) };
}

export interface NftData {
  init: boolean;
  index: bigint;
  collection: Address | null;
  owner: Address | null;
  /** The individual content (joined with the collection's by get_nft_content), or the full content without a collection. */
  content: Cell | null;
}

/** get_nft_data: (init?, index, collection_address, owner_address, individual_content). */
export function readNftData(s: TupleItem[]): NftData {
  const content = s[4]?.type === 'null' ? null : stackCell(s[4]);
  return { init: stackInt(s[0]) !== 0n, index: stackInt(s[1]), collection: stackAddress(s[2]), owner: stackAddress(s[3]), content };
}

/** Magic numbers get_sale_data answers first: "FIXP" for a fixed-price sale, "AUC" for an auction. */
export const SALE_MAGIC = { fixPrice: 0x46495850n, auction: 0x415543n } as const;

export interface SaleData {
  isComplete: boolean;
  createdAt: bigint;
  marketplace: Address | null;
  nft: Address | null;
  nftOwner: Address | null;
  fullPrice: bigint;
  marketplaceFeeAddress: Address | null;
  marketplaceFee: bigint;
  royaltyAddress: Address | null;
  royaltyAmount: bigint;
}

/**
 * get_sale_data of a GetGems fixed-price sale: ("FIXP", is_complete, created_at, marketplace, nft,
 * nft_owner, full_price, marketplace_fee_address, marketplace_fee, royalty_address, royalty_amount).
 */
export function readSaleData(s: TupleItem[]): SaleData {
  if (stackInt(s[0]) !== SALE_MAGIC.fixPrice) throw new Error('not a fixed-price sale');
  return {
    isComplete: stackInt(s[1]) !== 0n,
    createdAt: stackInt(s[2]),
    marketplace: stackAddress(s[3]),
    nft: stackAddress(s[4]),
    nftOwner: stackAddress(s[5]),
    fullPrice: stackInt(s[6]),
    marketplaceFeeAddress: stackAddress(s[7]),
    marketplaceFee: stackInt(s[8]),
    royaltyAddress: stackAddress(s[9]),
    royaltyAmount: stackInt(s[10]),
  };
}

export interface AuctionData {
  end: boolean;
  endTime: bigint;
  marketplace: Address | null;
  nft: Address | null;
  nftOwner: Address | null;
  lastBid: bigint;
  lastMember: Address | null;
  minStep: bigint;
  mpFeeAddress: Address | null;
  mpFeeFactor: bigint;
  mpFeeBase: bigint;
  royaltyFeeAddress: Address | null;
  royaltyFeeFactor: bigint;
  royaltyFeeBase: bigint;
  maxBid: bigint;
  minBid: bigint;
  createdAt: bigint;
  lastBidAt: bigint;
  isCanceled: boolean;
}

/**
 * get_sale_data of a GetGems auction: ("AUC", end?, end_time, marketplace, nft, nft_owner, last_bid,
 * last_member, min_step, mp_fee_address, mp_fee_factor, mp_fee_base, royalty_fee_address,
 * royalty_fee_factor, royalty_fee_base, max_bid, min_bid, created_at, last_bid_at, is_canceled).
 */
export function readAuctionData(s: TupleItem[]): AuctionData {
  if (stackInt(s[0]) !== SALE_MAGIC.auction) throw new Error('not an auction');
  return {
    end: stackInt(s[1]) !== 0n,
    endTime: stackInt(s[2]),
    marketplace: stackAddress(s[3]),
    nft: stackAddress(s[4]),
    nftOwner: stackAddress(s[5]),
    lastBid: stackInt(s[6]),
    lastMember: stackAddress(s[7]),
    minStep: stackInt(s[8]),
    mpFeeAddress: stackAddress(s[9]),
    mpFeeFactor: stackInt(s[10]),
    mpFeeBase: stackInt(s[11]),
    royaltyFeeAddress: stackAddress(s[12]),
    royaltyFeeFactor: stackInt(s[13]),
    royaltyFeeBase: stackInt(s[14]),
    maxBid: stackInt(s[15]),
    minBid: stackInt(s[16]),
    createdAt: stackInt(s[17]),
    lastBidAt: stackInt(s[18]),
    isCanceled: stackInt(s[19]) !== 0n,
  };
}

/** get_domain of a DNS item: the label (without ".ton"). */
export function readDomain(s: TupleItem[]): string {
  const slice = stackCell(s[0]).beginParse();
  return slice.loadBuffer(Math.floor(slice.remainingBits / 8)).toString('utf8');
}

/** dnsresolve(".", 0) of a DNS item: every record by category. */
export interface DnsRecords {
  wallet: Address | null;
  nextResolver: Address | null;
  siteAdnl: Buffer | null;
  storageBagId: Buffer | null;
}

/** The dnsresolve argument asking a DNS item for all of its own records: the name "\0", category 0. */
export const RESOLVE_SELF: TupleItem[] = [
  { type: 'slice', cell: beginCell().storeUint(0, 8).endCell() },
  { type: 'int', value: 0n },
];

const CATEGORY = { wallet: dnsCategory('wallet'), site: dnsCategory('site'), storage: dnsCategory('storage'), next: dnsCategory('dns_next_resolver') };

/**
 * dnsresolve answers (resolved_bits, records): with category 0 a dictionary of every record. The
 * `site` category holds an ADNL address or (TEP-81 storage sites) a bag; `storage` holds a bag.
 */
export function readDnsRecords(s: TupleItem[]): DnsRecords {
  stackInt(s[0]);
  const out: DnsRecords = { wallet: null, nextResolver: null, siteAdnl: null, storageBagId: null };
  if (!s[1] || s[1].type === 'null') return out;
  const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell(), stackCell(s[1]));
  for (const [category, cell] of dict) {
    const r = parseDnsRecord(cell);
    if (category === CATEGORY.wallet && r.type === 'smc_address') out.wallet = r.address;
    else if (category === CATEGORY.next && r.type === 'next_resolver') out.nextResolver = r.address;
    else if (category === CATEGORY.site && r.type === 'adnl_address') out.siteAdnl = r.adnl;
    else if ((category === CATEGORY.site || category === CATEGORY.storage) && r.type === 'storage_address') out.storageBagId ??= r.bagId;
  }
  return out;
}
