// Reading message bodies: the TL-B primitives every protocol module uses (addresses as raw upper-case
// strings, coins, Either X ^X), the comment convention of TON transfers and forward payloads, and BoC
// strings as toncenter prints them.
import { beginCell, Cell, type Slice } from '@ton/core';
import { deserializeBoc, serializeBoc } from '../ton/boc';
import { snakeBytes } from '../ton/snake';

// The comment opcodes readComment needs; bodies.ts lists them with every other body.
export const COMMENT_OP = 0;
export const ENCRYPTED_COMMENT_OP = 0x2167da4b;

/** The root cell of a BoC. */
export function cellFromBoc(boc: Buffer): Cell {
  const roots = deserializeBoc(boc);
  if (roots.length !== 1) throw new Error('expected one root');
  return roots[0]!;
}

/**
 * The next 256 bits as 64 upper-case hex digits. One integer read (byte at a time with the fast
 * readers of lib/ton/fast-core.ts) costs half of loadBuffer's 32 unaligned byte reads, and every
 * address the classifier reads pays it.
 */
const loadHex256 = (s: Slice): string => s.loadUintBig(256).toString(16).toUpperCase().padStart(64, '0');

/** MsgAddress: `WC:HEX` for a std (or 256-bit var) address, null for addr_none and external addresses. */
export function loadAddr(s: Slice): string | null {
  const tag = s.loadUint(2);
  if (tag === 0) return null;
  if (tag === 1) {
    s.skip(s.loadUint(9));
    return null;
  }
  if (s.loadBit()) s.skip(s.loadUint(5)); // anycast: rewrite_pfx, kept as the address reads
  if (tag === 2) {
    const wc = s.loadInt(8);
    return `${wc}:${loadHex256(s)}`;
  }
  const len = s.loadUint(9);
  const wc = s.loadInt(32);
  if (len !== 256) {
    s.skip(len);
    return null;
  }
  return `${wc}:${loadHex256(s)}`;
}

/** A std address that must be there. */
export function loadStdAddr(s: Slice): string {
  const a = loadAddr(s);
  if (a === null) throw new Error('address expected');
  return a;
}

export const loadCoins = (s: Slice): bigint => s.loadCoins();

/** Either X ^X: the slice holding X (the rest of `s` when inline, the referenced cell's slice otherwise). */
export function loadEither(s: Slice): Slice {
  return s.loadBit() ? s.loadRef().beginParse() : s;
}

/** Either X ^X as a cell of its own (the inline remainder copied, as toncenter stores forward payloads). */
export function loadEitherCell(s: Slice): Cell {
  if (s.loadBit()) return s.loadRef();
  return s.asCell();
}

export function loadMaybeRef(s: Slice): Cell | null {
  return s.loadBit() ? s.loadRef() : null;
}

/** base64 BoC of one cell: with CRC32-C (forward payloads, custom payloads) or without (message BoCs). */
export function bocBase64(cell: Cell, crc = true): string {
  return serializeBoc(cell, { crc32: crc }).toString('base64');
}

export interface Comment {
  comment: string | null;
  encrypted: boolean;
}

/** Text comment (op 0, UTF-8 snake) or encrypted comment (op 0x2167da4b, base64 of its bytes) in a payload. */
export function readComment(payload: Slice | null): Comment {
  if (!payload || payload.remainingBits < 32) return { comment: null, encrypted: false };
  try {
    const op = payload.preloadUint(32);
    if (op !== COMMENT_OP && op !== ENCRYPTED_COMMENT_OP) return { comment: null, encrypted: false };
    const s = payload.clone();
    s.skip(32);
    const bytes = snakeBytes(s);
    if (op === ENCRYPTED_COMMENT_OP) return { comment: bytes.toString('base64'), encrypted: true };
    return { comment: bytes.toString('utf8').replaceAll('\u0000', ''), encrypted: false };
  } catch {
    return { comment: null, encrypted: false };
  }
}

/** The rest of a slice as a cell. */
export const restCell = (s: Slice): Cell => s.asCell();

export const emptyCell = (): Cell => beginCell().endCell();

/** `0x…` lower-case hex without padding, as toncenter prints big protocol integers. */
export const hex0x = (v: bigint): string => '0x' + v.toString(16);
