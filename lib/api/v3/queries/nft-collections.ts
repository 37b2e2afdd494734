// nft_collections for GET /nft/collections (and the collection embedded in each NFT item): filters,
// ordering and the JSON shape (api-v3.md §2.3, §3.14).
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { dec, optB64 } from '../encode';
import type { NftCollectionJson } from '../models/nfts';
import type { Page } from '../params';
import { sorted } from './jetton-masters';
import { oneOf, where } from './where';

export interface NftCollectionFilter {
  address?: string[];
  owner?: string[];
}

/** The columns of a collection, prefixed (items select them through a join). */
export const collectionColumns = (t: string) =>
  Prisma.raw(
    ['address', 'owner_address', 'last_transaction_lt', 'next_item_index', 'collection_content', 'data_hash', 'code_hash']
      .map((c) => `${t}.${c} AS ${t}_${c}`)
      .join(', '),
  );

export type CollectionRow = Record<string, unknown>;

/** A collection's JSON from the columns collectionColumns(t) selected; null when the join found none. */
export function collectionJson(r: CollectionRow, t: string): NftCollectionJson | null {
  const col = (c: string) => r[`${t}_${c}`];
  if (col('address') == null) return null;
  const content = col('collection_content') as Record<string, string> | null;
  return {
    address: col('address') as string,
    owner_address: col('owner_address') as string | null,
    last_transaction_lt: (col('last_transaction_lt') as bigint).toString(),
    next_item_index: dec(col('next_item_index') as Prisma.Decimal),
    collection_content: content ? sorted(content) : null,
    data_hash: optB64(col('data_hash') as Uint8Array | null),
    code_hash: optB64(col('code_hash') as Uint8Array | null),
  };
}

/** The query of one page: collections by insertion order (toncenter's id); filtered ones in no promised order (here: id too). */
export function nftCollectionsQuery(f: NftCollectionFilter, page: Page): Prisma.Sql {
  const cond: Prisma.Sql[] = [];
  if (f.address?.length) cond.push(oneOf('c.address', f.address));
  if (f.owner?.length) cond.push(oneOf('c.owner_address', f.owner));
  return Prisma.sql`SELECT ${collectionColumns('c')} FROM nft_collections c ${where(cond)} ORDER BY c.id ASC LIMIT ${page.take} OFFSET ${page.skip}`;
}

export async function findNftCollections(sql: SqlReader, f: NftCollectionFilter, page: Page): Promise<NftCollectionJson[]> {
  const rows = await sql.rows<CollectionRow>(nftCollectionsQuery(f, page));
  return rows.map((r) => collectionJson(r, 'c')!);
}
