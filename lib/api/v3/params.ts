// Query parameters of the v3 routes (api-v3.md §1.2–§1.5). A route's query schema is a z.object whose
// fields are built here; each field also carries its documentation (kind, JSON schema, description) for
// /api/v3/openapi.json, so the schema that validates a request is the one that documents it.
//
// How a GET query reaches a schema (readQuery): names match case-insensitively and `key[]` is `key`;
// unknown names are ignored; a scalar given several times takes its last value; an array takes every
// value in order, and typed arrays (addresses, hashes) also accept comma lists. An empty value means the
// type's zero value (`limit=` → 0 → clamped to 1), except for addresses and hashes where it means absent.
import { z } from 'zod';
import { parseAddress, rawUpper } from '../../ton/address';
import { parseHash } from '../../ton/hash-input';
import { unprocessable } from './errors';
import { LIMITS } from '../../limits';

export type JsonSchema = Record<string, unknown>;

export interface ParamDoc {
  kind: 'scalar' | 'array';
  schema: JsonSchema;
  description: string;
}

const docs = new WeakMap<z.ZodType, ParamDoc>();

/** The documentation attached to a field built by this module (undefined for anything else). */
export const paramDoc = (field: z.ZodType): ParamDoc | undefined => docs.get(field);

/** What a parser returns for an empty value that means "not given". */
const ABSENT = Symbol('absent');
type Parser<T> = (raw: string) => T | undefined | typeof ABSENT;

// The message of a conversion failure; the dispatcher words it like gorilla/schema (toncenter's parser).
export const CONVERSION = 'conversion';

function scalar<T>(parse: Parser<T>, schema: JsonSchema, description: string) {
  const field = z
    .string()
    .transform((raw, ctx): T | undefined => {
      const v = parse(raw);
      if (v === ABSENT) return undefined;
      if (v === undefined) {
        ctx.addIssue({ code: 'custom', message: CONVERSION });
        return z.NEVER;
      }
      return v;
    })
    .optional();
  docs.set(field, { kind: 'scalar', schema, description });
  return field;
}

/** Values one list parameter may carry (toncenter's own cap on its list routes, e.g. decode, nft/sales). */
export const MAX_LIST_VALUES = LIMITS.listValues;

function array<T>(parse: Parser<T>, splitCommas: boolean, item: JsonSchema, description: string, capped = true) {
  const field = z
    .array(z.string())
    .transform((raws, ctx): T[] => {
      // Counted before any value is parsed, comma lists included, so a long list costs nothing.
      const count = raws.reduce((n, raw) => n + (splitCommas ? raw.split(',').length : 1), 0);
      if (capped && count > MAX_LIST_VALUES) {
        ctx.addIssue({ code: 'custom', message: `too many values (${count} > ${MAX_LIST_VALUES})` });
        return z.NEVER;
      }
      const out: T[] = [];
      raws.forEach((raw, i) => {
        const v = parse(raw);
        if (v === ABSENT) return;
        if (v !== undefined) {
          out.push(v);
          return;
        }
        if (splitCommas && raw.includes(',')) {
          const parts = raw.split(',').map(parse);
          if (parts.every((p) => p !== undefined)) {
            for (const p of parts) if (p !== ABSENT) out.push(p as T);
            return;
          }
        }
        ctx.addIssue({ code: 'custom', message: CONVERSION, path: [i] });
      });
      return out;
    })
    .optional();
  docs.set(field, { kind: 'array', schema: { type: 'array', items: item, maxItems: MAX_LIST_VALUES }, description });
  return field;
}

// ---------------------------------------------------------------------------------------------------
// Parsers: each returns the value, undefined when the text does not convert, or ABSENT.

const INT = /^[+-]?\d+$/;
const UINT = /^\d+$/;
const I32_MIN = -(2n ** 31n);
const I32_MAX = 2n ** 31n - 1n;

export const parseInt32: Parser<number> = (raw) => {
  if (raw === '') return 0;
  if (!INT.test(raw)) return undefined;
  const n = BigInt(raw);
  return n < I32_MIN || n > I32_MAX ? undefined : Number(n);
};

export const parseUint64: Parser<bigint> = (raw) => {
  if (raw === '') return 0n;
  if (!UINT.test(raw)) return undefined;
  const n = BigInt(raw);
  return n >= 2n ** 64n ? undefined : n;
};

const UFLOAT = /^\+?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Unix time: an unsigned integer; a float is accepted and truncated (toncenter parses it that way). */
export const parseUtime: Parser<number> = (raw) => {
  if (raw === '') return 0;
  if (!UFLOAT.test(raw)) return undefined;
  const n = Math.trunc(Number(raw));
  return Number.isSafeInteger(n) ? n : undefined;
};

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Go's strconv.ParseBool spellings. */
export const parseBool: Parser<boolean> = (raw) => {
  if (raw === '') return false;
  if (TRUE.has(raw)) return true;
  if (FALSE.has(raw)) return false;
  return undefined;
};

const HEX16 = /^[0-9a-fA-F]{1,16}$/;

/** Shard id: optional 0x, hex first, decimal only if hex fails (`123` is 0x123); signed as stored. */
export const parseShard: Parser<bigint> = (raw) => {
  if (raw === '') return 0n;
  const s = /^0[xX]/.test(raw) ? raw.slice(2) : raw;
  if (HEX16.test(s)) return BigInt.asIntN(64, BigInt(`0x${s}`));
  if (!INT.test(s)) return undefined;
  const n = BigInt(s);
  return n < -(2n ** 63n) || n >= 2n ** 64n ? undefined : BigInt.asIntN(64, n);
};

const HEX8 = /^[0-9a-fA-F]{1,8}$/;

/** Opcode as stored (signed int32): `0x` → hex only; otherwise hex (≤ 8 digits) first, then decimal. */
export const parseOpcode: Parser<number> = (raw) => {
  if (raw === '') return 0;
  if (/^0[xX]/.test(raw)) {
    const h = raw.slice(2);
    return HEX8.test(h) ? Number.parseInt(h, 16) | 0 : undefined;
  }
  if (HEX8.test(raw)) return Number.parseInt(raw, 16) | 0;
  return parseInt32(raw) as number | undefined;
};

// A `+` of standard base64 arrives as a space when the client did not percent-encode it; a space is
// never valid in an address or a hash, so it is read back as `+` (toncenter rejects it instead).
export const unspace = (raw: string) => raw.replace(/ /g, '+').trim();

/** Any accepted address form → raw `wc:HEX` (upper case), the form the index stores. */
export const parseAddr: Parser<string> = (raw) => {
  if (raw.trim() === '') return ABSENT;
  const p = parseAddress(unspace(raw));
  return p ? rawUpper(p.address) : undefined;
};

/** Free text as given; a NUL byte is no character of any name or value (and PostgreSQL text cannot hold it). */
export const parseText: Parser<string> = (raw) => (raw.includes('\0') ? undefined : raw);

export const parseHashParam: Parser<Buffer> = (raw) => {
  if (raw.trim() === '') return ABSENT;
  return parseHash(unspace(raw)) ?? undefined;
};

// ---------------------------------------------------------------------------------------------------
// Field builders.

const ADDRESS_SCHEMA = {
  type: 'string',
  description: 'raw `wc:hex` (64 hex digits) or a 48-character user-friendly address (base64 or base64url)',
  example: '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8',
};
const HASH_SCHEMA = {
  type: 'string',
  description: '32-byte hash: 64 hex digits (optionally 0x), or 44-character base64 / base64url',
};

export const p = {
  int32: (description: string, extra: JsonSchema = {}) => scalar(parseInt32, { type: 'integer', format: 'int32', ...extra }, description),
  uint64: (description: string) => scalar(parseUint64, { type: 'string', pattern: '^[0-9]+$', format: 'uint64' }, description),
  utime: (description: string) => scalar(parseUtime, { type: 'integer', minimum: 0 }, description),
  bool: (description: string, def?: boolean) => scalar(parseBool, { type: 'boolean', ...(def === undefined ? {} : { default: def }) }, description),
  shard: (description: string) =>
    scalar(parseShard, { type: 'string', description: 'hex (optionally 0x; tried first) or signed decimal', example: '8000000000000000' }, description),
  opcode: (description: string) =>
    scalar(parseOpcode, { type: 'string', description: '0x-prefixed hex, bare hex (≤ 8 digits, tried first) or signed 32-bit decimal', example: '0x0f8a7ea5' }, description),
  address: (description: string) => scalar(parseAddr, ADDRESS_SCHEMA, description),
  /** An address or the literal `null` (matches a NULL column: external messages). */
  addressOrNull: (description: string) =>
    scalar<string | null>((raw) => (raw === 'null' ? null : parseAddr(raw)), { ...ADDRESS_SCHEMA, description: `${ADDRESS_SCHEMA.description}, or \`null\`` }, description),
  hash: (description: string) => scalar(parseHashParam, HASH_SCHEMA, description),
  string: (description: string, extra: JsonSchema = {}) => scalar<string>(parseText, { type: 'string', ...extra }, description),
  addresses: (description: string) => array(parseAddr, true, ADDRESS_SCHEMA, description),
  hashes: (description: string) => array(parseHashParam, true, HASH_SCHEMA, description),
  /** Plain strings: kept as given, never split on commas. */
  strings: (description: string) => array<string>(parseText, false, { type: 'string' }, description),
  /** Plain strings the route counts itself, to word the limit as toncenter does (decode); the URL caps them. */
  stringsUncapped: (description: string) => array<string>(parseText, false, { type: 'string' }, description, false),
};

/** limit, offset, sort (api-v3.md §1.7). */
export const limitParams = () => ({
  limit: p.int32('Maximum number of rows (default 100; values below 1 count as 1; above 1000 is an error).', { minimum: 1, maximum: 1000, default: DEFAULT_LIMIT }),
  offset: p.int32('Rows to skip (negative counts as 0).', { minimum: 0, default: 0 }),
  sort: p.string('Sort order: asc | desc (also a | d, any case).', { enum: ['asc', 'desc'], default: 'desc' }),
});

export const utimeParams = (column: string) => ({
  start_utime: p.utime(`Only rows with ${column} >= start_utime.`),
  end_utime: p.utime(`Only rows with ${column} <= end_utime.`),
});

export const ltParams = (column: string) => ({
  start_lt: p.uint64(`Only rows with ${column} >= start_lt.`),
  end_lt: p.uint64(`Only rows with ${column} <= end_lt.`),
});

// ---------------------------------------------------------------------------------------------------
// Paging and sorting rules shared by the list routes.

export const DEFAULT_LIMIT = 100;

export interface Page {
  take: number;
  skip: number;
}

/**
 * limit: default 100, < 1 → 1, > 1000 → 422; offset: < 0 → 0.
 * [quirk] toncenter answers limit and sort violations with 500 on most list routes (422 only on
 * topAccountsByBalance, vesting, dns/records). A client error is a 4xx and clients do not retry it, so
 * Atlas answers 422 on every route.
 */
export function page(q: { limit?: number; offset?: number }): Page {
  const take = q.limit === undefined ? DEFAULT_LIMIT : Math.max(1, q.limit);
  if (take > LIMITS.pageRows) throw unprocessable(`limit is not allowed: ${take} > ${LIMITS.pageRows}`);
  return { take, skip: Math.max(0, q.offset ?? 0) };
}

export type SortOrder = 'asc' | 'desc';

export function sortOrder(sort: string | undefined, fallback: SortOrder = 'desc'): SortOrder {
  if (sort === undefined) return fallback;
  switch (sort.toLowerCase()) {
    case 'asc':
    case 'a':
      return 'asc';
    case 'desc':
    case 'd':
      return 'desc';
    default:
      throw unprocessable('wrong value for sort parameter');
  }
}


// ---------------------------------------------------------------------------------------------------
// Reading a GET query into a route's schema input.

/** Normalized query: lower-case names without `[]`, every value in order. */
export function normalizeQuery(search: URLSearchParams): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of search) {
    let key = k.toLowerCase();
    if (key.endsWith('[]')) key = key.slice(0, -2);
    const list = out.get(key);
    if (list) list.push(v);
    else out.set(key, [v]);
  }
  return out;
}

/** The input a route's query schema expects: arrays for array fields, the last value for scalars. */
export function readQuery(query: Map<string, string[]>, shape: Record<string, z.ZodType>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, field] of Object.entries(shape)) {
    const values = query.get(name);
    if (!values?.length) continue;
    out[name] = docs.get(field)?.kind === 'array' ? values : values[values.length - 1]!;
  }
  return out;
}

/** gorilla/schema's wording of a conversion failure, which toncenter wraps in "failed to decode: ". */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const [key, index] = issue.path;
  if (issue.message !== CONVERSION && issue.code !== 'invalid_type') return `failed to decode: ${issue.message}${key === undefined ? '' : ` for "${String(key)}"`}`;
  return index === undefined
    ? `failed to decode: schema: error converting value for "${String(key)}"`
    : `failed to decode: schema: error converting value for index ${String(index)} of "${String(key)}"`;
}
