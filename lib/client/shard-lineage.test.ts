import { describe, expect, it } from 'vitest';
import { shardChildrenHex, shardParentHex, shardPrefixBits, successorQueries } from './shard-lineage';

describe('a shard block\'s place in the shard tree', () => {
  it('names parents, children and the address prefix a shard holds', () => {
    expect(shardChildrenHex('8000000000000000')).toEqual(['4000000000000000', 'C000000000000000']);
    expect(shardChildrenHex('6000000000000000')).toEqual(['5000000000000000', '7000000000000000']);
    expect(shardParentHex('6000000000000000')).toBe('4000000000000000');
    expect(shardParentHex('8000000000000000')).toBeNull();
    expect(shardPrefixBits('8000000000000000')).toBe('');
    expect(shardPrefixBits('6000000000000000')).toBe('01');
    expect(shardPrefixBits('E800000000000000')).toBe('1110');
  });

  it('asks for the next block of the shard, both halves after a split, the merged block otherwise', () => {
    const b = { workchain: 0, shard: '6000000000000000', seqno: 41, end_lt: '42000005', before_split: false };
    expect(successorQueries(b)).toEqual({
      same: { workchain: 0, shard: '6000000000000000', seqno: 42, limit: 1 },
      children: [],
      parent: { workchain: 0, shard: '4000000000000000', start_lt: '42000006', sort: 'asc', limit: 1 },
    });
    const splitting = successorQueries({ ...b, before_split: true });
    expect(splitting.children.map((c) => c.shard)).toEqual(['5000000000000000', '7000000000000000']);
    expect(splitting.parent).toBeNull();
    expect(successorQueries({ ...b, shard: '8000000000000000' }).parent).toBeNull();
    expect(successorQueries({ ...b, workchain: -1, shard: '8000000000000000' }).parent).toBeNull();
  });
});
