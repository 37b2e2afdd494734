// The worker's measure of a get-method's result (result-limits.ts), on stacks built as the emulator
// serializes them: each limit refused past its value and not at it.
import { beginCell, serializeTuple, type Cell, type TupleItem } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../limits';
import { chainCell } from '../testing/hostile';
import { resultRefusal } from './result-limits';

const boc = (items: TupleItem[]) => serializeTuple(items).toBoc().toString('base64');
const int = (n: number): TupleItem => ({ type: 'int', value: BigInt(n) });

/** A 4-ary tree of distinct cells, `count` of them at least. */
function wideTree(count: number): Cell {
  let level: Cell[] = Array.from({ length: count }, (_, i) => beginCell().storeUint(i, 32).endCell());
  while (level.length > 1) {
    const up: Cell[] = [];
    for (let i = 0; i < level.length; i += 4) {
      const b = beginCell();
      for (const c of level.slice(i, i + 4)) b.storeRef(c);
      up.push(b.endCell());
    }
    level = up;
  }
  return level[0]!;
}

function nested(levels: number): TupleItem {
  let t: TupleItem = int(1);
  for (let i = 0; i < levels; i++) t = { type: 'tuple', items: [t] };
  return t;
}

describe('get-method result limits', () => {
  it('takes what is within every limit', () => {
    expect(resultRefusal('')).toBeUndefined();
    expect(resultRefusal(boc([int(1), { type: 'cell', cell: chainCell(LIMITS.tvmResultCellDepth) }, nested(LIMITS.tvmResultNesting - 1)]))).toBeUndefined();
  });

  it('refuses a cell past the depth limit, in a cell, slice or builder entry', () => {
    const deep = chainCell(LIMITS.tvmResultCellDepth + 1);
    for (const type of ['cell', 'slice', 'builder'] as const) {
      expect(resultRefusal(boc([{ type, cell: deep }]))).toBe(`has a cell ${LIMITS.tvmResultCellDepth + 1} cells deep; at most ${LIMITS.tvmResultCellDepth} are allowed`);
    }
  });

  it('refuses tuples nested past the limit', () => {
    expect(resultRefusal(boc([nested(LIMITS.tvmResultNesting)]))).toBeUndefined();
    expect(resultRefusal(boc([nested(LIMITS.tvmResultNesting + 1)]))).toMatch(/^nests tuples more than 256 deep/);
  });

  it('refuses more entries than the limit, nested ones counted', () => {
    const wide = (n: number): TupleItem => ({ type: 'tuple', items: Array.from({ length: n }, (_, i) => int(i)) });
    const at = [wide(255), wide(255), wide(255), wide(255)]; // 4 + 1020 = 1024
    expect(resultRefusal(boc(at))).toBeUndefined();
    expect(resultRefusal(boc([...at, int(0)]))).toBe(`has more than ${LIMITS.tvmResultEntries} entries; at most ${LIMITS.tvmResultEntries} are allowed`);
  });

  it('refuses more distinct cells than the limit; a cell shared along many paths counts once', () => {
    expect(resultRefusal(boc([{ type: 'cell', cell: wideTree(LIMITS.tvmResultCells) }]))).toMatch(/^has more than 16384 distinct cells/);
    let dag = beginCell().endCell();
    for (let i = 0; i < 200; i++) dag = beginCell().storeRef(dag).storeRef(dag).storeRef(dag).endCell();
    expect(resultRefusal(boc([{ type: 'cell', cell: dag }]))).toBeUndefined();
  });
});
