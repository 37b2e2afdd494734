import { describe, expect, it } from 'vitest';
import { SHARD_ALL, shardDepth, shardIsAncestor, type ShardDescr } from '../ton';
import {
  DEVNET_SPLIT_MERGE_TIMINGS,
  beforeSplitAt,
  nextLayout,
  registerShardBlocks,
  scheduleWants,
  splitLimits,
  type ShardSchedule,
} from './shard-config';
import { shardDescr } from './state';

const zeroDescr = (): ShardDescr =>
  shardDescr({ seqno: 0, regMcSeqno: 0, startLt: 0n, endLt: 0n, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32), genUtime: 0, minRefMcSeqno: 0, feesCollected: { coins: 0n } });

/**
 * Rounds of the devnet's lockstep (every shard one block per masterchain block), checking each
 * transition against the rules validate-query holds a masterchain block to.
 */
function run(shards: number, schedule: ShardSchedule, rounds: number) {
  const limits = splitLimits(shards, schedule);
  let descrs = new Map([[SHARD_ALL, zeroDescr()]]);
  const history: { seqno: number; shards: bigint[]; descrs: Map<bigint, ShardDescr> }[] = [];
  for (let seqno = 1; seqno <= rounds; seqno++) {
    const now = 1000 + seqno * 2;
    const layout = nextLayout(descrs);
    const facts = layout.map((entry) => {
      const seqnos = entry.prev.map((p) => descrs.get(p)!.seqno);
      const beforeSplit = beforeSplitAt(entry, now);
      return {
        entry,
        seqno: Math.max(...seqnos) + 1,
        startLt: BigInt(seqno) * 1_000_000n,
        endLt: BigInt(seqno) * 1_000_000n + 1n,
        rootHash: Buffer.alloc(32, seqno),
        fileHash: Buffer.alloc(32, seqno),
        genUtime: now,
        minRefMcSeqno: seqno - 1,
        beforeSplit,
        ...scheduleWants(schedule, limits, shardDepth(entry.shard), seqno),
        feesCollected: { coins: 0n },
      };
    });
    const next = registerShardBlocks(descrs, facts, { mcSeqno: seqno, now, limits, timings: DEVNET_SPLIT_MERGE_TIMINGS });
    checkTransition(descrs, next, now);
    descrs = next;
    history.push({ seqno, shards: [...next.keys()].sort((a, b) => (a < b ? -1 : 1)), descrs: next });
  }
  return history;
}

function checkTransition(old: Map<bigint, ShardDescr>, next: Map<bigint, ShardDescr>, now: number) {
  // The leaves partition the workchain.
  const width = [...next.keys()].reduce((sum, s) => sum + 2 ** (60 - shardDepth(s)), 0);
  expect(width).toBe(2 ** 60);
  for (const [shard, d] of next) {
    expect(d.nextValidatorShard).toBe(shard);
    const before = old.get(shard);
    const parent = [...old.keys()].find((s) => s !== shard && shardIsAncestor(s, shard));
    const children = [...old.keys()].filter((s) => s !== shard && shardIsAncestor(shard, s));
    if (before) {
      // A before_split block needs an announced split whose window holds its time.
      if (d.beforeSplit) expect(before.splitMergeAt.kind).toBe('split');
      expect(d.nextCatchainSeqno).toBe(before.nextCatchainSeqno);
    } else if (parent !== undefined) {
      expect(old.get(parent)!.beforeSplit).toBe(true);
      expect(d.beforeSplit).toBe(false); // a shard just split cannot have before_split yet
      expect(d.nextCatchainSeqno).toBe(old.get(parent)!.nextCatchainSeqno);
    } else {
      expect(children).toHaveLength(2);
      for (const c of children) expect(old.get(c)!.beforeMerge).toBe(true);
      expect(d.nextCatchainSeqno).toBe(Math.max(...children.map((c) => old.get(c)!.nextCatchainSeqno)) + 1);
    }
    if (d.splitMergeAt.kind !== 'none') {
      const start = d.splitMergeAt.kind === 'split' ? d.splitMergeAt.splitUtime : d.splitMergeAt.mergeUtime;
      expect(start).toBeGreaterThanOrEqual(before?.splitMergeAt.kind === d.splitMergeAt.kind ? 0 : now);
      expect(d.splitMergeAt.interval).toBeGreaterThanOrEqual(30);
    }
    if (d.beforeMerge) expect(d.splitMergeAt.kind).toBe('merge');
  }
}

describe('the basechain shard layout', () => {
  it('stays one shard with no schedule', () => {
    const h = run(1, { kind: 'off' }, 10);
    expect(h.every((r) => r.shards.length === 1 && r.shards[0] === SHARD_ALL)).toBe(true);
    expect(splitLimits(1, { kind: 'off' })).toEqual({ minSplit: 0, maxSplit: 0 });
  });

  it('splits the zero state down to min_split (4 shards) and stays there', () => {
    const h = run(4, { kind: 'off' }, 12);
    expect(h.at(-1)!.shards).toEqual([0x2000000000000000n, 0x6000000000000000n, 0xa000000000000000n, 0xe000000000000000n]);
    // announce (1), before_split (2), children (3); then the same one level down.
    expect(h.map((r) => r.shards.length).slice(0, 6)).toEqual([1, 1, 2, 2, 4, 4]);
    expect(h[1].descrs.get(SHARD_ALL)!.beforeSplit).toBe(true);
  });

  it('goes one level deeper and back on a cycle, merging with catchain seqno + 1', () => {
    const h = run(2, { kind: 'cycle', rounds: 10 }, 45);
    const counts = h.map((r) => r.shards.length);
    expect(Math.max(...counts)).toBe(4);
    expect(Math.min(...counts.slice(5))).toBe(2);
    const merged = h.findIndex((r, i) => i > 0 && r.shards.length < h[i - 1].shards.length);
    expect(merged).toBeGreaterThan(0);
    for (const [shard, d] of h[merged].descrs) if (!h[merged - 1].descrs.has(shard)) expect(d.nextCatchainSeqno).toBe(1);
    // Merges come back after the next growing phase.
    expect(counts.slice(merged + 1).some((c) => c === 4)).toBe(true);
  });

  it('refuses a shard count that is not a power of two up to 8', () => {
    expect(() => splitLimits(3, { kind: 'off' })).toThrow(/1, 2, 4 or 8/);
    expect(() => splitLimits(16, { kind: 'off' })).toThrow();
  });
});
