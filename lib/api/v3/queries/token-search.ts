// token_names for the explorer's name search (GET /search, an Atlas extension): jettons by symbol or
// name, NFT collections and items by name, matched by word prefixes from the primary key's B-tree.
// The longest word of the query drives the index scan (the most selective); every hit is then checked
// against the token's current labels (nameMatches), which also drops words a renamed token left behind.
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { nameMatches, nameWords, type TokenKind } from '../../../ton/name-words';

export interface TokenHit {
  type: TokenKind;
  address: string;
  name: string | null;
  symbol: string | null;
}

/** Index rows a query reads at most: a one-letter prefix of a common word stays cheap on any index. */
const SCAN = 2000;
const KIND_ORDER: Record<TokenKind, number> = { jetton: 0, nft_collection: 1, nft_item: 2 };

interface Candidate {
  kind: TokenKind;
  address: string;
  content: Record<string, unknown> | null;
  fetched: Record<string, unknown> | null;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);

/**
 * The candidates of the word `driver`: tokens having it as a word, then as a prefix of one, with their
 * labels (exported for the plan test).
 */
export function tokenCandidatesQuery(driver: string): Prisma.Sql {
  // Exact words first (a symbol typed whole), then prefixes; `\` escapes nothing a word can hold, but
  // LIKE's own metacharacters are escaped anyway.
  const prefix = `${driver.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return Prisma.sql`
    WITH hits AS (
      (SELECT kind, address FROM token_names WHERE word = ${driver} LIMIT ${SCAN})
      UNION
      (SELECT kind, address FROM token_names WHERE word LIKE ${prefix} ORDER BY word LIMIT ${SCAN})
    )
    -- Each hit's token row and fetched document by key (LIMIT 1 keeps them lookups per hit: as joins the
    -- planner may read a whole token table to merge or hash-join a common word's few thousand hits).
    SELECT h.kind, h.address, l.content, o.content AS fetched
    FROM hits h
    LEFT JOIN LATERAL (
      SELECT jetton_content AS content FROM jetton_masters WHERE h.kind = 'jetton' AND address = h.address
      UNION ALL SELECT collection_content FROM nft_collections WHERE h.kind = 'nft_collection' AND address = h.address
      UNION ALL SELECT content FROM nft_items WHERE h.kind = 'nft_item' AND address = h.address
      LIMIT 1) l ON true
    LEFT JOIN LATERAL (SELECT content FROM offchain_metadata WHERE uri = l.content->>'uri' AND state = 'ok' LIMIT 1) o ON true`;
}

export async function searchTokens(sql: SqlReader, query: string, limit: number): Promise<TokenHit[]> {
  const words = nameWords(query);
  if (!words.length) return [];
  const driver = words.reduce((a, b) => (b.length > a.length ? b : a));
  const rows = await sql.rows<Candidate>(tokenCandidatesQuery(driver));

  const whole = words.join(' ');
  const hits: (TokenHit & { exact: boolean })[] = [];
  for (const r of rows) {
    const name = str(r.content?.name) ?? str(r.fetched?.name);
    const symbol = r.kind === 'jetton' ? (str(r.content?.symbol) ?? str(r.fetched?.symbol)) : null;
    if (!nameMatches(query, { name: name ?? undefined, symbol: symbol ?? undefined })) continue;
    hits.push({ type: r.kind, address: r.address, name, symbol, exact: !!symbol && nameWords(symbol).join(' ') === whole });
  }
  hits.sort((a, b) => Number(b.exact) - Number(a.exact) || KIND_ORDER[a.type] - KIND_ORDER[b.type] || (a.name ?? '').localeCompare(b.name ?? '') || (a.address < b.address ? -1 : 1));
  return hits.slice(0, limit).map(({ exact: _exact, ...h }) => h);
}
