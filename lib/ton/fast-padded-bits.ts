/**
 * @ton/core turns a cell's bits into their padded byte form (data bits, then a 1 bit and zeros up to
 * a byte boundary) for every cell hash it computes and every cell it serializes — by writing the bits
 * one at a time through a BitBuilder: about a fifth of the CPU time of parsing a block BoC. This
 * replaces that function with a byte copy (a shift per byte when the bits start mid-byte). Same
 * function, same bytes (a test compares them on every offset and length); only faster. @ton/core reads
 * it through the module's exports object at every call, so replacing the export is enough; when the
 * module is not reachable that way (a bundler inlined its own copy), nothing is patched.
 */
import { createRequire } from 'node:module';
import type { BitString } from '@ton/core';

let installed: boolean | undefined;

/** BitString's own fields (JavaScript properties; private only to TypeScript). */
interface BitStringFields {
  _data: Buffer;
  _offset: number;
  _length: number;
}

export function paddedBits(bits: BitString): Buffer {
  const out = Buffer.alloc(((bits as unknown as BitStringFields)._length + 7) >> 3);
  writePaddedBits(bits, out, 0);
  return out;
}

/** paddedBits written into `out` at byte `at` (cell hashing builds its input in one buffer). */
export function writePaddedBits(bits: BitString, out: Buffer, at: number): void {
  const { _data: data, _offset: offset, _length: length } = bits as unknown as BitStringFields;
  const bytes = (length + 7) >> 3;
  const start = offset >> 3;
  const shift = offset & 7;
  if (shift === 0) {
    data.copy(out, at, start, start + bytes);
  } else {
    for (let i = 0; i < bytes; i++) {
      const next = start + i + 1 < data.length ? data[start + i + 1]! : 0;
      out[at + i] = ((data[start + i]! << shift) | (next >> (8 - shift))) & 0xff;
    }
  }
  const tail = length & 7;
  if (tail !== 0) {
    // Clear what follows the data bits in the last byte, then set the completion tag bit.
    out[at + bytes - 1] = (out[at + bytes - 1]! & (0xff << (8 - tail))) | (1 << (7 - tail));
  }
}

/** Installs paddedBits in @ton/core once; returns whether it is in effect. */
export function installFastPaddedBits(): boolean {
  if (installed !== undefined) return installed;
  installed = false;
  try {
    const require = createRequire(import.meta.url);
    const mod = require('@ton/core/dist/boc/utils/paddedBits') as { bitsToPaddedBuffer?: unknown };
    if (typeof mod.bitsToPaddedBuffer === 'function') {
      mod.bitsToPaddedBuffer = paddedBits;
      installed = true;
    }
  } catch {
    // not reachable: @ton/core's own version stays
  }
  return installed;
}
