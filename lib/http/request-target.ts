// The path of a request target as it came over the wire: what the edge routes on (API or page, the
// stream's endpoints) and what the page cache canonicalizes, before anything decodes it.

/** The raw path of a request target ("/a/b?c" → "/a/b"), without decoding it. */
export function rawPath(target: string): string {
  const q = target.search(/[?#]/);
  return q === -1 ? target : target.slice(0, q);
}
