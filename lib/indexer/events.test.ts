// The shard watcher announces a shard block only while it is ahead of the index: a block a poll found
// before the index committed it, announced after, would send its traces confirmed after the stream had
// sent them finalized (a finality going down; a trace page's badge stuck below finalized).
import { describe, expect, it } from 'vitest';
import type { LiteClient } from 'ton-lite-client';
import type { ParsedBlock } from '../chain/records';
import { log } from '../log';
import { committedBy, ShardWatcher } from './events';
import type { FullBlockId } from './follower';

const ALL = 0x8000000000000000n;
const LEFT = 0x4000000000000000n;
const RIGHT = 0xc000000000000000n;
const id = (shard: bigint, seqno: number, workchain = 0): FullBlockId => ({ workchain, shard, seqno, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) });

describe('committedBy', () => {
  it('holds at or below a top of the same shard, not above it, not in another workchain', () => {
    const tops = [id(ALL, 10)];
    expect(committedBy(tops, id(ALL, 9))).toBe(true);
    expect(committedBy(tops, id(ALL, 10))).toBe(true);
    expect(committedBy(tops, id(ALL, 11))).toBe(false);
    expect(committedBy(tops, id(ALL, 5, 1))).toBe(false);
  });

  it('follows splits and merges: an overlapping shard’s block at or below the top is committed', () => {
    // After a split at parent seqno 10 the children start at 11.
    const split = [id(LEFT, 12), id(RIGHT, 11)];
    expect(committedBy(split, id(ALL, 10))).toBe(true);
    expect(committedBy(split, id(LEFT, 13))).toBe(false);
    expect(committedBy(split, id(RIGHT, 12))).toBe(false);
    // After a merge of children at 12 and 11 the merged shard starts at 13.
    const merged = [id(ALL, 13)];
    expect(committedBy(merged, id(LEFT, 12))).toBe(true);
    expect(committedBy(merged, id(RIGHT, 14))).toBe(false);
  });
});

describe('ShardWatcher.announce', () => {
  const watcher = () => {
    const seen: number[] = [];
    // announce never reads the lite server (only a poll does).
    const w = new ShardWatcher({ client: null as unknown as LiteClient, fetch: () => Promise.reject(new Error('unused')), onSeen: (s) => seen.push(s.id.seqno), log });
    return { w, seen };
  };
  const block = {} as ParsedBlock;

  it('announces a block ahead of the committed tops once', () => {
    const { w, seen } = watcher();
    w.committed(5, [id(ALL, 10)]);
    w.announce(id(ALL, 11), block);
    w.announce(id(ALL, 11), block);
    expect(seen).toEqual([11]);
  });

  it('drops a block announced after the masterchain block registering it was committed (a poll’s late download)', () => {
    const { w, seen } = watcher();
    w.committed(5, [id(ALL, 10)]);
    // The index commits blocks 11 and 12 while a poll that started at top 10 is still downloading them.
    w.committed(6, [id(ALL, 12)]);
    w.announce(id(ALL, 11), block);
    w.announce(id(ALL, 12), block);
    w.announce(id(ALL, 13), block);
    expect(seen).toEqual([13]);
  });
});
