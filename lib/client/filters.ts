// Which query each page runs, shared by the server prefetch and the client view so both use one key.
import type { BlockIdJson } from '@/lib/api/v3/models/blocks';
import { ACTIVITY_FILTERS } from '@/lib/format/action';
import { nextTxCursor, txPageParams } from './cursor';
import type { StackEntry, TransactionsParams } from './registry';

/** A masterchain block lists everything it committed; a shard block its own transactions. */
export const blockTxFilter = (id: BlockIdJson): TransactionsParams =>
  id.workchain === -1 ? { mc_seqno: id.seqno } : { workchain: id.workchain, shard: id.shard, seqno: id.seqno };

/** `/block/-1/8000000000000000/12` segments → a block id, or null when malformed. */
export function parseBlockId(workchain: string, shard: string, seqno: string): BlockIdJson | null {
  if (!/^-?\d{1,3}$/.test(workchain) || !/^[0-9a-fA-F]{16}$/.test(shard) || !/^\d{1,10}$/.test(seqno)) return null;
  const s = Number(seqno);
  if (s > 2 ** 31 - 1) return null;
  return { workchain: Number(workchain), shard: shard.toUpperCase(), seqno: s };
}

export const BLOCKS_PAGE = 20;

/**
 * A page of masterchain blocks, newest first; the cursor is an lt bound (blocks starting at or below
 * it). One block more than shown is fetched to know whether an older page exists.
 */
export function mcBlocksParams(cursor: string | undefined, limit = BLOCKS_PAGE) {
  const endLt = cursor && /^\d{1,20}$/.test(cursor) ? cursor : undefined;
  return { workchain: -1, limit: limit + 1, sort: 'desc' as const, ...(endLt ? { end_lt: endLt } : {}) };
}

export const visibleBlocks = <T>(fetched: T[], limit = BLOCKS_PAGE): T[] => fetched.slice(0, limit);

export function nextMcBlocksCursor(fetched: { start_lt: string }[], limit = BLOCKS_PAGE): string | undefined {
  if (fetched.length <= limit) return undefined;
  const blocks = visibleBlocks(fetched, limit);
  const last = BigInt(blocks[blocks.length - 1]!.start_lt);
  return last > 0n ? String(last - 1n) : undefined;
}

/**
 * The basechain blocks committed by a page of masterchain blocks: a shard block is never newer than
 * the masterchain block committing it and rarely much older, so the page's time span plus a margin
 * holds them all (grouped by masterchain_block_ref afterwards).
 */
export function shardBlocksParams(blocks: { gen_utime: string }[]) {
  if (!blocks.length) return null;
  const times = blocks.map((b) => Number(b.gen_utime));
  return { workchain: 0, start_utime: Math.max(0, Math.min(...times) - 60), end_utime: Math.max(...times), limit: 1000, sort: 'desc' as const };
}

/** Home page queries (shared by its server prefetch and its live client view). */
export const HOME_BLOCKS = { workchain: -1, limit: 8, sort: 'desc' as const };
export const HOME_TXS = { limit: 10, sort: 'desc' as const };
/** Blocks of every workchain generated in the minute up to the latest masterchain block. */
export const lastMinuteBlocks = (lastUtime: string) => ({ start_utime: Number(lastUtime) - 59, end_utime: Number(lastUtime), limit: 1000 });

export const TOP_ACCOUNTS = { limit: 50 };

/** The jettons list: masters in index order, a page of 50 (the route pages by offset only). */
export const JETTONS_PAGE = 50;
export const jettonsParams = (page: number) => ({ limit: JETTONS_PAGE + 1, offset: page * JETTONS_PAGE });
/** A page number from the query string (0 for anything else). */
export const pageNumber = (p: string | undefined) => (p && /^\d{1,6}$/.test(p) ? Number(p) : 0);

/** A jetton's holders, largest balance first (by offset: the route sorts balances, it has no balance cursor). */
export const HOLDERS_PAGE = 20;
export const holdersParams = (master: string, page: number) => ({
  jetton_address: [master],
  exclude_zero_balance: true,
  sort: 'desc' as const,
  limit: HOLDERS_PAGE + 1,
  offset: page * HOLDERS_PAGE,
});

/** The jettons an account holds (its jetton wallets with a balance). */
export const accountJettonsParams = (owner: string) => ({ owner_address: [owner], exclude_zero_balance: true, sort: 'desc' as const, limit: 100 });

/**
 * The account page's activity card: a page of the account's actions of the chosen kind, newest first. The
 * cursor pages by the actions' trace_end_lt (the route's order), as transactions page by lt.
 */
export function activityParams(address: string, filter: string | undefined, cursor?: string) {
  const types = ACTIVITY_FILTERS.find((f) => f.id === filter)?.types;
  return txPageParams({ account: address, ...(types ? { action_type: types } : {}) }, cursor);
}

/** The cursor of the activity page after this one (undefined when nothing older exists). */
export const nextActivityCursor = (fetched: { trace_end_lt: string }[], cursor: string | undefined) =>
  nextTxCursor(
    fetched.map((a) => ({ lt: a.trace_end_lt })),
    cursor,
  );

/** The NFT collections grid: in index order, by offset (the route has no cursor); one more to know a next page exists. */
export const NFT_COLLECTIONS_PAGE = 24;
export const nftCollectionsParams = (page: number) => ({ limit: NFT_COLLECTIONS_PAGE + 1, offset: page * NFT_COLLECTIONS_PAGE });

/** A collection's items, by index (the route orders a single collection's items by index). */
export const COLLECTION_ITEMS_PAGE = 24;
export const collectionItemsParams = (collection: string, page: number) => ({
  collection_address: [collection],
  limit: COLLECTION_ITEMS_PAGE + 1,
  offset: page * COLLECTION_ITEMS_PAGE,
});

/** The latest transfers of a collection's items, or of one item (its whole history up to 100). */
export const collectionTransfersParams = (collection: string) => ({ collection_address: collection, limit: 20, sort: 'desc' as const });
export const itemTransfersParams = (item: string) => ({ item_address: [item], limit: 100, sort: 'desc' as const });

/** The NFTs an account owns, items it has put on sale included (shared by its NFTs and domains cards). */
export const accountNftsParams = (owner: string) => ({ owner_address: [owner], include_on_sale: true, limit: 100 });

/** A .ton name's last renewal, live from its item (the v3 record has no expiry): the DNS page's expiry. */
export const dnsFillUpParams = (item: string) => ({ address: item, method: 'get_last_fill_up_time', stack: [] as StackEntry[] });

/** A pending trace's page: its prediction by external message hash, and its real trace once indexed. */
export const pendingTraceParams = (externalHash: string) => ({ ext_msg_hash: [externalHash] });
export const landedTraceParams = (externalHash: string) => ({ msg_hash: externalHash, include_actions: true });

/** The vesting section of an account page (lib/ton/interface-names WALLET_VESTING) reads this query. */
export const vestingParams = (address: string) => ({ contract_address: [address] });
