import { BitReader, BitString, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { installFastBitReader } from './fast-bit-reader';
import { BLOCK_FIXTURES, fixtureBytes } from '../testing/fixtures';

type Readers = { _preloadUint(bits: number, offset: number): bigint; _preloadInt(bits: number, offset: number): bigint };
const proto = BitReader.prototype as unknown as Readers;
const original = { uint: proto._preloadUint, int: proto._preloadInt };

const outcome = (f: () => bigint) => {
  try {
    return f();
  } catch (err) {
    return (err as Error).message;
  }
};

describe('installFastBitReader', () => {
  it("reads the same integers and throws the same errors as @ton/core's bit-at-a-time readers", () => {
    const data = Buffer.from(Array.from({ length: 18 }, (_, i) => (i * 151 + 29) & 0xff));
    expect(installFastBitReader()).toBe(true);
    const fast = { uint: proto._preloadUint, int: proto._preloadInt };
    expect(fast.uint).not.toBe(original.uint);
    for (const start of [0, 3, 8]) {
      const bits = new BitString(data, start, data.length * 8 - start - 5);
      const reader = new BitReader(bits) as unknown as Readers;
      for (let offset = 0; offset <= 20; offset++) {
        for (let n = 0; n <= bits.length - offset + 2; n++) {
          expect(outcome(() => fast.uint.call(reader, n, offset))).toEqual(outcome(() => original.uint.call(reader, n, offset)));
          expect(outcome(() => fast.int.call(reader, n, offset))).toEqual(outcome(() => original.int.call(reader, n, offset)));
        }
      }
    }
  });

  it('reads every cell of a real block exactly as before', () => {
    const root = Cell.fromBoc(fixtureBytes(BLOCK_FIXTURES.shard71398501))[0]!;
    // every cell of the block, read through the patched reader, against the original one
    const seen = new Set<string>();
    const walk = (c: Cell) => {
      const key = c.hash().toString('hex');
      if (seen.has(key)) return;
      seen.add(key);
      if (c.bits.length >= 64 && !c.isExotic) {
        const r = new BitReader(c.bits) as unknown as Readers;
        expect(proto._preloadUint.call(r, 64, 0)).toBe(original.uint.call(r, 64, 0));
        expect(proto._preloadInt.call(r, c.bits.length, 0)).toBe(original.int.call(r, c.bits.length, 0));
      }
      c.refs.forEach(walk);
    };
    installFastBitReader();
    walk(root);
    expect(seen.size).toBeGreaterThan(1000);
  });
});
