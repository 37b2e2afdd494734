/**
 * @ton/core's BitBuilder copies a bit string into a builder one bit at a time (writeBits → writeBit per
 * bit): every Slice.asCell, storeSlice and storeBits goes through it, and @ton/core's loadTransaction
 * rebuilds the cells of messages, bodies and dictionary values that way. This replaces writeBits with
 * a copy of up to 8 bits per step (whole bytes when both sides are byte-aligned). Same bits (a test
 * compares them on every offset and length); only faster. The method lives on BitBuilder's prototype,
 * so every builder sees it.
 */
import { BitBuilder, type BitString } from '@ton/core';

interface BuilderFields {
  _buffer: Buffer;
  _length: number;
}
interface BitStringFields {
  _data: Buffer;
  _offset: number;
  _length: number;
}

let installed = false;

export function writeBits(this: BuilderFields, src: BitString): void {
  const { _data: data, _offset: srcOffset, _length: n } = src as unknown as BitStringFields;
  const out = this._buffer;
  let d = this._length;
  // @ton/core's writeBit refuses a bit past the buffer (never reached: Builder stops at 1023 bits).
  if (d + n > out.length * 8) throw new Error('BitBuilder overflow');
  let s = srcOffset;
  let left = n;
  if ((d & 7) === 0 && (s & 7) === 0 && left >= 8) {
    const bytes = left >> 3;
    data.copy(out, d >> 3, s >> 3, (s >> 3) + bytes);
    d += bytes * 8;
    s += bytes * 8;
    left -= bytes * 8;
  }
  while (left > 0) {
    const take = Math.min(8 - (d & 7), left);
    const i = s >> 3;
    // up to 8 bits starting at bit s: they may span two source bytes
    const window = (data[i]! << 8) | (i + 1 < data.length ? data[i + 1]! : 0);
    const v = (window >> (16 - (s & 7) - take)) & ((1 << take) - 1);
    out[d >> 3]! |= v << (8 - (d & 7) - take);
    d += take;
    s += take;
    left -= take;
  }
  this._length = d;
}

/** Installs writeBits in @ton/core's BitBuilder once; returns whether it is in effect. */
export function installFastBitBuilder(): boolean {
  if (installed) return true;
  const proto = BitBuilder.prototype as unknown as { writeBits?: unknown };
  if (typeof proto.writeBits !== 'function') return false;
  proto.writeBits = writeBits;
  installed = true;
  return true;
}
