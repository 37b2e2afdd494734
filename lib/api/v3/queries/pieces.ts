// Long key lists read in pieces. PGlite runs a query and parses its rows on this process's one thread
// without a break: the messages of a page of 555 actions' transactions, or the rows of its 999
// transactions, in one query each held it for 250–330 ms while health and light requests waited (issue
// 25). In pieces, other requests run between them (each read first yields: lib/db/database.ts). On
// PostgreSQL the pieces cost a round trip each, and only pages past KEYS_PER_READ keys have more than one.

/** Keys per query of a long list. */
export const KEYS_PER_READ = 200;

/** `read` over `keys` in pieces of KEYS_PER_READ, one after the other, their rows together in piece order. */
export async function inPieces<K, R>(keys: K[], read: (part: K[]) => Promise<R[]>): Promise<R[]> {
  if (keys.length <= KEYS_PER_READ) return read(keys);
  const rows: R[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_READ) rows.push(...(await read(keys.slice(i, i + KEYS_PER_READ))));
  return rows;
}
