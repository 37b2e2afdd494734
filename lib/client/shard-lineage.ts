/**
 * Where a shard block sits in the shard tree, for the block page: its shard's prefix, and the blocks
 * that follow it — its shard's next block, both children after a split, the parent after a merge —
 * as `blocks` queries. Shards are the 16-digit hex of v3 block ids.
 */
import { SHARD_ALL, shardChildren, shardDepth, shardHex, shardParent, shardTag } from '../ton/shard';

const toId = (hex: string) => BigInt.asUintN(64, BigInt('0x' + hex));
/** v3's spelling of a shard: upper-case hex. */
const toHex = (s: bigint) => shardHex(s).toUpperCase();

export function shardChildrenHex(hex: string): [string, string] {
  const [left, right] = shardChildren(toId(hex));
  return [toHex(left), toHex(right)];
}

/** The parent shard's hex, or null for the whole workchain. */
export function shardParentHex(hex: string): string | null {
  const s = toId(hex);
  return s === SHARD_ALL ? null : toHex(shardParent(s));
}

/** The address prefix a shard holds, as bits ('' for the whole workchain). */
export function shardPrefixBits(hex: string): string {
  const s = toId(hex);
  const depth = shardDepth(s);
  return depth === 0 ? '' : ((s - shardTag(s)) >> BigInt(64 - depth)).toString(2).padStart(depth, '0');
}

interface BlockRef {
  workchain: number;
  shard: string;
  seqno: number;
  end_lt: string;
  before_split: boolean;
}

/**
 * The `blocks` queries for what may follow a block: the same shard's next seqno; after a before_split
 * block, each child's next seqno; and the parent shard's first block after it (a merge; the page
 * keeps it only when its prev_blocks name this block).
 */
export function successorQueries(b: BlockRef) {
  const next = (shard: string) => ({ workchain: b.workchain, shard, seqno: b.seqno + 1, limit: 1 });
  const parent = b.workchain === -1 ? null : shardParentHex(b.shard);
  return {
    same: next(b.shard),
    children: b.before_split ? shardChildrenHex(b.shard).map(next) : [],
    parent: parent && !b.before_split ? { workchain: b.workchain, shard: parent, start_lt: String(BigInt(b.end_lt) + 1n), sort: 'asc' as const, limit: 1 } : null,
  };
}
