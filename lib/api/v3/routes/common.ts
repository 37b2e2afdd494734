// Pieces several routes share: bounds on uint64 inputs, the masterchain-block existence check, the owner
// filter of the transfer routes.
import type { SqlReader } from '../../../db/sql';
import { notFound, unprocessable } from '../errors';
import { masterchainBlockExists } from '../queries/blocks';

const I64_MAX = 2n ** 63n - 1n;

/** lt inputs are uint64; the index stores int8, and no lt reaches 2^63, so larger bounds mean "any". */
export const clampLt = (n: bigint): bigint => (n > I64_MAX ? I64_MAX : n);

/** A query's utime and lt bounds (utimeParams, ltParams) as the query modules take them, lts clamped. */
export const bounds = (q: { start_utime?: number; end_utime?: number; start_lt?: bigint; end_lt?: bigint }) => ({
  startUtime: q.start_utime,
  endUtime: q.end_utime,
  startLt: q.start_lt === undefined ? undefined : clampLt(q.start_lt),
  endLt: q.end_lt === undefined ? undefined : clampLt(q.end_lt),
});

/** 404 unless masterchain block `seqno` is indexed (the routes that filter by mc_seqno). */
export async function requireMasterchainBlock(sql: SqlReader, seqno: number): Promise<void> {
  if (!(await masterchainBlockExists(sql, seqno))) throw notFound(`masterchain block ${seqno} not found`);
}

/** Which side of a transfer an owner filter matches (jetton and NFT transfers). */
export const DIRECTIONS = ['in', 'out', 'both'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/**
 * The owner filter of a transfers route: owner_address, or its single alias `address`, and the side it is
 * on. [quirk] toncenter does not check direction (anything but `in` means the sender); a typo is a 422 here.
 */
export function ownerSide(q: { owner_address?: string[]; address?: string; direction?: string }): { owner: string[] | undefined; direction: Direction | undefined } {
  if (q.direction !== undefined && !(DIRECTIONS as readonly string[]).includes(q.direction)) throw unprocessable('direction should be one of: in, out, both');
  return { owner: q.owner_address?.length ? q.owner_address : q.address ? [q.address] : undefined, direction: q.direction as Direction | undefined };
}
