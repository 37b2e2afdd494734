// token_names rows for off-chain metadata once it is fetched: the words of its name (and a jetton's
// symbol) for every jetton and collection whose content names the URI (the rows a derive pass writes for
// on-chain content: lib/indexer/derive/token-names.ts).
import { Prisma, type PrismaClient } from '../db/generated/client';
import { contentWords, type TokenContent } from '../ton/name-words';

/**
 * Words of fetched off-chain metadata for the jettons and collections whose content names `uri`. Items
 * are left out: their URIs are one per item, and finding them by URI would scan the largest table.
 */
export async function namesOfFetched(prisma: PrismaClient, uri: string, content: TokenContent): Promise<void> {
  const jetton = contentWords('jetton', content);
  const collection = contentWords('nft_collection', content);
  if (!jetton.length && !collection.length) return;
  await prisma.$executeRaw(Prisma.sql`
    INSERT INTO token_names (word, kind, address)
    SELECT w, 'jetton', address FROM jetton_masters, unnest(${jetton}::text[]) AS w WHERE jetton_content->>'uri' = ${uri}
    UNION ALL
    SELECT w, 'nft_collection', address FROM nft_collections, unnest(${collection}::text[]) AS w WHERE collection_content->>'uri' = ${uri}
    ON CONFLICT DO NOTHING`);
}
