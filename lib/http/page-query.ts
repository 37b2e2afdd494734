// The query parameters each explorer page reads, in one place. A page types its `searchParams` with
// PageQuery<'its route'>, so reading a parameter that is not listed here does not compile; the page cache
// (page-cache.ts) keys a render by its path and these parameters only, so `/account/X?cb=1` is the render
// of `/account/X`: a query string a page does not read changes nothing it renders, and cannot force a
// new render either. page-query.test.ts checks that every page under app/ taking searchParams names its
// own route here.
import { rawPath } from './request-target';

/** App routes (their folders under app/) and the parameters their page reads. */
export const PAGE_QUERY = {
  '/account/[address]': ['cursor', 'activity', 'activity_cursor'],
  '/block/[workchain]/[shard]/[seqno]': ['cursor'],
  '/blocks': ['cursor'],
  '/transactions': ['cursor'],
  '/jetton/[address]': ['holders', 'cursor'],
  '/jettons': ['page'],
  '/nfts': ['page'],
  '/nft/collection/[address]': ['page'],
  '/search': ['q'],
} as const satisfies Record<string, readonly string[]>;

export type PageRoute = keyof typeof PAGE_QUERY;

/** What a page's `searchParams` resolve to: only its own parameters (`V`: how it reads a repeated one). */
export type PageQuery<R extends PageRoute, V = string> = { [K in (typeof PAGE_QUERY)[R][number]]?: V };

/**
 * Next's own query parameter: `_rsc` tells apart payloads of one URL that differ by router headers (it is a
 * hash of them), so it stays part of a render's identity on every page.
 */
const NEXT_PARAMS = ['_rsc'];

const ROUTES = Object.entries(PAGE_QUERY).map(([route, params]) => ({
  pattern: new RegExp(`^${route.replace(/\[[^\]]+\]/g, '[^/]+')}$`),
  params: [...NEXT_PARAMS, ...params],
}));

/** The query parameters the page at `path` (a raw, undecoded path) reads. */
export function pageParams(path: string): readonly string[] {
  return ROUTES.find((r) => r.pattern.test(path))?.params ?? NEXT_PARAMS;
}

/**
 * The URL a render of `target` (a request target: raw path and query) is the render of: each path segment
 * in one spelling (`%45Q…` and `EQ…` name the same account), and of the query only what the page reads,
 * sorted by name (each name's values in their order). Null when a segment's escapes do not decode (the
 * edge answers those 400 before any page is asked for).
 */
export function canonicalPageUrl(target: string): string | null {
  const raw = rawPath(target);
  let path: string;
  try {
    path = raw.split('/').map((s) => encodeURIComponent(decodeURIComponent(s))).join('/');
  } catch {
    return null;
  }
  const rest = target.slice(raw.length);
  const query = new URLSearchParams(rest.startsWith('?') ? rest.slice(1).split('#')[0] : '');
  const kept = new URLSearchParams();
  for (const name of [...pageParams(path)].sort()) for (const value of query.getAll(name)) kept.append(name, value);
  const search = kept.toString();
  return search ? `${path}?${search}` : path;
}
