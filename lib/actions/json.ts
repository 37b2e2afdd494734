// Action records as JSON: integers as numbers up to 2^53, decimal strings beyond (toncenter's uint64
// fields exceed what a double holds), addresses and hashes as they are.
import type { Action } from './model';

const LIMIT = 2n ** 53n;

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export function toJson(v: unknown): Json {
  if (typeof v === 'bigint') return v <= LIMIT && v >= -LIMIT ? Number(v) : v.toString();
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toJson(x);
    return out;
  }
  return v as Json;
}

export const actionJson = (a: Action): Json => toJson(a);
