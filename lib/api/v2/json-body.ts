// JSON bodies may carry 64-bit integers as numbers (`"shard": -9223372036854775808`); JSON.parse would
// round them. Integers outside the safe range become bigint; everything else parses as usual.
import { isSafeNumber, parse } from 'lossless-json';
import { invalidRequest } from './errors';

const parseNumber = (text: string): number | bigint =>
  isSafeNumber(text) ? Number(text) : /^-?\d+$/.test(text) ? BigInt(text) : Number(text);

/** JSON with integers past 2^53 as bigint (v3's POST bodies read stack numbers through it too); throws on bad JSON. */
export const parseJsonExact = (text: string): unknown => parse(text, null, parseNumber);

export function parseJsonBody(text: string, kind: string): unknown {
  if (text.trim() === '') return {};
  try {
    return parseJsonExact(text);
  } catch (err) {
    throw invalidRequest(`failed to parse ${kind} request: invalid JSON: ${(err as Error).message}`);
  }
}
