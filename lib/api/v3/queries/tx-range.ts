// Filters and order every table of transaction events (jetton transfers and burns, NFT transfers) shares:
// tx_now bounds (start_utime/end_utime) or tx_lt bounds, ordered by the one the request uses, and the filters
// on the columns each table indexes with tx_lt (an item, a wallet, an owner, a master or a collection).
import { Prisma } from '../../../db/generated/client';
import type { SortOrder } from '../params';
import { clampLt } from '../routes/common';
import { keyFilters, type KeyFilter } from './where';

const I32_MAX = 2 ** 31 - 1;

export interface TxRange {
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
  sort: SortOrder;
}

/**
 * The range conditions and the key filters (appended to `cond`; each table has a (column, tx_lt) index for
 * every key column), and the ORDER BY: tx_now with time bounds, tx_lt otherwise. When the page goes by
 * tx_lt, its key (where.ts keyFilters) leads the ORDER BY, so the page is read off the key's index, never off
 * the tx_lt index with every newer row of other keys filtered (an NFT item on the 1M bench: 17,549 rows
 * skipped, 7.9 ms, against 0.1 ms off its index).
 */
export function txRangeAndOrder(f: TxRange, cond: Prisma.Sql[], keys: readonly KeyFilter[] = []): Prisma.Sql {
  // tx_now is int4: bounds past its range match nothing (lower) or everything (upper).
  if (f.startUtime !== undefined) cond.push(f.startUtime > I32_MAX ? Prisma.sql`false` : Prisma.sql`tx_now >= ${f.startUtime}::int`);
  if (f.endUtime !== undefined) cond.push(Prisma.sql`tx_now <= ${Math.min(f.endUtime, I32_MAX)}::int`);
  if (f.startLt !== undefined) cond.push(Prisma.sql`tx_lt >= ${clampLt(f.startLt)}`);
  if (f.endLt !== undefined) cond.push(Prisma.sql`tx_lt <= ${clampLt(f.endLt)}`);
  const dir = Prisma.raw(f.sort === 'asc' ? 'ASC' : 'DESC');
  const byTime = f.startUtime !== undefined || f.endUtime !== undefined;
  const key = keyFilters(cond, keys, !byTime);
  if (byTime) return Prisma.sql`tx_now ${dir}, tx_lt ${dir}, tx_hash ${dir}`;
  return key ? Prisma.sql`${Prisma.raw(key)} ${dir}, tx_lt ${dir}, tx_hash ${dir}` : Prisma.sql`tx_lt ${dir}, tx_hash ${dir}`;
}
