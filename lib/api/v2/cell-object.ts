// tonlib's cell object, `{data: {b64, len}, refs: [...], special}`, read back into a cell: the form the
// Python service's deprecated *Simple methods take (tonweb's provider.sendQuery sends sendQuerySimple),
// the same form runGetMethod's legacy "object" answers with (stack.ts writes it). It is a tree, so each
// path to a cell counts: at most LIMITS.bocCells cells and LIMITS.cellDepth levels, as for a client BoC.
import { BitString, beginCell, type Cell } from '@ton/core';
import { z } from 'zod';
import { LIMITS } from '../../limits';
import { V2Error } from './errors';

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const MAX_BITS = 1023;
const MAX_REFS = 4;

/** 400, as the Python service answers any cell object it cannot read, with what was wrong. */
const unreadable = (why: string) => new V2Error(400, `Error while parsing cell object: ${why}`);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function read(v: unknown, where: string, depth: number, seen: { cells: number }): Cell {
  if (depth > LIMITS.cellDepth) throw unreadable(`${where} is more than ${LIMITS.cellDepth} cells deep`);
  if (++seen.cells > LIMITS.bocCells) throw unreadable(`more than ${LIMITS.bocCells} cells`);
  if (!isObject(v) || !isObject(v.data)) throw unreadable(`${where} is not {data: {b64, len}, refs}`);
  const { b64, len } = v.data;
  if (typeof b64 !== 'string' || !BASE64.test(b64)) throw unreadable(`${where}.data.b64 is not base64`);
  const bytes = Buffer.from(b64, 'base64');
  if (typeof len !== 'number' || !Number.isInteger(len) || len < 0 || len > Math.min(MAX_BITS, bytes.length * 8)) {
    throw unreadable(`${where}.data.len must be a bit count from 0 to ${Math.min(MAX_BITS, bytes.length * 8)}`);
  }
  const refs = v.refs ?? [];
  if (!Array.isArray(refs) || refs.length > MAX_REFS) throw unreadable(`${where}.refs must be a list of at most ${MAX_REFS} cells`);
  const b = beginCell().storeBits(new BitString(bytes, 0, len));
  refs.forEach((r, i) => b.storeRef(read(r, `${where}.refs[${i}]`, depth + 1, seen)));
  try {
    return b.endCell({ exotic: v.special === true });
  } catch (e) {
    throw unreadable(`${where} is not a valid special cell (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** The cell a cell object describes; 400 `Error while parsing cell object: …` when it describes none. */
export function cellFromObject(value: unknown, what: string): Cell {
  return read(value, what, 0, { cells: 0 });
}

/** A zod field for a cell object (a JSON object; anything inside it that is wrong is 400, as above). */
export const cellObjectParam = (what: string) =>
  z
    .record(z.string(), z.unknown())
    .transform((v) => cellFromObject(v, what))
    .meta({ description: `${what}: a cell as an object {"data": {"b64": base64 of the data bytes, "len": bit length}, "refs": [cells], "special": false}` });
