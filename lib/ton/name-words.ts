// The words of a token's name and symbol, as the explorer's name search matches them: lower case, split
// at anything that is not a letter or a digit. The index stores these words (token_names) and a query
// is split the same way, so "devnet ca" finds "Atlas Devnet Cards" by word prefixes with an index.

/** Longest word kept (longer ones are cut): names are the issuer's text, of any length. */
export const WORD_MAX = 64;
/** Words kept per token: a name that is a paragraph still costs a bounded number of index rows. */
export const WORDS_PER_TOKEN = 24;

export function nameWords(...texts: (string | null | undefined)[]): string[] {
  const out = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const w of text.toLowerCase().normalize('NFC').split(/[^\p{L}\p{N}]+/u)) {
      if (!w) continue;
      out.add([...w].slice(0, WORD_MAX).join(''));
      if (out.size >= WORDS_PER_TOKEN) return [...out];
    }
  }
  return [...out];
}

/**
 * Whether a token's labels match a name query: the symbol exactly (case-insensitive, `ATLAS`), or every
 * word of the query a prefix of some word of the name (`devnet ca` finds "Atlas Devnet Cards"). Labels
 * are the issuer's words: matched as plain text, never as patterns.
 */
export function nameMatches(query: string, labels: { symbol?: string; name?: string }): boolean {
  const q = nameWords(query);
  if (!q.length) return false;
  if (labels.symbol && nameWords(labels.symbol).join(' ') === q.join(' ')) return true;
  const words = nameWords(labels.name);
  return q.every((p) => words.some((w) => w.startsWith(p)));
}

/** The kinds of token the name search finds. */
export type TokenKind = 'jetton' | 'nft_collection' | 'nft_item';

/** A token's content as the index keeps it (TEP-64 attributes, or {uri} until off-chain content is fetched). */
export type TokenContent = Record<string, unknown> | null | undefined;

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The words of one token's content: name, and symbol for jettons. */
export function contentWords(kind: TokenKind, content: TokenContent): string[] {
  if (!content) return [];
  return nameWords(text(content.name), kind === 'jetton' ? text(content.symbol) : undefined);
}
