import { BitBuilder, BitString, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { installFastBitBuilder } from './fast-bit-builder';
import { BLOCK_FIXTURES, fixtureBytes } from '../testing/fixtures';

const original = (BitBuilder.prototype as unknown as { writeBits: (src: BitString) => void }).writeBits;

/** A builder holding `pre` bits (some set), then `src` written by `write`. */
function written(write: (this: BitBuilder, src: BitString) => void, pre: number, src: BitString): string {
  const b = new BitBuilder(1023);
  for (let i = 0; i < pre; i++) b.writeBit(i % 3 === 0);
  write.call(b, src);
  return b.build().toString();
}

describe('installFastBitBuilder', () => {
  it("writes the same bits as @ton/core's bit-at-a-time writeBits, at every offset and length", () => {
    expect(installFastBitBuilder()).toBe(true);
    const fast = (BitBuilder.prototype as unknown as { writeBits: (src: BitString) => void }).writeBits;
    expect(fast).not.toBe(original);
    const data = Buffer.from(Array.from({ length: 10 }, (_, i) => (i * 89 + 77) & 0xff));
    for (const pre of [0, 1, 5, 8, 13]) {
      for (let offset = 0; offset <= 11; offset++) {
        for (let length = 0; length <= data.length * 8 - offset; length++) {
          const src = new BitString(data, offset, length);
          expect(written(fast, pre, src)).toBe(written(original, pre, src));
        }
      }
    }
  });

  it('rebuilds every cell of a real block with the same hash', () => {
    installFastBitBuilder();
    const root = Cell.fromBoc(fixtureBytes(BLOCK_FIXTURES.shard52111590))[0]!;
    let n = 0;
    const walk = (c: Cell) => {
      n++;
      if (!c.isExotic) expect(c.beginParse().asCell().hash()).toEqual(c.hash());
      c.refs.forEach(walk);
    };
    walk(root);
    expect(n).toBeGreaterThan(100);
  });
});
