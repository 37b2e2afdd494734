// token_names rows (the explorer's name search, lib/api/v3/queries/token-search.ts) for the tokens a
// derive pass wrote: words of jetton names and symbols, NFT collection and item names. Off-chain content
// has no name until lib/metadata fetches it; then lib/metadata/token-names.ts adds the words for that
// URI's tokens.
import { contentWords, type TokenContent, type TokenKind } from '../../ton/name-words';
import type { Row, TableRows } from '../sql';

// The token tables, the kind they hold and their content column.
const SOURCES: Record<string, { kind: TokenKind; content: string }> = {
  jetton_masters: { kind: 'jetton', content: 'jetton_content' },
  nft_collections: { kind: 'nft_collection', content: 'collection_content' },
  nft_items: { kind: 'nft_item', content: 'content' },
};

const COLUMNS = ['word', 'kind', 'address'] as const;

/** The token_names rows for the token rows among `tables` (none when no token table is among them). */
export function tokenNameRows(tables: readonly TableRows[]): TableRows[] {
  const rows: Row[] = [];
  for (const t of tables) {
    const source = SOURCES[t.table];
    if (!source) continue;
    for (const r of t.rows) {
      for (const word of contentWords(source.kind, r[source.content] as TokenContent)) rows.push({ word, kind: source.kind, address: r.address as string });
    }
  }
  return rows.length ? [{ table: 'token_names', columns: COLUMNS, rows }] : [];
}
