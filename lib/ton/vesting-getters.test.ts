// get_whitelist's cons list read into addresses, whatever its length, and stacks that are no whitelist refused.
import { Address, type TupleItem } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { readWhitelist } from './vesting-getters';

const a = new Address(0, Buffer.alloc(32, 0xab));
const b = new Address(-1, Buffer.alloc(32, 0x01));
const pair = (x: Address): TupleItem => ({ type: 'tuple', items: [{ type: 'int', value: BigInt(x.workChain) }, { type: 'int', value: BigInt('0x' + x.hash.toString('hex')) }] });
const cons = (...xs: Address[]): TupleItem => xs.reduceRight<TupleItem>((tail, x) => ({ type: 'tuple', items: [pair(x), tail] }), { type: 'null' });

describe('readWhitelist', () => {
  it('reads an empty, a one-address and a two-address list, and a flat tuple of pairs', () => {
    expect(readWhitelist([cons()])).toEqual([]);
    expect(readWhitelist([cons(a)]).map(String)).toEqual([a.toString()]);
    expect(readWhitelist([cons(a, b)]).map(String)).toEqual([a.toString(), b.toString()]);
    expect(readWhitelist([{ type: 'tuple', items: [pair(b), pair(a), pair(b)] }]).map(String)).toEqual([b, a, b].map(String));
  });

  it('refuses what is not a list of [workchain, hash] pairs', () => {
    expect(() => readWhitelist([])).toThrow();
    expect(() => readWhitelist([{ type: 'int', value: 1n }])).toThrow();
    expect(() => readWhitelist([{ type: 'tuple', items: [{ type: 'int', value: 1n }] }])).toThrow();
  });
});
