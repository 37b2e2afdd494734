import { createRequire } from 'node:module';
import { BitString, Cell, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { installFastPaddedBits, paddedBits } from './fast-padded-bits';
import { fixtureBytes } from '../testing/fixtures';

const original = (createRequire(import.meta.url)('@ton/core/dist/boc/utils/paddedBits') as { bitsToPaddedBuffer: (b: BitString) => Buffer })
  .bitsToPaddedBuffer;

describe('paddedBits', () => {
  it("equals @ton/core's bitsToPaddedBuffer for every offset and length", () => {
    const data = Buffer.from(Array.from({ length: 12 }, (_, i) => (i * 73 + 41) & 0xff));
    for (let offset = 0; offset <= 16; offset++) {
      for (let length = 0; length <= data.length * 8 - offset; length++) {
        const bits = new BitString(data, offset, length);
        expect(paddedBits(bits)).toEqual(original(bits));
      }
    }
  });

  it('installed, leaves cell hashes and BoCs as they were', () => {
    const boc = fixtureBytes('block_0_8000000000000000_71398501.boc');
    const before = Cell.fromBoc(boc)[0]!;
    // bits that start mid-byte in their buffer
    const midByte = () => {
      const slice = beginCell().storeUint(5, 3).storeBuffer(Buffer.from('atlas, mid-byte')).endCell().beginParse();
      slice.skip(3);
      return slice.asCell();
    };
    const midByteHash = midByte().hash();
    expect(installFastPaddedBits()).toBe(true);
    const after = Cell.fromBoc(boc)[0]!;
    expect(after.hash()).toEqual(before.hash());
    expect(after.toBoc()).toEqual(before.toBoc());
    expect(midByte().hash()).toEqual(midByteHash);
  });
});
