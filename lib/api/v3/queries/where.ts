// WHERE pieces the token query modules share.
import { Prisma } from '../../../db/generated/client';

/** `WHERE a AND b …`, or nothing when there are no conditions. */
export const where = (cond: Prisma.Sql[]): Prisma.Sql => (cond.length ? Prisma.sql`WHERE ${Prisma.join(cond, ' AND ')}` : Prisma.empty);

/**
 * `column` is one of `values` (text). One value is written as an equality: the planner then knows the
 * column is fixed and reads a (column, order…) index in the page's order, either direction, instead of
 * sorting every row of that value (it does not see a one-element ANY as fixing the column).
 */
export const oneOf = (column: string, values: string[]): Prisma.Sql =>
  values.length === 1 ? Prisma.sql`${Prisma.raw(column)} = ${values[0]}` : Prisma.sql`${Prisma.raw(column)} = ANY(${values}::text[])`;
