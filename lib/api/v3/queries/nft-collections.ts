// nft_collections for GET /nft/collections (and the collection embedded in each NFT item): filters,
// ordering and the JSON shape (api-v3.md §2.3, §3.14).
import { Prisma, type PrismaClient } from '../../../db/generated/client';
import { dec, optB64 } from '../encode';
import type { NftCollectionJson } from '../models';
import type { Page } from '../params';
import { sorted } from './jetton-masters';

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

/** Collections by insertion order (toncenter's id); filtered ones in no promised order (here: id too). */
export async function findNftCollections(prisma: PrismaClient, f: NftCollectionFilter, page: Page): Promise<NftCollectionJson[]> {
  const cond: Prisma.Sql[] = [];
  if (f.address?.length) cond.push(Prisma.sql`c.address = ANY(${f.address}::text[])`);
  if (f.owner?.length) cond.push(Prisma.sql`c.owner_address = ANY(${f.owner}::text[])`);
  const where = cond.length ? Prisma.sql`WHERE ${Prisma.join(cond, ' AND ')}` : Prisma.empty;
  const rows = await prisma.$queryRaw<CollectionRow[]>(Prisma.sql`
    SELECT ${collectionColumns('c')} FROM nft_collections c ${where} ORDER BY c.id ASC LIMIT ${page.take} OFFSET ${page.skip}`);
  return rows.map((r) => collectionJson(r, 'c')!);
}
