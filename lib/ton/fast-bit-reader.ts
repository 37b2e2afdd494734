/**
 * @ton/core's BitReader reads every integer one bit at a time, adding `1n << BigInt(i)` per set bit:
 * a BigInt allocation or two per bit of every address, amount, lt and hash a parser loads — the
 * largest single cost of loading a block's transactions, and much of the garbage collector's work.
 * This replaces its two integer readers with byte-at-a-time ones (a number accumulates up to 44 bits,
 * then joins the BigInt). Same values, same out-of-bounds errors (a test compares them on every offset
 * and length); only faster. The methods live on BitReader's prototype, so every reader sees them.
 */
import { BitReader } from '@ton/core';

/** BitReader's and BitString's own fields (JavaScript properties; private only to TypeScript). */
interface ReaderFields {
  _bits: { _data: Buffer; _offset: number; _length: number };
}
interface ReaderMethods {
  _preloadUint(bits: number, offset: number): bigint;
  _preloadInt(bits: number, offset: number): bigint;
}

let installed = false;

/** `bits` bits at `offset` of the reader's bit string, as an unsigned integer. */
export function preloadUint(this: ReaderFields, bits: number, offset: number): bigint {
  if (bits === 0) return 0n;
  const { _data: data, _offset: start, _length: length } = this._bits;
  // BitString.at's errors, for the first bit out of range
  if (offset < 0) throw new Error(`Index ${offset} < 0 is out of bounds`);
  if (offset + bits > length) throw new Error(`Index ${Math.max(offset, length)} > ${length} is out of bounds`);
  let pos = start + offset;
  let left = bits;
  let big = 0n;
  let acc = 0; // < 2^52: exact in a double
  let accBits = 0;
  while (left > 0) {
    const inByte = pos & 7;
    const take = Math.min(8 - inByte, left);
    acc = acc * (1 << take) + ((data[pos >> 3]! >> (8 - inByte - take)) & ((1 << take) - 1));
    accBits += take;
    pos += take;
    left -= take;
    if (accBits > 44 && left > 0) {
      big = (big << BigInt(accBits)) | BigInt(acc);
      acc = 0;
      accBits = 0;
    }
  }
  return big === 0n ? BigInt(acc) : (big << BigInt(accBits)) | BigInt(acc);
}

/** `bits` bits at `offset`, as a two's-complement signed integer. */
export function preloadInt(this: ReaderFields, bits: number, offset: number): bigint {
  if (bits === 0) return 0n;
  const u = preloadUint.call(this, bits, offset);
  return u >= 1n << BigInt(bits - 1) ? u - (1n << BigInt(bits)) : u;
}

/** Installs the byte-at-a-time readers in @ton/core's BitReader once; returns whether they are in effect. */
export function installFastBitReader(): boolean {
  if (installed) return true;
  const proto = BitReader.prototype as unknown as ReaderMethods;
  if (typeof proto._preloadUint !== 'function' || typeof proto._preloadInt !== 'function') return false;
  proto._preloadUint = preloadUint as ReaderMethods['_preloadUint'];
  proto._preloadInt = preloadInt as ReaderMethods['_preloadInt'];
  installed = true;
  return true;
}
