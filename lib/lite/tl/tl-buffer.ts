/**
 * Strict TL (Type Language) byte buffers for the devnet's lite_api codecs.
 *
 * The generated codecs (lite-tl.gen.ts) are written against the small structural interfaces
 * below, which ton-tl's TLReadBuffer / TLWriteBuffer also satisfy, so the same generated
 * `Functions` can be handed to ton-lite-client's `engine.query()`.
 *
 * Server-side decoding uses TlReader instead of ton-tl's TLReadBuffer because the latter does not
 * bounds-check `bytes` fields, and its readInt64() flips the sign bit of the *source* buffer when
 * it reads a negative long (it mutates the input).
 */

/** Thrown on malformed TL input (truncated data, bad length prefix, unknown constructor...). */
export class TlDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TlDecodeError';
  }
}

export const TL_BOOL_TRUE = 0x997275b5;
export const TL_BOOL_FALSE = 0xbc799737;
/** `bytes` / `string` lengths are written with at most 3 bytes. */
export const TL_MAX_BYTES_LENGTH = (1 << 24) - 1;

/** What the generated decoders use (TLReadBuffer from ton-tl is compatible). */
export interface TlReaderLike {
  readInt32(): number;
  readUInt32(): number;
  readInt64(): string;
  readInt256(): Buffer;
  readBuffer(): Buffer;
  readString(): string;
  readBool(): boolean;
  readObject(): Buffer;
}

/** What the generated encoders use (TLWriteBuffer from ton-tl is compatible). */
export interface TlWriterLike {
  writeInt32(val: number): void;
  writeUInt32(val: number): void;
  writeInt64(val: string): void;
  writeInt256(val: Buffer): void;
  writeBuffer(buf: Buffer): void;
  writeString(src: string): void;
  writeBool(src: boolean): void;
}

export class TlReader implements TlReaderLike {
  #buf: Buffer;
  #offset = 0;

  constructor(buf: Uint8Array) {
    this.#buf = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  get offset(): number {
    return this.#offset;
  }

  get remaining(): number {
    return this.#buf.length - this.#offset;
  }

  #need(n: number): void {
    if (this.#offset + n > this.#buf.length) {
      throw new TlDecodeError(`TL: need ${n} bytes at offset ${this.#offset}, have ${this.remaining}`);
    }
  }

  /** Reads the next u32 without consuming it. */
  peekUInt32(): number {
    this.#need(4);
    return this.#buf.readUInt32LE(this.#offset);
  }

  readInt32(): number {
    this.#need(4);
    const v = this.#buf.readInt32LE(this.#offset);
    this.#offset += 4;
    return v;
  }

  readUInt32(): number {
    this.#need(4);
    const v = this.#buf.readUInt32LE(this.#offset);
    this.#offset += 4;
    return v;
  }

  readInt64(): string {
    this.#need(8);
    const v = this.#buf.readBigInt64LE(this.#offset);
    this.#offset += 8;
    return v.toString(10);
  }

  readInt256(): Buffer {
    this.#need(32);
    const v = Buffer.from(this.#buf.subarray(this.#offset, this.#offset + 32));
    this.#offset += 32;
    return v;
  }

  readBuffer(): Buffer {
    this.#need(1);
    let len = this.#buf[this.#offset];
    let header = 1;
    if (len === 255) {
      throw new TlDecodeError('TL: invalid bytes length prefix 0xff');
    }
    if (len === 254) {
      this.#need(4);
      len = this.#buf.readUIntLE(this.#offset + 1, 3);
      header = 4;
    }
    const padded = (header + len + 3) & ~3;
    this.#need(padded);
    const start = this.#offset + header;
    const v = Buffer.from(this.#buf.subarray(start, start + len));
    this.#offset += padded;
    return v;
  }

  readString(): string {
    return this.readBuffer().toString('utf-8');
  }

  readBool(): boolean {
    const v = this.readUInt32();
    if (v === TL_BOOL_TRUE) return true;
    if (v === TL_BOOL_FALSE) return false;
    throw new TlDecodeError(`TL: bad Bool constructor 0x${v.toString(16)}`);
  }

  /** The rest of the input (used by functions returning `Object`). */
  readObject(): Buffer {
    const v = Buffer.from(this.#buf.subarray(this.#offset));
    this.#offset = this.#buf.length;
    return v;
  }

  /** Throws unless every byte was consumed. */
  expectEnd(what = 'object'): void {
    if (this.remaining !== 0) {
      throw new TlDecodeError(`TL: ${this.remaining} trailing bytes after ${what}`);
    }
  }
}

export class TlWriter implements TlWriterLike {
  #buf: Buffer;
  #used = 0;

  constructor(initialSize = 256) {
    this.#buf = Buffer.allocUnsafe(Math.max(16, initialSize));
  }

  get length(): number {
    return this.#used;
  }

  #ensure(n: number): void {
    if (this.#used + n <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.#used + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.#buf.copy(next, 0, 0, this.#used);
    this.#buf = next;
  }

  writeInt32(val: number): void {
    if (!Number.isInteger(val) || val < -0x80000000 || val > 0x7fffffff) {
      throw new RangeError(`TL: int32 out of range: ${val}`);
    }
    this.#ensure(4);
    this.#buf.writeInt32LE(val, this.#used);
    this.#used += 4;
  }

  writeUInt32(val: number): void {
    if (!Number.isInteger(val) || val < 0 || val > 0xffffffff) {
      throw new RangeError(`TL: uint32 out of range: ${val}`);
    }
    this.#ensure(4);
    this.#buf.writeUInt32LE(val, this.#used);
    this.#used += 4;
  }

  /** Accepts a decimal string (ton-tl's TLLong); bigint / number are tolerated at runtime. */
  writeInt64(val: string | bigint | number): void {
    let v: bigint;
    try {
      v = BigInt(val);
    } catch {
      throw new RangeError(`TL: bad long: ${String(val)}`);
    }
    if (v < -(1n << 63n) || v >= 1n << 64n) {
      throw new RangeError(`TL: long out of range: ${v}`);
    }
    this.#ensure(8);
    this.#buf.writeBigUInt64LE(BigInt.asUintN(64, v), this.#used);
    this.#used += 8;
  }

  writeInt256(val: Buffer): void {
    if (!val || val.length !== 32) {
      throw new RangeError(`TL: int256 must be 32 bytes, got ${val?.length}`);
    }
    this.writeRaw(val);
  }

  writeBuffer(buf: Uint8Array): void {
    const len = buf.length;
    if (len > TL_MAX_BYTES_LENGTH) {
      throw new RangeError(`TL: bytes too long: ${len}`);
    }
    const header = len <= 253 ? 1 : 4;
    const padded = (header + len + 3) & ~3;
    this.#ensure(padded);
    if (header === 1) {
      this.#buf[this.#used] = len;
    } else {
      this.#buf[this.#used] = 254;
      this.#buf.writeUIntLE(len, this.#used + 1, 3);
    }
    this.#buf.set(buf, this.#used + header);
    this.#buf.fill(0, this.#used + header + len, this.#used + padded);
    this.#used += padded;
  }

  writeString(src: string): void {
    this.writeBuffer(Buffer.from(src, 'utf-8'));
  }

  writeBool(src: boolean): void {
    this.writeUInt32(src ? TL_BOOL_TRUE : TL_BOOL_FALSE);
  }

  /** Appends raw bytes (no length prefix). */
  writeRaw(bytes: Uint8Array): void {
    this.#ensure(bytes.length);
    this.#buf.set(bytes, this.#used);
    this.#used += bytes.length;
  }

  /** A copy of the bytes written so far. */
  build(): Buffer {
    return Buffer.from(this.#buf.subarray(0, this.#used));
  }
}
