// Filters and order every table of transaction events (jetton transfers and burns, NFT transfers) shares:
// tx_now bounds (start_utime/end_utime) or tx_lt bounds, ordered by the one the request uses.
import { Prisma } from '../../../db/generated/client';
import type { SortOrder } from '../params';
import { clampLt } from '../routes/common';

const I32_MAX = 2 ** 31 - 1;

export interface TxRange {
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
  sort: SortOrder;
}

/** The range conditions (appended to `cond`) and the ORDER BY: tx_now with time bounds, tx_lt otherwise. */
export function txRangeAndOrder(f: TxRange, cond: Prisma.Sql[]): Prisma.Sql {
  // tx_now is int4: bounds past its range match nothing (lower) or everything (upper).
  if (f.startUtime !== undefined) cond.push(f.startUtime > I32_MAX ? Prisma.sql`false` : Prisma.sql`tx_now >= ${f.startUtime}::int`);
  if (f.endUtime !== undefined) cond.push(Prisma.sql`tx_now <= ${Math.min(f.endUtime, I32_MAX)}::int`);
  if (f.startLt !== undefined) cond.push(Prisma.sql`tx_lt >= ${clampLt(f.startLt)}`);
  if (f.endLt !== undefined) cond.push(Prisma.sql`tx_lt <= ${clampLt(f.endLt)}`);
  const dir = Prisma.raw(f.sort === 'asc' ? 'ASC' : 'DESC');
  const byTime = f.startUtime !== undefined || f.endUtime !== undefined;
  return byTime ? Prisma.sql`tx_now ${dir}, tx_lt ${dir}, tx_hash ${dir}` : Prisma.sql`tx_lt ${dir}, tx_hash ${dir}`;
}
