// TEP-62 NFTs in the derive stage: collections (get_collection_data), items and SBTs (get_nft_data,
// checked against their collection's get_nft_address_by_index, content joined with the collection's by
// get_nft_content as TEP-64 says), GetGems sales and auctions (get_sale_data), TEP-81 .ton names
// (get_domain, dnsresolve) and the transfer requests items received. Like jettons.ts, a row of a state
// table is replaced only by a newer state of its account.
import { Cell, type Address, type TupleItem } from '@ton/core';
import { Prisma, type PrismaClient } from '../../db/generated/client';
import { readComment } from '../../actions/cells';
import type { AccountInterfaces } from '../../actions/model';
import { NFT_OP, readNftTransfer } from '../../actions/protocols/nft';
import { rawUpper } from '../../ton/address';
import { deserializeBoc } from '../../ton';
import { methodId } from '../../ton/contract-methods';
import { stackAddress, stackCell, stackInt } from '../../ton/jetton-getters';
import {
  readAuctionData,
  readCollectionData,
  readDnsRecords,
  readDomain,
  readNftData,
  readSaleData,
  RESOLVE_SELF,
  type AuctionData,
  type NftData,
  type SaleData,
} from '../../ton/nft-getters';
import { storedContentJson } from '../../ton/token-content';
import { hex, optHex, type Row, type TableRows } from '../sql';
import { mapConcurrent } from '../concurrent';
import { indexedRequests, receivedRequests, requestHistory, type ReceivedRequest } from './requests';
import { ACCOUNTS_AT_ONCE, declaredBy, type DerivedAccount, type DeriveBlock, type Detector, type GetterRun } from './detector';

export const NFT_COLLECTION = 'nft_collection';
export const NFT_ITEM = 'nft_item';
export const GETGEMS_SALE = 'getgems_sale';
export const GETGEMS_AUCTION = 'getgems_auction';
export const DNS_ITEM = 'dns_item';

// The get-methods each interface declares (toncenter's detection table, lib/ton/interfaces.ts).
const DECLARES: Record<string, number[]> = {
  [NFT_COLLECTION]: ['get_collection_data', 'get_nft_address_by_index', 'get_nft_content'].map(methodId),
  [NFT_ITEM]: ['get_nft_data'].map(methodId),
  [GETGEMS_SALE]: ['get_sale_data'].map(methodId),
  [GETGEMS_AUCTION]: ['get_sale_data'].map(methodId),
  [DNS_ITEM]: ['get_nft_data', 'get_domain', 'dnsresolve'].map(methodId),
};

/** A .ton name is paid for a year from its last fill-up (TEP-81 reference DNS items). */
const DNS_TERM_SECONDS = 365n * 24n * 3600n;

const COLLECTION_COLUMNS = ['address', 'next_item_index', 'owner_address', 'collection_content', 'collection_content_boc', 'code_hash', 'data_hash', 'last_transaction_lt'] as const;
const ITEM_COLUMNS = ['address', 'init', 'index', 'collection_address', 'owner_address', 'content', 'content_boc', 'code_hash', 'data_hash', 'last_transaction_lt'] as const;
const SALE_COLUMNS = ['address', 'type', 'nft_address', 'nft_owner_address', 'marketplace_address', 'created_at', 'details', 'code_hash', 'data_hash', 'last_transaction_lt'] as const;
const DNS_COLUMNS = ['nft_item_address', 'domain', 'nft_item_owner', 'dns_next_resolver', 'dns_wallet', 'dns_site_adnl', 'dns_storage_bag_id', 'expiry', 'last_transaction_lt'] as const;
const TRANSFER_COLUMNS = [
  'tx_hash', 'tx_lt', 'tx_now', 'tx_aborted', 'mc_seqno', 'query_id', 'nft_item_address', 'nft_item_index', 'nft_collection_address', 'old_owner',
  'new_owner', 'response_destination', 'custom_payload', 'forward_amount', 'forward_payload', 'comment',
] as const;

/** Only a newer state of the account replaces its row. */
const newer = (table: string, key: string, columns: readonly string[]) =>
  `ON CONFLICT (${key}) DO UPDATE SET ${columns
    .filter((c) => c !== key)
    .map((c) => `"${c}" = EXCLUDED."${c}"`)
    .join(', ')} WHERE ${table}.last_transaction_lt < EXCLUDED.last_transaction_lt`;

const raw = (a: Address | null) => (a ? rawUpper(a) : null);

/** The stack read by `read`, or null when the method failed or its stack is not that interface's. */
async function getter<T>(account: DerivedAccount, run: GetterRun, method: string, read: (s: TupleItem[]) => T, stack?: TupleItem[]): Promise<T | null> {
  const s = await run(account, method, stack);
  try {
    return s ? read(s) : null;
  } catch {
    return null;
  }
}

const collectionData = (a: DerivedAccount, run: GetterRun) => getter(a, run, 'get_collection_data', readCollectionData);
const nftData = (a: DerivedAccount, run: GetterRun) => getter(a, run, 'get_nft_data', readNftData);
const saleData = (a: DerivedAccount, run: GetterRun) => getter(a, run, 'get_sale_data', readSaleData);
const auctionData = (a: DerivedAccount, run: GetterRun) => getter(a, run, 'get_sale_data', readAuctionData);
const domainOf = (a: DerivedAccount, run: GetterRun) => getter(a, run, 'get_domain', readDomain);

function stateColumns(a: DerivedAccount) {
  return { code_hash: optHex(a.state.codeHash), data_hash: optHex(a.state.dataHash), last_transaction_lt: a.state.lastTransLt.toString() };
}

/** The nft_sales columns of a sale as get_sale_data gives it (but its address and state columns). */
export function saleRow(s: SaleData): SaleRow & Row {
  return {
    type: GETGEMS_SALE,
    nft_address: raw(s.nft),
    nft_owner_address: raw(s.nftOwner),
    marketplace_address: raw(s.marketplace),
    created_at: s.createdAt.toString(),
    details: {
      is_complete: s.isComplete,
      full_price: s.fullPrice.toString(),
      marketplace_fee_address: raw(s.marketplaceFeeAddress),
      marketplace_fee: s.marketplaceFee.toString(),
      royalty_address: raw(s.royaltyAddress),
      royalty_amount: s.royaltyAmount.toString(),
    },
  };
}

/** The same of an auction. */
export function auctionRow(a: AuctionData): SaleRow & Row {
  return {
    type: GETGEMS_AUCTION,
    nft_address: raw(a.nft),
    nft_owner_address: raw(a.nftOwner),
    marketplace_address: raw(a.marketplace),
    created_at: a.createdAt.toString(),
    details: {
      end_flag: a.end,
      end_time: Number(a.endTime),
      last_bid: a.lastBid.toString(),
      last_member: raw(a.lastMember),
      min_step: Number(a.minStep),
      mp_fee_address: raw(a.mpFeeAddress),
      mp_fee_factor: Number(a.mpFeeFactor),
      mp_fee_base: Number(a.mpFeeBase),
      royalty_fee_address: raw(a.royaltyFeeAddress),
      royalty_fee_factor: Number(a.royaltyFeeFactor),
      royalty_fee_base: Number(a.royaltyFeeBase),
      max_bid: a.maxBid.toString(),
      min_bid: a.minBid.toString(),
      last_bid_at: Number(a.lastBidAt),
      is_canceled: a.isCanceled,
    },
  };
}

/** The columns of an nft_sales row the classifier reads (trace-input.ts, and pending traces through saleRow). */
export interface SaleRow {
  type: string;
  nft_address: string | null;
  nft_owner_address: string | null;
  marketplace_address: string | null;
  details: Record<string, unknown>;
}

const optBig = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : typeof v === 'string' && /^-?\d+$/.test(v) ? BigInt(v) : null);
const optAddress = (v: unknown) => (typeof v === 'string' ? v : null);

/** A sale's or auction's row as the classifier's AccountInterfaces (null for another type). */
export function saleInterfaces(s: SaleRow): Pick<AccountInterfaces, 'nftSale' | 'nftAuction'> | null {
  const common = { marketplace: s.marketplace_address, nft: s.nft_address, owner: s.nft_owner_address };
  const d = s.details;
  if (s.type === GETGEMS_SALE) {
    return {
      nftSale: {
        ...common,
        price: optBig(d.full_price),
        marketplaceFeeAddress: optAddress(d.marketplace_fee_address),
        marketplaceFee: optBig(d.marketplace_fee),
        royaltyAddress: optAddress(d.royalty_address),
        royaltyAmount: optBig(d.royalty_amount),
      },
    };
  }
  if (s.type === GETGEMS_AUCTION) {
    return {
      nftAuction: {
        ...common,
        lastBid: optBig(d.last_bid),
        mpFeeAddress: optAddress(d.mp_fee_address),
        mpFeeFactor: optBig(d.mp_fee_factor),
        mpFeeBase: optBig(d.mp_fee_base),
        royaltyAddress: optAddress(d.royalty_fee_address),
        royaltyBase: optBig(d.royalty_fee_base),
        maxBid: optBig(d.max_bid),
        minBid: optBig(d.min_bid),
      },
    };
  }
  return null;
}

/**
 * An item as its collection vouches for it: the collection's get_nft_address_by_index must name the
 * item (else anyone could claim a collection), and get_nft_content joins the individual content with
 * the collection's common content. Null when the collection disowns the item.
 */
async function itemContent(block: DeriveBlock, item: DerivedAccount, d: NftData): Promise<{ content: Cell | null } | null> {
  if (!d.collection) return { content: d.content };
  const collection = await block.account(rawUpper(d.collection));
  if (!collection) return null;
  const index: TupleItem = { type: 'int', value: d.index };
  const vouchKey = `${item.state.account} ${rawUpper(d.collection)} ${d.index}`;
  if (!vouched.has(vouchKey)) {
    const named = await getter(collection, block.run, 'get_nft_address_by_index', (s) => stackAddress(s[0]), [index]);
    if (!named || rawUpper(named) !== item.state.account) return null;
    remember(vouched, vouchKey, true);
  }
  if (!d.content) return { content: null };
  // The same collection state joining the same individual content gives the same content: an item
  // touched block after block (transfers change its owner, not its content) is joined once.
  const contentKey = `${collection.state.account} ${hex(collection.code.hash())} ${hex(collection.data.hash())} ${d.index} ${hex(d.content.hash())}`;
  let full = joined.get(contentKey);
  if (full === undefined) {
    full = await getter(collection, block.run, 'get_nft_content', (s) => stackCell(s[0]), [index, { type: 'cell', cell: d.content }]);
    remember(joined, contentKey, full);
  }
  return { content: full };
}

// Items their collection vouched for, as `item collection index` (none of the three ever changes), and
// contents collections joined. Bounded: dropped wholesale when full; an item is then asked about again.
const vouched = new Map<string, true>();
const joined = new Map<string, Cell | null>();
const REMEMBERED_MAX = 200_000;
function remember<V>(map: Map<string, V>, key: string, value: V) {
  if (map.size >= REMEMBERED_MAX) map.clear();
  map.set(key, value);
}

export const nftDetector: Detector = {
  name: 'nft',

  candidates: (methods) => declaredBy(DECLARES, methods),

  async confirm(iface, account, run) {
    switch (iface) {
      case NFT_COLLECTION:
        return (await collectionData(account, run)) !== null;
      case NFT_ITEM:
        return (await nftData(account, run)) !== null;
      case GETGEMS_SALE:
        return (await saleData(account, run)) !== null;
      case GETGEMS_AUCTION:
        return (await auctionData(account, run)) !== null;
      case DNS_ITEM:
        return (await nftData(account, run)) !== null && (await domainOf(account, run)) !== null;
    }
    return false;
  },

  async derive(block: DeriveBlock): Promise<TableRows[]> {
    const collections: Row[] = [];
    const items: Row[] = [];
    const sales: Row[] = [];
    const names: Row[] = [];
    const uris: string[] = [];
    const itemsByAddress = new Map<string, NftData>();
    // Get-methods of several accounts in flight (the TVM pool's workers in parallel); rows in account order.
    const found = await mapConcurrent([...block.accounts.values()], ACCOUNTS_AT_ONCE, async (account) => {
      const is = (iface: string) => account.interfaces.includes(iface);
      const collection = is(NFT_COLLECTION) ? await collectionData(account, block.run) : null;
      const item = is(NFT_ITEM) ? await nftData(account, block.run) : null;
      const vouched = item && (await itemContent(block, account, item));
      const name = item && vouched && is(DNS_ITEM) ? await dnsRow(block, account, item) : null;
      const sale = is(GETGEMS_SALE) ? await saleData(account, block.run) : null;
      const auction = is(GETGEMS_AUCTION) ? await auctionData(account, block.run) : null;
      return { account, collection, item, vouched, name, sale, auction };
    });
    for (const { account, collection, item, vouched, name, sale: s, auction: a } of found) {
      const address = account.state.account;
      if (collection) {
        const d = collection;
        const content = storedContentJson(d.content);
        if (content?.uri) uris.push(content.uri);
        collections.push({
          address,
          next_item_index: d.nextItemIndex.toString(),
          owner_address: raw(d.owner),
          collection_content: content,
          collection_content_boc: hex(d.content.toBoc()),
          ...stateColumns(account),
        });
      }
      if (item && vouched) {
        const d = item;
        itemsByAddress.set(address, d);
        const content = vouched.content ? storedContentJson(vouched.content) : null;
        if (content?.uri) uris.push(content.uri);
        items.push({
          address,
          init: d.init,
          index: d.index.toString(),
          collection_address: raw(d.collection),
          owner_address: raw(d.owner),
          content,
          content_boc: vouched.content ? hex(vouched.content.toBoc()) : null,
          ...stateColumns(account),
        });
        if (name) names.push(name);
      }
      if (s) sales.push({ address, ...saleRow(s), ...stateColumns(account) });
      if (a) sales.push({ address, ...auctionRow(a), ...stateColumns(account) });
    }

    if (uris.length) await block.enqueueMetadata(uris);

    // Transfers: requests an NFT item of this block received.
    const requests: ItemRequest[] = receivedRequests(block, (account, msg) => {
      const item = itemsByAddress.get(account);
      if (!item || msg.opcode !== NFT_OP.transfer) return undefined;
      return { item: account, index: item.index.toString(), collection: raw(item.collection), sender: msg.source };
    });
    return [
      { table: 'nft_collections', columns: COLLECTION_COLUMNS, rows: collections, onConflict: newer('nft_collections', 'address', COLLECTION_COLUMNS) },
      { table: 'nft_items', columns: ITEM_COLUMNS, rows: items, onConflict: newer('nft_items', 'address', ITEM_COLUMNS) },
      { table: 'nft_sales', columns: SALE_COLUMNS, rows: sales, onConflict: newer('nft_sales', 'address', SALE_COLUMNS) },
      { table: 'dns_entries', columns: DNS_COLUMNS, rows: names, onConflict: newer('dns_entries', 'nft_item_address', DNS_COLUMNS) },
      transferTable(nftTransferRows(requests)),
    ];
  },

  history(prisma, afterLt, limit) {
    return requestHistory((lt, n) => itemRequestsAfter(prisma, lt, n), afterLt, limit, (rows) => [transferTable(nftTransferRows(rows))]);
  },
};

/** The dns_entries row of a .ton item: its name, owner, every record and when it expires. */
async function dnsRow(block: DeriveBlock, account: DerivedAccount, d: NftData): Promise<Row | null> {
  const label = await domainOf(account, block.run);
  const records = await getter(account, block.run, 'dnsresolve', readDnsRecords, RESOLVE_SELF);
  if (label === null || !records) return null;
  // Reference items answer get_last_fill_up_time; an item that does not has no known expiry.
  const filledUp = await getter(account, block.run, 'get_last_fill_up_time', (s) => stackInt(s[0]));
  return {
    nft_item_address: account.state.account,
    domain: `${label}.ton`,
    nft_item_owner: raw(d.owner),
    dns_next_resolver: raw(records.nextResolver),
    dns_wallet: raw(records.wallet),
    dns_site_adnl: records.siteAdnl?.toString('hex') ?? null,
    dns_storage_bag_id: records.storageBagId?.toString('hex') ?? null,
    expiry: filledUp === null ? null : (filledUp + DNS_TERM_SECONDS).toString(),
    last_transaction_lt: account.state.lastTransLt.toString(),
  };
}

const transferTable = (rows: Row[]): TableRows => ({ table: 'nft_transfers', columns: TRANSFER_COLUMNS, rows });

/** A transfer request an NFT item received in a transaction. */
export interface ItemRequest extends ReceivedRequest {
  item: string;
  index: string | null;
  collection: string | null;
  /** The message's sender: the old owner (a transfer from anyone else is aborted by the item). */
  sender: string | null;
}

/** Transfer requests to known NFT items among indexed transactions, by lt. */
function itemRequestsAfter(prisma: PrismaClient, ltCondition: Prisma.Sql, limit: number | null): Promise<ItemRequest[]> {
  const q = {
    columns: Prisma.sql`i.index, i.collection_address AS collection, m.source`,
    receiver: Prisma.sql`JOIN nft_items i ON i.address = m.destination`,
    where: Prisma.sql`m.opcode = ${NFT_OP.transfer}::int`,
    own: (r: { account: string; index: Prisma.Decimal; collection: string | null; source: string | null }) => ({
      item: r.account,
      index: r.index.toFixed(),
      collection: r.collection,
      sender: r.source,
    }),
  };
  return indexedRequests(prisma, q, ltCondition, limit);
}

/** nft_transfers rows of item requests; a malformed body makes no row (the item rejects it too). */
export function nftTransferRows(requests: ItemRequest[]): Row[] {
  const rows: Row[] = [];
  for (const q of requests) {
    try {
      const body = deserializeBoc(q.body)[0]!.beginParse();
      if (body.preloadUint(32) !== NFT_OP.transfer) continue;
      const r = readNftTransfer(body);
      const { comment, encrypted } = r.forwardPayload ? readComment(r.forwardPayload.beginParse()) : { comment: null, encrypted: false };
      const payload = r.forwardPayload && (r.forwardPayload.bits.length || r.forwardPayload.refs.length) ? r.forwardPayload : null;
      rows.push({
        tx_hash: hex(q.txHash),
        tx_lt: q.lt.toString(),
        tx_now: q.now,
        tx_aborted: q.aborted,
        mc_seqno: q.mcSeqno,
        query_id: (r.queryId ?? 0n).toString(),
        nft_item_address: q.item,
        nft_item_index: q.index,
        nft_collection_address: q.collection,
        old_owner: q.sender,
        new_owner: r.newOwner,
        response_destination: r.response,
        custom_payload: r.customPayload ? hex(r.customPayload.toBoc()) : null,
        forward_amount: (r.forwardAmount ?? 0n).toString(),
        forward_payload: payload ? hex(payload.toBoc()) : null,
        comment: encrypted ? null : comment,
      });
    } catch {
      // not a well-formed request
    }
  }
  return rows;
}
