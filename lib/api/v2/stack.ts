// runGetMethod stacks (api-v2.md §3.3): the legacy `[tag, value]` entries and tonlib's typed entries,
// in both directions, to and from @ton/core TupleItems (what the lite server's VmStack BoC holds).
//
// TVM has no list type: tonlib calls a value a list when it is null or a pair whose second item is a
// list, and shows it as `tvm.list` with the items flattened; on input a list becomes those nested pairs.
import { Cell, type TupleItem } from '@ton/core';
import { LIMITS } from '../../limits';
import { BocRejected, parseClientBoc } from '../../ton/client-boc';
import { V2Error, invalidRequest } from './errors';

/** Results nested deeper than this are refused with 533, as the C++ service does. */
export const MAX_STACK_DEPTH = 256;

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

const HEX = /^-?0x[0-9a-f]+$/i;
const DEC = /^-?\d+$/;

// The largest magnitudes of a 257-bit signed integer, and the most characters one can take (so that a
// megabyte of digits is refused before BigInt parses it).
const INT_MAX = 2n ** BigInt(LIMITS.stackIntegerBits - 1) - 1n;
const INT_MIN = -(2n ** BigInt(LIMITS.stackIntegerBits - 1));
const INT_CHARS = 100;

function inRange(n: bigint, where: string): bigint {
  if (n > INT_MAX || n < INT_MIN) throw invalidRequest(`${where}: integer does not fit in ${LIMITS.stackIntegerBits} bits (TVM integers are ${LIMITS.stackIntegerBits}-bit signed)`);
  return n;
}

function parseNumber(v: unknown, where: string): bigint {
  if (typeof v === 'bigint') return inRange(v, where);
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'string') {
    const s = v.trim();
    const tooLong = () => invalidRequest(`${where}: integer has ${s.length} characters; at most ${INT_CHARS} are allowed (TVM integers are ${LIMITS.stackIntegerBits}-bit signed)`);
    if (DEC.test(s)) {
      if (s.length > INT_CHARS) throw tooLong();
      return inRange(BigInt(s), where);
    }
    if (HEX.test(s)) {
      if (s.length > INT_CHARS) throw tooLong();
      return inRange(s.startsWith('-') ? -BigInt(s.slice(1)) : BigInt(s), where);
    }
  }
  throw invalidRequest(`${where}: expected an integer (decimal or 0x hex), got ${JSON.stringify(typeof v === 'bigint' ? String(v) : v)}`);
}

function parseBoc(v: unknown, where: string): Cell {
  if (typeof v !== 'string' || v.length === 0) throw invalidRequest(`${where}: expected a base64 BoC`);
  try {
    return parseClientBoc(v, 'the BoC', LIMITS.emulatedCellDepth);
  } catch (e) {
    if (e instanceof BocRejected) throw invalidRequest(`${where}: invalid BoC: ${e.message}`);
    throw e;
  }
}

/**
 * How much of the input stack has been read: entries at every level count against LIMITS.stackEntries
 * (a tuple of a million items is as heavy as a million entries), nesting against LIMITS.stackNesting.
 */
interface Reading {
  entries: number;
}

function enter(r: Reading, depth: number, where: string): void {
  if (++r.entries > LIMITS.stackEntries) throw invalidRequest(`stack has more than ${LIMITS.stackEntries} entries (counting those inside tuples and lists); at most ${LIMITS.stackEntries} are allowed`);
  if (depth > LIMITS.stackNesting) throw invalidRequest(`${where}: tuples and lists are nested ${depth} deep; at most ${LIMITS.stackNesting} levels are allowed`);
}

function bytesOf(v: unknown, where: string): Cell {
  if (typeof v !== 'object' || v === null || !('bytes' in v)) throw invalidRequest(`${where}: expected an object with "bytes"`);
  return parseBoc((v as { bytes: unknown }).bytes, where);
}

function elementsOf(v: unknown, where: string): unknown[] {
  const els = typeof v === 'object' && v !== null ? (v as { elements?: unknown }).elements : undefined;
  if (!Array.isArray(els)) throw invalidRequest(`${where}: expected an object with "elements"`);
  return els;
}

/** Items as TVM's nested-pair list: (a, (b, (c, null))). */
function asList(items: TupleItem[]): TupleItem {
  let list: TupleItem = { type: 'null' };
  for (let i = items.length - 1; i >= 0; i--) list = { type: 'tuple', items: [items[i], list] };
  return list;
}

/** A legacy entry `[tag, value]` of the runGetMethod request stack. */
export function parseLegacyEntry(entry: unknown, where: string, r: Reading = { entries: 0 }, depth = 0): TupleItem {
  enter(r, depth, where);
  if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string') {
    throw invalidRequest(`${where}: expected [type, value]`);
  }
  const [tag, value] = entry as [string, unknown];
  switch (tag) {
    case 'num':
    case 'number':
    case 'int':
    case 'integer':
      return { type: 'int', value: parseNumber(value, where) };
    case 'tvm.Cell':
      return { type: 'cell', cell: parseBoc(value, where) };
    case 'tvm.Slice':
      return { type: 'slice', cell: parseBoc(value, where) };
    case 'tvm.Builder':
      return { type: 'builder', cell: parseBoc(value, where) };
    case 'cell':
      return { type: 'cell', cell: bytesOf(value, where) };
    case 'slice':
      return { type: 'slice', cell: bytesOf(value, where) };
    case 'tuple':
    case 'tvm.Tuple':
      return { type: 'tuple', items: elementsOf(value, where).map((e, i) => parseTypedEntry(e, `${where}[${i}]`, r, depth + 1)) };
    case 'list':
    case 'tvm.List':
      return asList(elementsOf(value, where).map((e, i) => parseTypedEntry(e, `${where}[${i}]`, r, depth + 1)));
    default:
      throw new V2Error(542, `Unsupported stack entry type: ${tag}`);
  }
}

/** A typed tonlib entry (`tvm.stackEntryNumber`, …) of runGetMethodStd or inside a tuple/list. */
export function parseTypedEntry(entry: unknown, where: string, r: Reading = { entries: 0 }, depth = 0): TupleItem {
  enter(r, depth, where);
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalidRequest(`${where}: expected a typed stack entry object`);
  const e = entry as Record<string, unknown>;
  const inner = (k: string) => (typeof e[k] === 'object' && e[k] !== null ? (e[k] as Record<string, unknown>) : {});
  switch (e['@type']) {
    case 'tvm.stackEntryNumber':
      return { type: 'int', value: parseNumber(inner('number').number, where) };
    case 'tvm.stackEntryCell':
      return { type: 'cell', cell: bytesOf(e.cell, where) };
    case 'tvm.stackEntrySlice':
      return { type: 'slice', cell: bytesOf(e.slice, where) };
    case 'tvm.stackEntryTuple':
      return { type: 'tuple', items: elementsOf(e.tuple, where).map((x, i) => parseTypedEntry(x, `${where}[${i}]`, r, depth + 1)) };
    case 'tvm.stackEntryList':
      return asList(elementsOf(e.list, where).map((x, i) => parseTypedEntry(x, `${where}[${i}]`, r, depth + 1)));
    default:
      throw new V2Error(542, `Unsupported stack entry type: ${String(e['@type'])}`);
  }
}

/** A runGetMethod input stack, within LIMITS.stackEntries, stackNesting and the integer and BoC limits. */
export function parseStack(stack: unknown[], typed: boolean): TupleItem[] {
  if (stack.length > LIMITS.stackEntries) throw invalidRequest(`stack has ${stack.length} entries; at most ${LIMITS.stackEntries} are allowed`);
  const r: Reading = { entries: 0 };
  return stack.map((e, i) => (typed ? parseTypedEntry(e, `stack[${i}]`, r) : parseLegacyEntry(e, `stack[${i}]`, r)));
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

/** The list's items when `item` is a TVM list (null, or a pair ending in a list), else undefined. */
function listItems(item: TupleItem): TupleItem[] | undefined {
  const out: TupleItem[] = [];
  let cur = item;
  for (;;) {
    if (cur.type === 'null') return out;
    if (cur.type !== 'tuple' || cur.items.length !== 2) return undefined;
    out.push(cur.items[0]);
    cur = cur.items[1];
  }
}

function checkDepth(depth: number) {
  if (depth > MAX_STACK_DEPTH) throw new V2Error(533, `result stack is nested deeper than ${MAX_STACK_DEPTH}`);
}

/**
 * The cells a legacy result may still expand to (see cellObject); one budget for a whole result stack.
 * Shared by the entries of one answer so that many entries cannot multiply it.
 */
export interface Expansion {
  cellsLeft: number;
}

export const newExpansion = (): Expansion => ({ cellsLeft: LIMITS.stackCellsExpanded });

/**
 * tonlib's cell object: data bytes (trailing bits zero) and bit length, refs, special flag. It is a tree,
 * so a cell reached by several paths is written once per path: a few hundred bytes of cells that share
 * children can expand exponentially. Past LIMITS.stackCellsExpanded cells the answer is refused.
 */
export function cellObject(cell: Cell, budget: Expansion): unknown {
  if (--budget.cellsLeft < 0) {
    throw new V2Error(
      422,
      `result cells expand to more than ${LIMITS.stackCellsExpanded} cells in runGetMethod's "object" form; at most ${LIMITS.stackCellsExpanded} are allowed (runGetMethodStd answers with BoCs only)`,
    );
  }
  const len = cell.bits.length;
  const data = Buffer.alloc(Math.ceil(len / 8));
  for (let i = 0; i < len; i++) if (cell.bits.at(i)) data[i >> 3] |= 0x80 >> (i & 7);
  return { data: { b64: data.toString('base64'), len }, refs: cell.refs.map((c) => cellObject(c, budget)), special: cell.isExotic };
}

const boc = (c: Cell) => c.toBoc().toString('base64');

export function typedEntry(item: TupleItem, depth = 0): unknown {
  checkDepth(depth);
  switch (item.type) {
    case 'int':
      return { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: item.value.toString() } };
    case 'cell':
    case 'builder':
      return { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: boc(item.cell) } };
    case 'slice':
      return { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: boc(item.cell) } };
    case 'null':
    case 'tuple': {
      const list = listItems(item);
      if (list) return { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: list.map((x) => typedEntry(x, depth + 1)) } };
      if (item.type === 'null') break;
      return { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: item.items.map((x) => typedEntry(x, depth + 1)) } };
    }
  }
  return { '@type': 'tvm.stackEntryUnsupported' };
}

/** A legacy output entry: ["num","0x…"], ["cell",{bytes,object}], ["tuple",…], ["list",…]. */
export function legacyEntry(item: TupleItem, budget: Expansion = newExpansion()): unknown {
  switch (item.type) {
    case 'int':
      return ['num', item.value < 0n ? `-0x${(-item.value).toString(16)}` : `0x${item.value.toString(16)}`];
    case 'cell':
    case 'slice':
    case 'builder':
      return ['cell', { bytes: boc(item.cell), object: cellObject(item.cell, budget) }];
    case 'null':
    case 'tuple': {
      const list = listItems(item);
      if (list) return ['list', { '@type': 'tvm.list', elements: list.map((x) => typedEntry(x, 1)) }];
      if (item.type === 'null') break;
      return ['tuple', { '@type': 'tvm.tuple', elements: item.items.map((x) => typedEntry(x, 1)) }];
    }
  }
  return ['unsupported', ''];
}
