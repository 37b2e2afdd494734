import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseJsonBody } from './json-body';
import { bool, int32, int64, list } from './params';

describe('JSON bodies keep 64-bit integers exact', () => {
  it('reads -2^63 as a bigint and small numbers as numbers', () => {
    const body = parseJsonBody('{"shard": -9223372036854775808, "seqno": 5, "lt": "47000000000001"}', 'post') as Record<string, unknown>;
    expect(body.shard).toBe(-9223372036854775808n);
    expect(body.seqno).toBe(5);
    expect(int64().parse(body.shard)).toBe(-(2n ** 63n));
    expect(int64().parse(body.lt)).toBe(47000000000001n);
  });
});

describe('parameter types', () => {
  it('int32 accepts numbers and plain decimal strings only', () => {
    expect(int32().parse('42')).toBe(42);
    expect(int32().parse(-7)).toBe(-7);
    for (const bad of ['0x10', '1.5', 1.5, '', 'abc', '1e3', 2 ** 31]) expect(int32().safeParse(bad).success).toBe(false);
  });

  it('int64 covers the full signed range', () => {
    expect(int64().parse('9223372036854775807')).toBe(2n ** 63n - 1n);
    expect(int64().safeParse('9223372036854775808').success).toBe(false);
  });

  it('bool follows the toncenter spellings', () => {
    for (const t of ['1', 'true', 'YES', 'on', 't', true, 3]) expect(bool().parse(t)).toBe(true);
    for (const f of ['0', 'false', 'No', 'off', 'f', false, 0]) expect(bool().parse(f)).toBe(false);
    expect(bool().safeParse('maybe').success).toBe(false);
  });

  it('a list takes one value or many', () => {
    const s = z.object({ xs: list(z.string()).optional() });
    expect(s.parse({ xs: 'a' })).toEqual({ xs: ['a'] });
    expect(s.parse({ xs: ['a', 'b'] })).toEqual({ xs: ['a', 'b'] });
    expect(s.parse({})).toEqual({});
  });
});
