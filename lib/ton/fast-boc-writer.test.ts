import { createRequire } from 'node:module';
import { Cell, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { installFastBocWriter, tonCoreBoc } from './fast-boc-writer';
import { installFastCellHash } from './fast-hash';
import { installFastPaddedBits } from './fast-padded-bits';
import { BLOCK_FIXTURES, fixtureBytes } from '../testing/fixtures';

// @ton/core's own functions, taken before anything is installed (this project starts unpatched).
const require = createRequire(import.meta.url);
const original = (require('@ton/core/dist/boc/cell/serialization') as { serializeBoc: typeof tonCoreBoc }).serializeBoc;
const originalCrc = (require('@ton/core/dist/utils/crc32c') as { crc32c: (b: Buffer) => Buffer }).crc32c;
// Cell hashes and padded bits the fast way (each tested against @ton/core's in its own file): loading and
// serializing whole blocks with @ton/core's own takes minutes. Serialization itself stays @ton/core's.
installFastCellHash();
installFastPaddedBits();

/** The root and every cell down to `depth` levels under it: blocks, transactions, messages, pruned branches. */
function subtrees(root: Cell, depth: number): Cell[] {
  const out = [root];
  if (depth > 0) for (const r of root.refs) out.push(...subtrees(r, depth - 1));
  return out;
}

describe("tonCoreBoc, @ton/core's serializeBoc without its costs", () => {
  it("writes @ton/core's bytes for mainnet blocks and their subtrees (exotic cells, shared cells), with and without index and CRC", () => {
    let compared = 0;
    for (const name of Object.values(BLOCK_FIXTURES)) {
      const root = Cell.fromBoc(fixtureBytes(name))[0]!;
      for (const opts of [{ idx: true, crc32: false }, { idx: true, crc32: true }]) expect(tonCoreBoc(root, opts)).toEqual(original(root, opts));
      for (const cell of subtrees(root, 3)) {
        expect(tonCoreBoc(cell, { idx: false, crc32: true })).toEqual(original(cell, { idx: false, crc32: true }));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
  }, 180_000);

  it('writes a one-cell BoC and a cell that references one cell twice the same way', () => {
    const leaf = beginCell().storeUint(7, 3).endCell();
    for (const cell of [Cell.EMPTY, beginCell().storeRef(leaf).storeRef(leaf).storeBit(1).endCell()]) {
      expect(tonCoreBoc(cell, { idx: false, crc32: true })).toEqual(original(cell, { idx: false, crc32: true }));
    }
  });

  it("installed, Cell.toBoc gives what it gave; @ton/core's CRC32-C is the table one, with the same results", () => {
    const boc = fixtureBytes(BLOCK_FIXTURES.shard71398501);
    const before = Cell.fromBoc(boc)[0]!.toBoc();
    expect(installFastBocWriter()).toBe(true);
    const after = Cell.fromBoc(boc)[0]!;
    expect(after.toBoc()).toEqual(before);
    const crc = (require('@ton/core/dist/utils/crc32c') as { crc32c: (b: Buffer) => Buffer }).crc32c;
    expect(crc).not.toBe(originalCrc);
    for (const bytes of [Buffer.alloc(0), Buffer.from('atlas'), boc]) expect(crc(bytes)).toEqual(originalCrc(bytes));
  });
});
