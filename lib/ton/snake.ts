// Snake data (TL-B `SnakeData`): whole bytes in a cell, continued in its only ref. Text comments and
// on-chain strings are stored this way.
import type { Slice } from '@ton/core';

/** The bytes of a snake string starting at `first`; throws when a cell has partial bytes or several refs. */
export function snakeBytes(first: Slice): Buffer {
  const parts: Buffer[] = [];
  let s = first;
  for (;;) {
    if (s.remainingBits % 8 !== 0 || s.remainingRefs > 1) throw new Error('not a snake string');
    parts.push(s.loadBuffer(s.remainingBits / 8));
    if (s.remainingRefs === 0) return Buffer.concat(parts);
    s = s.loadRef().beginParse();
  }
}
