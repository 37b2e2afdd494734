// Keyset cursors over the v3 list routes, which page by lt ranges: a cursor `lt.skip` means "rows with
// lt <= lt, leaving out the first `skip` rows at exactly that lt" (rows of one lt were already shown;
// several accounts can share an lt within a block). New rows never shift an older page.
import type { TransactionJson } from '@/lib/api/v3/models/transactions';
import type { TransactionsParams } from './registry';

export const PAGE_SIZE = 20;

interface LtCursor {
  lt: string;
  skip: number;
}

export function parseLtCursor(c: string | undefined): LtCursor | undefined {
  const m = c ? /^(\d{1,20})(?:\.(\d{1,6}))?$/.exec(c) : null;
  return m ? { lt: m[1]!, skip: Number(m[2] ?? 0) } : undefined;
}

/**
 * The query of one page of transactions (or of rows ordered by their transaction's lt, such as jetton
 * transfers) matching `filter`, newest first. It asks for one row more
 * than the page shows: that row only tells whether an older page exists.
 */
export function txPageParams<P extends object = TransactionsParams>(filter: P, cursor: string | undefined, limit = PAGE_SIZE): P & { limit: number; sort: 'desc'; end_lt?: string; offset?: number } {
  const c = parseLtCursor(cursor);
  return { ...filter, limit: limit + 1, sort: 'desc', ...(c ? { end_lt: c.lt, offset: c.skip } : {}) };
}

/** The rows a page shows (without the look-ahead row). */
export const pageRows = <T>(rows: T[], limit = PAGE_SIZE): T[] => rows.slice(0, limit);

/** The cursor of the page after this one (undefined when nothing older exists). */
export function nextTxCursor(fetched: Pick<TransactionJson, 'lt'>[], cursor: string | undefined, limit = PAGE_SIZE): string | undefined {
  if (fetched.length <= limit) return undefined;
  const rows = pageRows(fetched, limit);
  const lastLt = rows[rows.length - 1]!.lt;
  const c = parseLtCursor(cursor);
  const sameLt = rows.filter((r) => r.lt === lastLt).length + (c && c.lt === lastLt ? c.skip : 0);
  return `${lastLt}.${sameLt}`;
}
