/**
 * The basechain's shard layout and how it changes: the masterchain's rules for ShardHashes (the
 * node's ShardConfig::may_update_shard_block_info and the collator's update of each shard's
 * ShardDescr, as validate-query checks them), and the devnet's schedule that makes shards want to
 * split and merge.
 *
 * A split: a shard block sets want_split; the masterchain block registering it announces
 * fsm_split (split_utime = now + split_merge_delay, for split_merge_interval seconds); the shard's
 * next block, made inside that window, has before_split, and the masterchain registers it with
 * before_split (and no fsm); the next round makes the two children (after_split, prev_blk_info =
 * the parent), which the masterchain registers together as a fork of the BinTree.
 * A merge: both siblings' blocks want_merge; the masterchain announces fsm_merge on both, and in a
 * later block (inside the window) sets before_merge on both; the next round makes one block of the
 * parent shard (after_merge, prev_blks_info = left and right), its catchain seqno one more than
 * theirs, registered as a leaf where the fork was.
 * Shards below min_split split without wanting to; above max_split they merge.
 */
import { beginCell, type Cell } from '@ton/core';
import {
  SHARD_ALL,
  shardChildren,
  shardDepth,
  shardParent,
  shardSibling,
  isRightChild,
  loadConfigDict,
  loadWorkchains,
  workchainsCell,
  type FutureSplitMerge,
  type ShardDescr,
  type SplitMergeTimings,
} from '../ton';
import { shardDescr, type ShardDescrInput } from './state';

/** DEVNET_SHARD_SCHEDULE: `off`, or `cycle:N` (every N masterchain blocks the shards alternately want to split and to merge back). */
export type ShardSchedule = { kind: 'off' } | { kind: 'cycle'; rounds: number };

export interface SplitLimits {
  minSplit: number;
  maxSplit: number;
}

/** The devnet's split/merge timings (ConfigParam 12): at once, for as long as the node allows. */
export const DEVNET_SPLIT_MERGE_TIMINGS: SplitMergeTimings = {
  splitMergeDelay: 0,
  splitMergeInterval: 1000,
  minSplitMergeInterval: 30,
  maxSplitMergeDelay: 1000,
};

/** min_split makes the chain reach `shards` shards; a schedule lets it go one level deeper and back. */
export function splitLimits(shards: number, schedule: ShardSchedule): SplitLimits {
  const minSplit = Math.log2(shards);
  if (!Number.isInteger(minSplit) || minSplit < 0 || minSplit > 3) throw new Error(`the devnet runs 1, 2, 4 or 8 basechain shards, not ${shards}`);
  return { minSplit, maxSplit: minSplit + (schedule.kind === 'cycle' ? 1 : 0) };
}

/** What a shard block of round `seqno` says it wants (want_split / want_merge in its header). */
export function scheduleWants(schedule: ShardSchedule, limits: SplitLimits, depth: number, seqno: number): { wantSplit: boolean; wantMerge: boolean } {
  if (schedule.kind === 'off') return { wantSplit: false, wantMerge: false };
  const growing = Math.floor(seqno / schedule.rounds) % 2 === 0;
  return { wantSplit: growing && depth < limits.maxSplit, wantMerge: !growing && depth > limits.minSplit };
}

/** One shard of the next round: the block it makes follows `prev` (itself, its parent, or its two children). */
export interface LayoutEntry {
  shard: bigint;
  prev: bigint[];
  afterSplit: boolean;
  afterMerge: boolean;
  /** gen_catchain_seqno of its block and next_catchain_seqno of its ShardDescr. */
  ccSeqno: number;
  /** The split/merge its ShardDescr announced (fsm_none for a shard that is new this round). */
  fsm: FutureSplitMerge;
}

/**
 * The shards of the round after a masterchain block with these leaves: a before_split leaf becomes
 * its two children, two before_merge siblings become their parent, any other leaf goes on.
 */
export function nextLayout(descrs: ReadonlyMap<bigint, ShardDescr>): LayoutEntry[] {
  const out: LayoutEntry[] = [];
  for (const [shard, d] of descrs) {
    if (d.beforeSplit) {
      for (const child of shardChildren(shard)) out.push({ shard: child, prev: [shard], afterSplit: true, afterMerge: false, ccSeqno: d.nextCatchainSeqno, fsm: { kind: 'none' } });
    } else if (d.beforeMerge) {
      if (isRightChild(shard)) continue; // the left sibling makes the entry
      const right = descrs.get(shardSibling(shard));
      if (!right?.beforeMerge) throw new Error(`shard ${shard.toString(16)} is before_merge without its sibling`);
      const ccSeqno = Math.max(d.nextCatchainSeqno, right.nextCatchainSeqno) + 1;
      out.push({ shard: shardParent(shard), prev: [shard, shardSibling(shard)], afterSplit: false, afterMerge: true, ccSeqno, fsm: { kind: 'none' } });
    } else {
      out.push({ shard, prev: [shard], afterSplit: false, afterMerge: false, ccSeqno: d.nextCatchainSeqno, fsm: d.splitMergeAt });
    }
  }
  return out.sort((a, b) => (a.shard < b.shard ? -1 : 1));
}

const windowEnd = (f: FutureSplitMerge) => (f.kind === 'split' ? f.splitUtime : f.kind === 'merge' ? f.mergeUtime : 0) + (f.kind === 'none' ? 0 : f.interval);
const windowStart = (f: FutureSplitMerge) => (f.kind === 'split' ? f.splitUtime : f.kind === 'merge' ? f.mergeUtime : 0);
const inWindow = (f: FutureSplitMerge, t: number) => f.kind !== 'none' && t >= windowStart(f) && t < windowEnd(f);

/** Whether a shard's block made at `genUtime` is the last before its split (its ShardDescr announced one). */
export function beforeSplitAt(entry: LayoutEntry, genUtime: number): boolean {
  return entry.fsm.kind === 'split' && inWindow(entry.fsm, genUtime);
}

/** What the masterchain learns of a new shard block (its header, hashes and fees), and where in the layout it is. */
export type ShardBlockFacts = Omit<ShardDescrInput, 'regMcSeqno' | 'shard' | 'ccSeqno' | 'splitMergeAt'> & {
  entry: LayoutEntry;
  beforeSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
};

/**
 * The ShardHashes leaves of workchain 0 after a masterchain block registering one new block of every
 * shard, with the split/merge decisions that block makes (announcements, before_merge).
 */
export function registerShardBlocks(
  old: ReadonlyMap<bigint, ShardDescr>,
  blocks: readonly ShardBlockFacts[],
  ctx: { mcSeqno: number; now: number; limits: SplitLimits; timings: SplitMergeTimings },
): Map<bigint, ShardDescr> {
  const next = new Map<bigint, ShardDescr>();
  for (const b of blocks) {
    const prev = old.get(b.entry.shard);
    // An announced split or merge carries over until it happens or its window passes.
    const inherited = prev && !b.entry.afterSplit && !b.entry.afterMerge && !b.beforeSplit && ctx.now < windowEnd(prev.splitMergeAt) ? prev.splitMergeAt : { kind: 'none' as const };
    next.set(b.entry.shard, shardDescrOf(b, ctx.mcSeqno, inherited));
  }
  for (const [shard, d] of next) decide(shard, d, next, ctx, old);
  return next;
}

function shardDescrOf(b: ShardBlockFacts, mcSeqno: number, fsm: FutureSplitMerge): ShardDescr {
  return shardDescr({ ...b, regMcSeqno: mcSeqno, shard: b.entry.shard, ccSeqno: b.entry.ccSeqno, splitMergeAt: fsm });
}

/** The collator's split/merge step for one leaf (the conditions validate-query's check_one_shard holds it to). */
function decide(
  shard: bigint,
  d: ShardDescr,
  leaves: Map<bigint, ShardDescr>,
  ctx: { now: number; limits: SplitLimits; timings: SplitMergeTimings },
  old: ReadonlyMap<bigint, ShardDescr>,
): void {
  const depth = shardDepth(shard);
  const { minSplit, maxSplit } = ctx.limits;
  const sibling = shard === SHARD_ALL ? undefined : leaves.get(shardSibling(shard));
  const splitCond = (d.wantSplit || depth < minSplit) && depth < maxSplit;
  const mergeCond =
    !d.beforeSplit && depth > minSplit && (d.wantMerge || depth > maxSplit) && !!sibling && !sibling.beforeSplit && (sibling.wantMerge || depth > maxSplit);
  const announce = (kind: 'split' | 'merge'): FutureSplitMerge => {
    const at = ctx.now + ctx.timings.splitMergeDelay;
    return kind === 'split' ? { kind, splitUtime: at, interval: ctx.timings.splitMergeInterval } : { kind, mergeUtime: at, interval: ctx.timings.splitMergeInterval };
  };
  if (d.splitMergeAt.kind === 'none') {
    if (d.beforeSplit) return;
    if (splitCond) d.splitMergeAt = announce('split');
    else if (mergeCond) d.splitMergeAt = announce('merge');
    return;
  }
  // A merge announced by an earlier block becomes before_merge on both siblings once both are ready.
  const announcedBefore = old.get(shard)?.splitMergeAt.kind === 'merge';
  if (d.splitMergeAt.kind === 'merge' && announcedBefore && mergeCond && sibling?.splitMergeAt.kind === 'merge' && inWindow(d.splitMergeAt, ctx.now)) {
    d.beforeMerge = true;
  } else if (d.splitMergeAt.kind === 'merge' && (!sibling || sibling.beforeSplit)) {
    // (An announcement stays until its window passes; only a merge without a sibling to merge with is dropped.)
    d.splitMergeAt = { kind: 'none' };
  }
}

/**
 * The configuration with the basechain's ConfigParam 12 entry set to the devnet's shard limits and
 * timings (the zero state of a devnet of several shards, or one whose shards split and merge).
 */
export function withShardLimits(config: Cell, limits: SplitLimits): Cell {
  const dict = loadConfigDict(config);
  const p12 = dict.get(12);
  const base = p12 && loadWorkchains(p12).get(0);
  if (!p12 || !base) throw new Error('the configuration has no basechain (ConfigParam 12)');
  const workchains = loadWorkchains(p12);
  workchains.set(0, {
    ...base,
    minSplit: limits.minSplit,
    maxSplit: limits.maxSplit,
    monitorMinSplit: Math.min(base.monitorMinSplit, limits.minSplit),
    v2: { timings: DEVNET_SPLIT_MERGE_TIMINGS, persistentStateSplitDepth: base.v2?.persistentStateSplitDepth ?? 0 },
  });
  dict.set(12, workchainsCell(workchains));
  return beginCell().storeDictDirect(dict).endCell();
}

/** The basechain's split limits and timings as a configuration holds them. */
export function configShardRules(config: Cell): { limits: SplitLimits; timings: SplitMergeTimings } {
  const p12 = loadConfigDict(config).get(12);
  const base = p12 && loadWorkchains(p12).get(0);
  if (!base) throw new Error('the configuration has no basechain (ConfigParam 12)');
  return {
    limits: { minSplit: base.minSplit, maxSplit: base.maxSplit },
    timings: base.v2?.timings ?? { splitMergeDelay: 100, splitMergeInterval: 100, minSplitMergeInterval: 30, maxSplitMergeDelay: 1000 },
  };
}
