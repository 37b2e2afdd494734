// Cells read lazily (lazy-cells.ts) against @ton/core's eager ones, on real mainnet blocks — Merkle
// updates with pruned branches, cells of every level — whichever cell is asked for first.
import { beginCell, Cell, CellType } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { BLOCK_FIXTURES, fixtureBytes } from '../testing/fixtures';
import { deserializeBoc, serializeBoc } from './boc';
import { deserializeBocLazy } from './lazy-cells';

/** Every cell under root once, parents before children. */
function cellsOf(root: Cell): Cell[] {
  const seen = new Set<Cell>();
  const out: Cell[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (seen.has(c)) continue;
    seen.add(c);
    out.push(c);
    stack.push(...[...c.refs].reverse());
  }
  return out;
}

const describeCell = (c: Cell) => ({
  type: c.type,
  exotic: c.isExotic,
  bits: c.bits.toString(),
  refs: c.refs.length,
  level: c.level(),
  mask: c.mask.value,
  hashes: [0, 1, 2, 3].map((l) => c.hash(l).toString('hex')),
  depths: [0, 1, 2, 3].map((l) => c.depth(l)),
});

describe('lazily hashed cells', () => {
  for (const [name, file] of Object.entries(BLOCK_FIXTURES)) {
    it(`${name}: every cell has @ton/core's type, level, hashes and depths, asked root first or leaves first`, () => {
      const boc = fixtureBytes(file);
      const eager = cellsOf(deserializeBoc(boc)[0]!);
      expect(eager.some((c) => c.type === CellType.PrunedBranch)).toBe(true); // the block's Merkle update
      expect(eager.some((c) => c.level() > 0)).toBe(true);
      const want = eager.map(describeCell);
      const rootFirst = cellsOf(deserializeBocLazy(boc)[0]!);
      expect(rootFirst.map(describeCell)).toEqual(want);
      const leavesFirst = cellsOf(deserializeBocLazy(boc)[0]!);
      const asked = [...leavesFirst].reverse().map(describeCell).reverse();
      expect(asked).toEqual(want);
      expect(leavesFirst.every((c) => c instanceof Cell)).toBe(true);
    });
  }

  it('serialize, compare and parse as the eager cells do', () => {
    const boc = fixtureBytes(BLOCK_FIXTURES.shard52111590);
    const eager = deserializeBoc(boc)[0]!;
    const lazy = deserializeBocLazy(boc)[0]!;
    expect(serializeBoc(lazy)).toEqual(serializeBoc(eager));
    expect(lazy.toBoc()).toEqual(eager.toBoc());
    expect(lazy.equals(eager)).toBe(true);
    expect(lazy.toString()).toBe(eager.toString());
    expect(lazy.beginParse().loadUint(32)).toBe(0x11ef55aa); // block#11ef55aa
    const pruned = cellsOf(lazy).find((c) => c.isExotic)!;
    expect(() => pruned.beginParse()).toThrow(/Exotic/);
    expect(pruned.beginParse(true).loadUint(8)).toBe(pruned.type);
  });

  it('a chain of cells deeper than the call stack hashes as the eager one', () => {
    let eager = beginCell().storeUint(1, 8).endCell();
    for (let i = 0; i < 20_000; i++) eager = beginCell().storeUint(i, 16).storeRef(eager).endCell();
    // One bag of cells by hand (serializeBoc recurses): cell i refers to cell i + 1.
    const chain: Cell[] = [];
    for (let c: Cell | undefined = eager; c; c = c.refs[0]) chain.push(c);
    const cells = chain.map((c, i) => Buffer.concat([Buffer.from([c.refs.length, Math.ceil(c.bits.length / 8) * 2]), c.bits.subbuffer(0, c.bits.length)!, ...(c.refs.length ? [uint(i + 1, 3)] : [])]));
    const body = Buffer.concat(cells);
    const boc = Buffer.concat([Buffer.from('b5ee9c72', 'hex'), Buffer.from([3, 3]), uint(chain.length, 3), uint(1, 3), uint(0, 3), uint(body.length, 3), uint(0, 3), body]);
    const lazy = deserializeBocLazy(boc)[0]!;
    expect(lazy.hash().equals(eager.hash())).toBe(true);
    expect(lazy.depth()).toBe(20_000);
  });

  it('a malformed exotic cell is refused when it is asked for, as eager reading refuses the whole bag', () => {
    // root (one ref) → exotic cell "pruned branch" with level mask 0, which no pruned branch may have
    const boc = Buffer.from('b5ee9c72' + '0101' + '02' + '01' + '00' + '07' + '00' + '010001' + '08040100', 'hex');
    expect(() => deserializeBoc(boc)).toThrow();
    const root = deserializeBocLazy(boc)[0]!;
    expect(root.refs[0]!.type).toBe(CellType.PrunedBranch);
    expect(() => root.hash()).toThrow();
    expect(() => deserializeBocLazy(Buffer.from('b5ee9c72' + '0101' + '02' + '01' + '00' + '07' + '00' + '010001' + '08040900', 'hex'))).toThrow(/exotic cell type/);
  });
});

const uint = (n: number, bytes: number) => {
  const b = Buffer.alloc(bytes);
  b.writeUIntBE(n, 0, bytes);
  return b;
};
