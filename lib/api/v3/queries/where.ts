// WHERE pieces the token query modules share.
import { Prisma } from '../../../db/generated/client';
import type { Page } from '../params';

/** `WHERE a AND b …`, or nothing when there are no conditions. */
export const where = (cond: Prisma.Sql[]): Prisma.Sql => (cond.length ? Prisma.sql`WHERE ${Prisma.join(cond, ' AND ')}` : Prisma.empty);

/**
 * `column` is one of `values` (text). One value is written as an equality: the planner then knows the
 * column is fixed and may read a (column, order…) index in the page's order, either direction, instead of
 * sorting every row of that value (it does not see a one-element ANY as fixing the column). A page keyed
 * by that column pins it instead (below): fixed, the column leaves the order, and another index of the
 * order's columns may look cheaper.
 */
export const oneOf = (column: string, values: readonly string[]): Prisma.Sql =>
  values.length === 1 ? Prisma.sql`${Prisma.raw(column)} = ${values[0]}` : Prisma.sql`${Prisma.raw(column)} = ANY(${values}::text[])`;

/**
 * `column` fixed to one value in a way the planner keeps in a page's order: a range of that one value,
 * where `column = value` would let it drop the column from the ORDER BY (it is fixed) and read the page off
 * an index of the order's other columns alone, filtering every row of other keys on the way — a key whose
 * rows lie far down that index (an NFT item with old transfers, the small holders of a jetton among big
 * ones) cost milliseconds to seconds. With the column leading the ORDER BY, the page is read off the key's
 * own (column, …) index.
 */
export const pinned = (column: string, value: string): Prisma.Sql => Prisma.sql`${Prisma.raw(column)} BETWEEN ${value} AND ${value}`;

/** A filter on a column a page may be keyed by (a (column, order…) index): the column and the values it may take. */
export type KeyFilter = readonly [column: string, values: readonly string[] | undefined];

/**
 * The filters' conditions, pushed onto `cond`: with `keyed`, the first filter of one value is the page's
 * key, pinned (its column is returned, for the caller to lead the ORDER BY with); every other one is oneOf.
 */
export function keyFilters(cond: Prisma.Sql[], filters: readonly KeyFilter[], keyed: boolean): string | undefined {
  const key = keyed ? filters.find(([, values]) => values?.length === 1) : undefined;
  for (const filter of filters) {
    const [column, values] = filter;
    if (filter === key) cond.push(pinned(column, values![0]!));
    else if (values?.length) cond.push(oneOf(column, values));
  }
  return key?.[0];
}

/**
 * One page of the rows of `from` (`SELECT … FROM table`) where `cond` holds and either of `either` does
 * (a transfer's sender or receiver), in `order`: the union of each side's own first offset + limit rows,
 * each read off its (column, order…) index, then paged. As `(a OR b)` the planner reads every row of both
 * sides (a busy owner's whole history) and sorts them. The page is exact: a row among the first
 * offset + limit of either side's rows is among the first offset + limit of its own side. UNION drops the
 * second copy of a row both sides hold (a transfer to oneself).
 */
export function pageOfEither(from: Prisma.Sql, cond: Prisma.Sql[], either: [Prisma.Sql, Prisma.Sql], order: Prisma.Sql, page: Page): Prisma.Sql {
  const side = (c: Prisma.Sql) => Prisma.sql`(${from} ${where([...cond, c])} ORDER BY ${order} LIMIT ${page.take + page.skip})`;
  return Prisma.sql`SELECT * FROM (${side(either[0])} UNION ${side(either[1])}) either_side ORDER BY ${order} LIMIT ${page.take} OFFSET ${page.skip}`;
}
