import { beginCell, type TupleItem } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { V2Error } from './errors';
import { legacyEntry, MAX_STACK_DEPTH, parseLegacyEntry, parseTypedEntry, typedEntry } from './stack';

const num = (n: number): TupleItem => ({ type: 'int', value: BigInt(n) });
const typedNum = (n: number) => ({ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: String(n) } });

describe('legacy stack entries', () => {
  it('numbers: decimal, hex and negative hex in; lowercase 0x out', () => {
    expect(parseLegacyEntry(['num', '-0x1F'], 's')).toEqual({ type: 'int', value: -31n });
    expect(parseLegacyEntry(['integer', 12345678901234567890n], 's')).toEqual({ type: 'int', value: 12345678901234567890n });
    expect(legacyEntry({ type: 'int', value: 255n })).toEqual(['num', '0xff']);
    expect(legacyEntry({ type: 'int', value: 0n })).toEqual(['num', '0x0']);
    expect(legacyEntry({ type: 'int', value: -(2n ** 256n) })).toEqual(['num', `-0x1${'0'.repeat(64)}`]);
  });

  it('a list goes in as nested pairs and comes out flattened; null is the empty list', () => {
    const list = parseLegacyEntry(['list', { '@type': 'tvm.list', elements: [typedNum(1), typedNum(2)] }], 's');
    expect(list).toEqual({ type: 'tuple', items: [num(1), { type: 'tuple', items: [num(2), { type: 'null' }] }] });
    expect(legacyEntry(list)).toEqual(['list', { '@type': 'tvm.list', elements: [typedNum(1), typedNum(2)] }]);
    expect(legacyEntry({ type: 'null' })).toEqual(['list', { '@type': 'tvm.list', elements: [] }]);
  });

  it('a tuple keeps its shape, with typed entries inside', () => {
    const cell = beginCell().storeUint(5, 8).endCell();
    const tuple: TupleItem = { type: 'tuple', items: [num(1), { type: 'cell', cell }, { type: 'tuple', items: [num(2), num(3), num(4)] }] };
    const out = legacyEntry(tuple) as [string, { elements: unknown[] }];
    expect(out[0]).toBe('tuple');
    expect(out[1].elements[1]).toEqual({ '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: cell.toBoc().toString('base64') } });
    expect(out[1].elements[2]).toMatchObject({ '@type': 'tvm.stackEntryTuple', tuple: { elements: [typedNum(2), typedNum(3), typedNum(4)] } });
    expect(typedEntry(parseLegacyEntry(['tuple', out[1]], 's'))).toEqual(typedEntry(tuple));
  });

  it('a cell object carries data bytes, bit length and refs', () => {
    const cell = beginCell().storeUint(0b101, 3).storeRef(beginCell().storeUint(0xab, 8)).endCell();
    const [, value] = legacyEntry({ type: 'slice', cell }) as [string, { object: unknown }];
    expect(value.object).toEqual({
      data: { b64: Buffer.from([0b10100000]).toString('base64'), len: 3 },
      refs: [{ data: { b64: Buffer.from([0xab]).toString('base64'), len: 8 }, refs: [], special: false }],
      special: false,
    });
  });

  it('refuses results nested deeper than the limit with 533', () => {
    let deep: TupleItem = num(0);
    for (let i = 0; i <= MAX_STACK_DEPTH + 1; i++) deep = { type: 'tuple', items: [deep] };
    expect(() => legacyEntry(deep)).toThrow(expect.objectContaining({ code: 533 }));
  });

  it('input errors are 422, unknown types 542', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as V2Error).code;
      }
    };
    expect(code(() => parseLegacyEntry('num', 's'))).toBe(422);
    expect(code(() => parseLegacyEntry(['num', 1.5], 's'))).toBe(422);
    expect(code(() => parseLegacyEntry(['cell', {}], 's'))).toBe(422);
    expect(code(() => parseLegacyEntry(['tuple', { elements: 'x' }], 's'))).toBe(422);
    expect(code(() => parseLegacyEntry(['float', 1], 's'))).toBe(542);
    expect(code(() => parseTypedEntry({ '@type': 'tvm.stackEntryFloat' }, 's'))).toBe(542);
  });

  it('typed entries round-trip', () => {
    const cell = beginCell().storeUint(1, 1).endCell();
    for (const item of [num(-5), { type: 'cell', cell }, { type: 'slice', cell }] as TupleItem[]) {
      expect(typedEntry(parseTypedEntry(typedEntry(item), 's'))).toEqual(typedEntry(item));
    }
  });
});
