// GET /search (an Atlas extension; toncenter has no name search): jettons by symbol or name, NFT
// collections and items by name, for the explorer's search box.
import { z } from 'zod';
import { unprocessable } from '../errors';
import { TokenSearchResponse } from '../models/search';
import { p } from '../params';
import { searchTokens } from '../queries/token-search';
import { defineRoute } from '../route';
import { sideMaps } from '../queries/side-maps';
import { nameWords } from '../../../ton/name-words';

const QUERY_MAX = 64;

export const tokenSearch = defineRoute({
  path: 'search',
  tag: 'search',
  summary: 'Token search by name (Atlas extension)',
  description:
    'Jettons whose symbol is `q` or whose name has words starting with the words of `q`, then NFT collections and items by name. Exact symbols first. Names are the tokens\' own (on-chain content, or off-chain metadata once fetched for jettons and collections).',
  query: z.object({
    q: p.string(`Text to find, up to ${QUERY_MAX} characters, e.g. USDT or "devnet ca".`),
    limit: p.int32('Maximum number of results (default 20).', { minimum: 1, maximum: 50, default: 20 }),
  }),
  response: TokenSearchResponse,
  errors: { 422: 'q is required · q is too long · q has no letters or digits · limit above 50' },
  async run(q, ctx) {
    if (q.q === undefined) throw unprocessable('q is required');
    if ([...q.q].length > QUERY_MAX) throw unprocessable(`q is too long (at most ${QUERY_MAX} characters)`);
    if (!nameWords(q.q).length) throw unprocessable('q has no letters or digits');
    const limit = Math.max(1, q.limit ?? 20);
    if (limit > 50) throw unprocessable(`limit is not allowed: ${limit} > 50`);
    const tokens = await searchTokens(ctx.sql, q.q, limit);
    const { address_book } = await sideMaps(ctx, tokens.map((t) => t.address), { book: true, metadata: false });
    return { tokens, address_book };
  },
});
