// token_names rows (the explorer's name search, lib/api/v3/queries/token-search.ts) for the tokens a
// derive pass wrote: words of jetton names and symbols, NFT collection and item names. Off-chain content
// has no name until lib/metadata fetches it; then namesOfFetched adds the words for that URI's tokens.
import { Prisma, type PrismaClient } from '../../db/generated/client';
import { nameWords } from '../../format/name-words';
import type { Row, TableRows } from '../sql';

export type TokenKind = 'jetton' | 'nft_collection' | 'nft_item';

// The token tables, the kind they hold and their content column.
const SOURCES: Record<string, { kind: TokenKind; content: string }> = {
  jetton_masters: { kind: 'jetton', content: 'jetton_content' },
  nft_collections: { kind: 'nft_collection', content: 'collection_content' },
  nft_items: { kind: 'nft_item', content: 'content' },
};

const COLUMNS = ['word', 'kind', 'address'] as const;

type Content = Record<string, unknown> | null | undefined;
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The words of one token's content: name, and symbol for jettons. */
export function contentWords(kind: TokenKind, content: Content): string[] {
  if (!content) return [];
  return nameWords(text(content.name), kind === 'jetton' ? text(content.symbol) : undefined);
}

/** The token_names rows for the token rows among `tables` (none when no token table is among them). */
export function tokenNameRows(tables: readonly TableRows[]): TableRows[] {
  const rows: Row[] = [];
  for (const t of tables) {
    const source = SOURCES[t.table];
    if (!source) continue;
    for (const r of t.rows) {
      for (const word of contentWords(source.kind, r[source.content] as Content)) rows.push({ word, kind: source.kind, address: r.address as string });
    }
  }
  return rows.length ? [{ table: 'token_names', columns: COLUMNS, rows }] : [];
}

/**
 * Words of fetched off-chain metadata for the jettons and collections whose content names `uri`. Items
 * are left out: their URIs are one per item, and finding them by URI would scan the largest table.
 */
export async function namesOfFetched(prisma: PrismaClient, uri: string, content: Content): Promise<void> {
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
