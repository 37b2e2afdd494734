// nft_items for GET /nft/items (and the item embedded in each sale): filters, ordering and the JSON
// shape (api-v3.md §2.3, §3.15). An item whose owner is a GetGems sale or auction of that very item
// is on sale; the seller behind it is its real owner.
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { dec, optB64 } from '../encode';
import type { NftItemJson } from '../models/nfts';
import type { Page } from '../params';
import { collectionColumns, collectionJson, type CollectionRow } from './nft-collections';
import { sorted } from './jetton-masters';
import { oneOf, where } from './where';

export interface NftItemFilter {
  address?: string[];
  owner?: string[];
  /** With owner: also items held by a sale or auction whose seller is one of the owners. */
  includeOnSale?: boolean;
  collection?: string[];
  /** Decimal strings; only with collection. */
  index?: string[];
  sortByLastTransactionLt?: boolean;
}

interface Row extends CollectionRow {
  address: string;
  init: boolean;
  index: Prisma.Decimal;
  collection_address: string | null;
  owner_address: string | null;
  content: Record<string, string> | null;
  last_transaction_lt: bigint;
  code_hash: Uint8Array | null;
  data_hash: Uint8Array | null;
  sale_address: string | null;
  sale_type: string | null;
  sale_owner: string | null;
}

const ITEM_COLUMNS = Prisma.sql`i.address, i.init, i.index, i.collection_address, i.owner_address, i.content, i.last_transaction_lt, i.code_hash,
  i.data_hash, i.id`;

/**
 * The query of one page (the order as the route describes it). The page of items is found first and
 * only its rows are joined with their sale and collection: a join before the LIMIT would be one per
 * matching item wherever the page is sorted out of them.
 */
export function nftItemsQuery(f: NftItemFilter, page: Page): Prisma.Sql {
  const cond: Prisma.Sql[] = [];
  let items = Prisma.sql`nft_items i`;
  if (f.owner?.length) {
    const owned = oneOf('i.owner_address', f.owner);
    if (f.includeOnSale) {
      // Also the items whose owner is a sale of that very item by one of the owners (a seller's sales
      // by nft_sales' seller index, each one's item by address), unless already owned outright. Two
      // arms of a UNION ALL each read an index; one OR over a join would have the planner test every item.
      items = Prisma.sql`(
        SELECT ${ITEM_COLUMNS} FROM nft_items i WHERE ${owned}
        UNION ALL
        SELECT ${ITEM_COLUMNS} FROM nft_sales s JOIN nft_items i ON i.address = s.nft_address AND i.owner_address = s.address
        WHERE ${oneOf('s.nft_owner_address', f.owner)} AND NOT (${owned})) i`;
    } else cond.push(owned);
  }
  if (f.address?.length) cond.push(oneOf('i.address', f.address));
  if (f.collection?.length) cond.push(oneOf('i.collection_address', f.collection));
  if (f.index?.length) cond.push(Prisma.sql`i.index = ANY(${f.index}::numeric[])`);
  const order = f.sortByLastTransactionLt
    ? Prisma.sql`i.last_transaction_lt DESC, i.id ASC`
    : f.owner?.length
      ? Prisma.sql`i.owner_address, i.collection_address, i.index, i.id`
      : f.collection?.length === 1
        ? Prisma.sql`i.collection_address, i.index, i.id`
        : Prisma.sql`i.id ASC`;
  return Prisma.sql`
    SELECT i.address, i.init, i.index, i.collection_address, i.owner_address, i.content, i.last_transaction_lt, i.code_hash, i.data_hash,
           s.address AS sale_address, s.type AS sale_type, s.nft_owner_address AS sale_owner, ${collectionColumns('c')}
    FROM (SELECT ${ITEM_COLUMNS} FROM ${items} ${where(cond)} ORDER BY ${order} LIMIT ${page.take} OFFSET ${page.skip}) i
    LEFT JOIN nft_sales s ON s.address = i.owner_address AND s.nft_address = i.address
    LEFT JOIN nft_collections c ON c.address = i.collection_address
    ORDER BY ${order}`;
}

export async function findNftItems(sql: SqlReader, f: NftItemFilter, page: Page): Promise<NftItemJson[]> {
  return (await sql.rows<Row>(nftItemsQuery(f, page))).map(itemJson);
}

function itemJson(r: Row): NftItemJson {
  const item: NftItemJson = {
    address: r.address,
    init: r.init,
    index: dec(r.index),
    collection_address: r.collection_address,
    owner_address: r.owner_address,
    content: r.content ? sorted(r.content) : null,
    last_transaction_lt: r.last_transaction_lt.toString(),
    code_hash: optB64(r.code_hash),
    data_hash: optB64(r.data_hash),
    collection: collectionJson(r, 'c'),
    on_sale: r.sale_address !== null,
  };
  if (r.sale_address) {
    if (r.sale_type === 'getgems_auction') item.auction_contract_address = r.sale_address;
    else item.sale_contract_address = r.sale_address;
    if (r.sale_owner) item.real_owner = r.sale_owner;
  }
  return item;
}
