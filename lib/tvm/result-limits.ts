// A get-method's result is chain data, as hostile as any input: the TVM worker measures it here, before
// anything is returned, and refuses what is past LIMITS (the deepest cell, distinct cells, tuple nesting,
// entries). Parsing is safe to start with: a result is a bag of cells whose depth the chain bounds (1024),
// read without recursion (lib/ton/boc.ts), and @ton/core's parseTuple recurses once per tuple level, each
// level one cell deeper.
import { Cell, parseTuple, type TupleItem } from '@ton/core';
import { LIMITS } from '../limits';
import { cellFromBase64 } from '../ton/boc';

/** Why the result stack (a base64 BoC of a VmStack) is refused, or undefined when it is within the limits. */
export function resultRefusal(stackBoc: string): string | undefined {
  if (!stackBoc) return undefined;
  const root = cellFromBase64(stackBoc);
  const cells = distinctCells(root, LIMITS.tvmResultCells);
  if (cells > LIMITS.tvmResultCells) return `has more than ${LIMITS.tvmResultCells} distinct cells; at most ${LIMITS.tvmResultCells} are allowed`;
  let stack: TupleItem[];
  try {
    stack = parseTuple(root);
  } catch (err) {
    return `cannot be read as a stack (${err instanceof Error ? err.message : String(err)})`;
  }
  let entries = 0;
  const pending = stack.map((item) => ({ item, nesting: 0 }));
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { item, nesting } = next;
    if (++entries > LIMITS.tvmResultEntries) return `has more than ${LIMITS.tvmResultEntries} entries; at most ${LIMITS.tvmResultEntries} are allowed`;
    if (item.type === 'tuple') {
      if (nesting + 1 > LIMITS.tvmResultNesting) return `nests tuples more than ${LIMITS.tvmResultNesting} deep; at most ${LIMITS.tvmResultNesting} levels are allowed`;
      for (const inner of item.items) pending.push({ item: inner, nesting: nesting + 1 });
    } else if (item.type === 'cell' || item.type === 'slice' || item.type === 'builder') {
      const depth = item.cell.depth();
      if (depth > LIMITS.tvmResultCellDepth) return `has a cell ${depth} cells deep; at most ${LIMITS.tvmResultCellDepth} are allowed`;
    }
  }
  return undefined;
}

/** Distinct cells under `root`, counted up to just past `max`. */
function distinctCells(root: Cell, max: number): number {
  const seen = new Set<Cell>([root]);
  const pending = [root];
  for (let c = pending.pop(); c && seen.size <= max; c = pending.pop()) {
    for (const r of c.refs) {
      if (!seen.has(r)) {
        seen.add(r);
        pending.push(r);
      }
    }
  }
  return seen.size;
}
