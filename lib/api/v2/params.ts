// Parameter types shared by every v2 method. One schema serves all three call modes: a GET query gives
// strings, a POST or JSON-RPC body gives JSON values (numbers may arrive as bigint, see json-body.ts).
// The schemas also describe the parameters in /api/v2/openapi.json.
import type { Address } from '@ton/core';
import { z } from 'zod';
import { missingWorkchain, parseAddress, WORKCHAINS, type ParsedAddress } from '../../ton/address';
import { parseHash } from '../../ton/hash-input';
import { isShardId } from '../../ton/shard';

const DECIMAL = /^-?\d+$/;
const TRUE = new Set(['y', 'yes', 't', 'true', 'on', '1']);
const FALSE = new Set(['n', 'no', 'f', 'false', 'off', '0']);

/** A whole number given as a JSON number, a bigint or a plain decimal string, within [min, max]. */
function integer(min: bigint, max: bigint, what: string) {
  return z
    .union([z.string(), z.number(), z.bigint()])
    .transform((v, ctx): bigint => {
      let n: bigint | undefined;
      if (typeof v === 'bigint') n = v;
      else if (typeof v === 'number' && Number.isInteger(v)) n = BigInt(v);
      else if (typeof v === 'string' && DECIMAL.test(v.trim())) n = BigInt(v.trim());
      if (n === undefined || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `expected ${what}, got ${JSON.stringify(typeof v === 'bigint' ? v.toString() : v)}` });
        return z.NEVER;
      }
      return n;
    })
    .meta({ type: 'integer' });
}

export const int32 = (what = 'a 32-bit integer', min = -(2n ** 31n), max = 2n ** 31n - 1n) =>
  integer(min, max, what).transform(Number);
export const int64 = (what = 'a 64-bit integer', min = -(2n ** 63n), max = 2n ** 63n - 1n) => integer(min, max, what);

/** A workchain id that exists (WORKCHAINS). */
export const workchain = () =>
  int32('a workchain id').refine((wc) => WORKCHAINS.includes(wc), { message: `workchain does not exist (only ${WORKCHAINS.join(' and ')})` });

/**
 * A shard id (signed 64-bit): a prefix ending in its lowest set bit, so never 0, and at most 60 bits deep
 * (TON's max split depth) — a deeper id names no shard any chain can have, so it is the caller's error.
 */
export const shard = () =>
  int64('a shard id')
    .refine((s) => s !== 0n, { message: 'shard 0 is not a shard id (the whole workchain is -9223372036854775808)' })
    .refine((s) => s === 0n || isShardId(s), { message: 'not a shard id: its prefix is deeper than 60 bits (its lowest set bit must be bit 3 or higher)' });

export const bool = () =>
  z
    .union([z.boolean(), z.number(), z.string()])
    .transform((v, ctx): boolean => {
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number') return v !== 0;
      const s = v.trim().toLowerCase();
      if (TRUE.has(s)) return true;
      if (FALSE.has(s)) return false;
      ctx.addIssue({ code: 'custom', message: `expected a boolean, got ${JSON.stringify(v)}` });
      return z.NEVER;
    })
    .meta({ type: 'boolean' });

export const address = () =>
  z
    .string()
    .transform((v, ctx): ParsedAddress => {
      const parsed = parseAddress(v.trim());
      if (!parsed) {
        ctx.addIssue({ code: 'custom', message: `invalid address ${JSON.stringify(v)}: expected wc:hex or a 48-character friendly address` });
        return z.NEVER;
      }
      const missing = missingWorkchain(parsed.address);
      if (missing) {
        ctx.addIssue({ code: 'custom', message: `invalid address ${JSON.stringify(v)}: ${missing}` });
        return z.NEVER;
      }
      return parsed;
    })
    .meta({ description: 'raw (wc:hex) or friendly (bounceable or not, either base64 alphabet) address' });

export const hash = () =>
  z
    .string()
    .transform((v, ctx): Buffer => {
      const h = parseHash(v.trim());
      if (!h) {
        ctx.addIssue({ code: 'custom', message: `invalid hash ${JSON.stringify(v)}: expected 64 hex digits or 44-character base64` });
        return z.NEVER;
      }
      return h;
    })
    .meta({ description: '32-byte hash: hex, base64 or url-safe base64' });

/** A list; a GET query gives one value for a key written once, so a lone value is a one-item list. */
export const list = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item));

export type { Address };
