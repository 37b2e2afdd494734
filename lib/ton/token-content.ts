/**
 * TEP-64 token content as toncenter's getTokenData shows it: `{type:"onchain", data:{name: value…}}`
 * for `onchain#00` (a HashmapE 256 keyed by sha256(attribute name); values snake#00 or chunked#01
 * data, stored in the ref or behind one more ref) and `{type:"offchain", data:"<uri>"}` for
 * `offchain#01` + a snake URI. Only the attributes TEP-64 names are decoded; `image_data` is
 * returned base64, the others as UTF-8 text.
 */
import { sha256_sync } from '@ton/crypto';
import { Cell, Dictionary } from '@ton/core';
import { snakeBytes } from './snake';

export type TokenContent = { type: 'onchain'; data: Record<string, string> } | { type: 'offchain'; data: string };

const ATTRIBUTES = ['uri', 'name', 'description', 'image', 'image_data', 'symbol', 'decimals', 'amount_style', 'render_type'];
const BY_KEY = new Map(ATTRIBUTES.map((name) => [BigInt('0x' + sha256_sync(Buffer.from(name)).toString('hex')), name]));

/** ContentData: snake#00 bytes, or chunked#01 (HashmapE 32 ^SnakeData, chunks in key order). */
function readContentData(cell: Cell): Buffer {
  // Some contracts wrap the value in one more cell.
  const c = cell.bits.length === 0 && cell.refs.length === 1 ? cell.refs[0] : cell;
  const s = c.beginParse();
  const prefix = s.loadUint(8);
  if (prefix === 0) return snakeBytes(s);
  if (prefix === 1) {
    const chunks = s.loadDict(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    return Buffer.concat([...chunks.keys()].sort((a, b) => a - b).map((k) => snakeBytes(chunks.get(k)!.beginParse())));
  }
  throw new Error(`content data: unknown prefix 0x${prefix.toString(16)}`);
}

export function parseTokenContent(cell: Cell): TokenContent {
  const s = cell.beginParse();
  const layout = s.remainingBits >= 8 ? s.loadUint(8) : -1;
  if (layout === 1) return { type: 'offchain', data: snakeBytes(s).toString('utf8') };
  if (layout !== 0) {
    // Not TEP-64 (old collections keep a bare URI): show the bytes as an off-chain URI.
    return { type: 'offchain', data: snakeBytes(cell.beginParse()).toString('utf8') };
  }
  const dict = s.loadDict(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  const data: Record<string, string> = {};
  for (const [key, value] of dict) {
    const name = BY_KEY.get(key);
    if (!name) continue;
    const bytes = readContentData(value);
    data[name] = name === 'image_data' ? bytes.toString('base64') : bytes.toString('utf8');
  }
  return { type: 'onchain', data };
}

/** TEP-64 content as the index stores it: the on-chain attributes, or {uri} for off-chain content; null when unreadable. */
export function storedContentJson(content: Cell): Record<string, string> | null {
  try {
    const c = parseTokenContent(content);
    return c.type === 'onchain' ? c.data : { uri: c.data };
  } catch {
    return null;
  }
}
