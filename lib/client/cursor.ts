// Keyset cursors over the v3 list routes, which page by lt ranges: a cursor `lt.skip` means "rows with
// lt <= lt, leaving out the first `skip` rows at exactly that lt" (rows of one lt were already shown;
// several accounts can share an lt within a block). New rows never shift an older page.
import type { TransactionJson } from '@/lib/api/v3/models';
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

/** The query of one page of transactions matching `filter`, newest first. */
export function txPageParams(filter: TransactionsParams, cursor: string | undefined, limit = PAGE_SIZE): TransactionsParams {
  const c = parseLtCursor(cursor);
  return { ...filter, limit, sort: 'desc', ...(c ? { end_lt: c.lt, offset: c.skip } : {}) };
}

/** The cursor of the page after `rows` (undefined when this page was the last). */
export function nextTxCursor(rows: Pick<TransactionJson, 'lt'>[], cursor: string | undefined, limit = PAGE_SIZE): string | undefined {
  if (rows.length < limit) return undefined;
  const lastLt = rows[rows.length - 1]!.lt;
  const c = parseLtCursor(cursor);
  const sameLt = rows.filter((r) => r.lt === lastLt).length + (c && c.lt === lastLt ? c.skip : 0);
  return `${lastLt}.${sameLt}`;
}
