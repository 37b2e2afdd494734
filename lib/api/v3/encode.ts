// toncenter v3 encodings (api-v3.md §1.2, §1.3, §1.6): standard base64 hashes, 64-bit numbers as decimal
// strings, shards as 16 upper-case hex digits, opcodes as 0x%08x, maps with sorted keys (Go prints map
// keys sorted).
import type { Prisma } from '../../db/generated/client';

type Bytes = Uint8Array;

export const b64 = (b: Bytes): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
export const optB64 = (b: Bytes | null | undefined): string | null => (b ? b64(b) : null);

/** A Buffer as Prisma wants bytes in filters. */
export const bytes = (b: Buffer | Bytes) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength) as Uint8Array<ArrayBuffer>;

export const hex = (b: Bytes): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** Signed (as stored) or unsigned shard id → `8000000000000000`. */
export const shardHex = (shard: bigint): string => BigInt.asUintN(64, shard).toString(16).toUpperCase().padStart(16, '0');

export const dec = (d: Prisma.Decimal): string => d.toFixed();
export const optDec = (d: Prisma.Decimal | null | undefined): string | null => (d == null ? null : d.toFixed());
export const optStr = (n: bigint | number | null | undefined): string | null => (n == null ? null : String(n));

/** A stored {id: amount} JSON map with Go's key order (sorted), values as strings; null stays null. */
export function amountMap(json: unknown): Record<string, string> | null {
  if (json === null || json === undefined || typeof json !== 'object' || Array.isArray(json)) return null;
  const entries = Object.entries(json as Record<string, unknown>).map(([k, v]) => [k, String(v)] as const);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

/** Sorted-key copy of a map (Go's map encoding). */
export function sortedKeys<T>(map: Map<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of [...map.keys()].sort()) out[k] = map.get(k)!;
  return out;
}
