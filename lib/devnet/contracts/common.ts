/**
 * Message bodies and TEP-64 content cells shared by the devnet's contracts.
 *
 * Text comments are `op 0` + the UTF-8 bytes as a snake string (continuation cells chained by the
 * first ref), the form wallets and explorers read. On-chain metadata is TEP-64 `onchain#00` with a
 * HashmapE 256 keyed by sha256(field name) whose values are refs to `snake#00` content.
 */
import { sha256_sync } from '@ton/crypto';
import { beginCell, Builder, Cell, Dictionary, Slice } from '@ton/core';

export const OP_TEXT_COMMENT = 0;
export const OP_ENCRYPTED_COMMENT = 0x2167da4b;

/** Store bytes as a snake string: as many whole bytes as fit, the rest in a chain of first refs. */
export function storeSnakeBytes(builder: Builder, bytes: Buffer): Builder {
  const room = Math.floor(builder.availableBits / 8);
  if (bytes.length <= room) return builder.storeBuffer(bytes);
  builder.storeBuffer(bytes.subarray(0, room));
  return builder.storeRef(storeSnakeBytes(beginCell(), bytes.subarray(room)).endCell());
}

/** Read a snake string (bytes of this cell and then of the chain of first refs). */
export function readSnakeBytes(slice: Slice): Buffer {
  const parts: Buffer[] = [];
  let s: Slice | null = slice;
  while (s) {
    if (s.remainingBits % 8 !== 0) throw new Error('snake string: not a whole number of bytes');
    parts.push(s.loadBuffer(s.remainingBits / 8));
    s = s.remainingRefs > 0 ? s.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts);
}

/** `op 0` text comment; long texts span several cells. */
export function textCommentBody(text: string): Cell {
  return storeSnakeBytes(beginCell().storeUint(OP_TEXT_COMMENT, 32), Buffer.from(text, 'utf8')).endCell();
}

/** Decode a body written by {@link textCommentBody}; null when the body is not a text comment. */
export function readTextComment(body: Cell): string | null {
  const s = body.beginParse();
  if (s.remainingBits < 32 || s.loadUint(32) !== OP_TEXT_COMMENT) return null;
  return readSnakeBytes(s).toString('utf8');
}

/** A body shaped like an encrypted comment: op 0x2167da4b followed by opaque bytes. */
export function encryptedCommentBody(bytes: Buffer): Cell {
  return storeSnakeBytes(beginCell().storeUint(OP_ENCRYPTED_COMMENT, 32), bytes).endCell();
}

/** An arbitrary binary body: a 32-bit op followed by raw bytes. */
export function binaryBody(op: number, bytes: Buffer): Cell {
  return storeSnakeBytes(beginCell().storeUint(op, 32), bytes).endCell();
}

/** sha256 of a TEP-64 field name, as the dictionary key. */
export function contentKey(name: string): bigint {
  return BigInt('0x' + sha256_sync(Buffer.from(name, 'utf8')).toString('hex'));
}

/** TEP-64 on-chain content (`onchain#00`) holding the given text fields. */
export function onchainContent(fields: Record<string, string>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  for (const [name, value] of Object.entries(fields)) {
    dict.set(contentKey(name), storeSnakeBytes(beginCell().storeUint(0, 8), Buffer.from(value, 'utf8')).endCell());
  }
  return beginCell().storeUint(0, 8).storeDict(dict).endCell();
}

/** Read the named fields of TEP-64 on-chain content (fields absent from the cell are left out). */
export function readOnchainContent(content: Cell, names: readonly string[]): Record<string, string> {
  const s = content.beginParse();
  if (s.loadUint(8) !== 0) throw new Error('not on-chain content');
  const dict = s.loadDict(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = dict.get(contentKey(name));
    if (!value) continue;
    const v = value.beginParse();
    if (v.loadUint(8) !== 0) throw new Error(`content field ${name}: only snake data is supported`);
    out[name] = readSnakeBytes(v).toString('utf8');
  }
  return out;
}

/** TEP-64 off-chain content (`offchain#01` + URI). */
export function offchainContent(uri: string): Cell {
  return storeSnakeBytes(beginCell().storeUint(1, 8), Buffer.from(uri, 'utf8')).endCell();
}
