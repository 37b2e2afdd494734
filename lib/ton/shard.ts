/**
 * Shard ids and the arithmetic of the shard tree (ton/ton-shard.h's rules, written from block.tlb's
 * ShardIdent and the node's documented semantics).
 *
 * A shard id is an unsigned 64-bit number: the shard's prefix bits, then a 1 (the tag bit), then
 * zeros. 0x8000000000000000 is the whole workchain; its children are 0x4000000000000000 (prefix "0")
 * and 0xc000000000000000 (prefix "1"), and so on down to 60 prefix bits. An account belongs to the
 * shard whose prefix its address starts with; the 64-bit "account prefix" of an address is the first
 * 64 bits of its 256-bit hash part.
 *
 * ShardIdent (shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64) stores the
 * prefix length and the prefix without the tag bit: shard 0x6000000000000000 is { bits: 2, prefix
 * 0x4000000000000000 }.
 */
import type { ShardIdent } from '@ton/core';

const U64 = (1n << 64n) - 1n;
/** The whole-workchain shard. */
export const SHARD_ALL = 0x8000000000000000n;
/** The whole-workchain shard (and so the masterchain's) as a signed 64-bit integer, as the lite client, v2 and the blocks table take it. */
export const MASTER_SHARD = -(2n ** 63n);
/** Deepest shard the node allows (ShardIdent's shard_pfx_bits:(#<= 60)). */
export const MAX_SHARD_DEPTH = 60;

/** The tag bit of a shard id (its lowest set bit). */
export function shardTag(shard: bigint): bigint {
  const s = BigInt.asUintN(64, shard);
  if (s === 0n) throw new Error('shard id 0 is invalid');
  return s & -s;
}

/** Number of prefix bits (0 for the whole workchain). */
export function shardDepth(shard: bigint): number {
  const tag = shardTag(shard);
  return 63 - (tag.toString(2).length - 1);
}

/** A valid shard id: a tag bit at depth 0..60. */
export function isShardId(shard: bigint): boolean {
  const s = BigInt.asUintN(64, shard);
  return s !== 0n && shardDepth(s) <= MAX_SHARD_DEPTH;
}

export function shardParent(shard: bigint): bigint {
  const s = BigInt.asUintN(64, shard);
  const tag = shardTag(s);
  if (tag === SHARD_ALL) throw new Error('the whole-workchain shard has no parent');
  return ((s - tag) | (tag << 1n)) & U64;
}

export function shardChild(shard: bigint, right: boolean): bigint {
  const s = BigInt.asUintN(64, shard);
  const half = shardTag(s) >> 1n;
  if (half === 0n) throw new Error('a shard at depth 63 has no children');
  return right ? s + half : s - half;
}

export function shardChildren(shard: bigint): [bigint, bigint] {
  return [shardChild(shard, false), shardChild(shard, true)];
}

export function shardSibling(shard: bigint): bigint {
  const s = BigInt.asUintN(64, shard);
  const tag = shardTag(s);
  if (tag === SHARD_ALL) throw new Error('the whole-workchain shard has no sibling');
  return s ^ (tag << 1n);
}

export function isRightChild(shard: bigint): boolean {
  const s = BigInt.asUintN(64, shard);
  return (s & (shardTag(s) << 1n)) !== 0n;
}

/** Whether the shard holds the account prefix (or a shard id used as one: the node's lookups do that). */
export function shardContains(shard: bigint, accountPrefix: bigint): boolean {
  const s = BigInt.asUintN(64, shard);
  const above = ~((shardTag(s) << 1n) - 1n) & U64;
  return ((s ^ BigInt.asUintN(64, accountPrefix)) & above) === 0n;
}

/** `ancestor` is `shard` itself or one of its ancestors. */
export function shardIsAncestor(ancestor: bigint, shard: bigint): boolean {
  return shardTag(ancestor) >= shardTag(shard) && shardContains(ancestor, shard);
}

export function shardsIntersect(a: bigint, b: bigint): boolean {
  return shardIsAncestor(a, b) || shardIsAncestor(b, a);
}

/** The first 64 bits of an address's hash part. */
export function accountPrefix(hash: Buffer | Uint8Array): bigint {
  return Buffer.from(hash.buffer, hash.byteOffset, 8).readBigUInt64BE(0);
}

/** ShardIdent of a shard id (prefix without the tag bit). */
export function shardIdentOf(workchain: number, shard: bigint): ShardIdent {
  const s = BigInt.asUintN(64, shard);
  return { workchainId: workchain, shardPrefixBits: shardDepth(s), shardPrefix: s - shardTag(s) };
}

/** The shard of `shards` (a partition of a workchain) holding an account prefix. */
export function shardOf(shards: Iterable<bigint>, prefix: bigint): bigint | undefined {
  for (const s of shards) if (shardContains(s, prefix)) return s;
  return undefined;
}

/** Lower-case hex of a shard id, 16 digits (how the node and block ids print it). */
export function shardHex(shard: bigint): string {
  return BigInt.asUintN(64, shard).toString(16).padStart(16, '0');
}

/** An address as (workchain, 64-bit prefix): what message routing works on. */
export interface AddrPrefix {
  workchain: number;
  prefix: bigint;
}

/**
 * The address `d` bits of the way from `src` to `dest` (the node's interpolate_addr): the first d of
 * the 96 bits workchain:int32 ‖ prefix:uint64 come from `dest`, the rest from `src`.
 */
export function interpolateAddr(src: AddrPrefix, dest: AddrPrefix, d: number): AddrPrefix {
  if (d <= 0) return src;
  if (d >= 96) return dest;
  if (d >= 32) {
    const low = U64 >> BigInt(d - 32);
    return { workchain: dest.workchain, prefix: (dest.prefix & ~low & U64) | (src.prefix & low) };
  }
  const low = (1n << BigInt(32 - d)) - 1n;
  const wc = (BigInt.asUintN(32, BigInt(dest.workchain)) & ~low) | (BigInt.asUintN(32, BigInt(src.workchain)) & low);
  return { workchain: Number(BigInt.asIntN(32, wc)), prefix: src.prefix };
}

/**
 * Where a new message of shard `cur` (workchain `cur.workchain`) goes first: the use_dest_bits of its
 * envelope's cur_addr and next_addr under hypercube routing. The next hop changes the first
 * differing hexadecimal digit of the current address to the destination's, skipping digits that
 * keep it inside the current shard; a destination inside the current shard is reached at once (96).
 * Mainnet's basechain shards route this way: a message between two of them has cur 32, next 36.
 */
export function hypercubeRoute(src: AddrPrefix, dest: AddrPrefix, cur: { workchain: number; shard: bigint }): { cur: number; next: number } {
  const transit = src;
  if (transit.workchain !== cur.workchain || !shardContains(cur.shard, transit.prefix)) {
    throw new Error('hypercube routing: the source is not in the current shard');
  }
  if (transit.workchain !== dest.workchain) return { cur: 0, next: 32 };
  if (transit.prefix === dest.prefix || shardContains(cur.shard, dest.prefix)) return { cur: 96, next: 96 };
  const tag = shardTag(cur.shard);
  const lo = BigInt.asUintN(64, cur.shard) - tag;
  const hi = (BigInt.asUintN(64, cur.shard) | (tag - 1n)) & U64;
  const diff = transit.prefix ^ dest.prefix;
  // Whole hex digits that already agree, then one more digit at a time until the hop leaves `cur`.
  let i = (64 - diff.toString(2).length) & ~3;
  let hop: bigint;
  do {
    i += 4;
    const keep = i >= 64 ? 0n : U64 >> BigInt(i);
    hop = transit.prefix ^ (diff & ~keep & U64);
  } while (hop >= lo && hop <= hi);
  return { cur: 28 + i, next: 32 + i };
}

/** Every shard id (depth 0 to 60) that holds an account prefix: the lineage a lookup by prefix searches. */
export function shardsHolding(prefix: bigint): bigint[] {
  const p = BigInt.asUintN(64, prefix);
  const out: bigint[] = [];
  for (let depth = 0; depth <= MAX_SHARD_DEPTH; depth++) {
    const tag = 1n << BigInt(63 - depth);
    out.push((p & ~((tag << 1n) - 1n) & U64) | tag);
  }
  return out;
}
