// Snake data (TL-B `SnakeData`): whole bytes in a cell, continued in its only ref. Text comments and
// on-chain strings are stored this way.
import type { Slice } from '@ton/core';

/**
 * The bytes of a snake string starting at `first`; throws when a cell has partial bytes or several refs.
 * With `maxBytes`, reading stops once that many are read (the result may be a little longer).
 */
export function snakeBytes(first: Slice, maxBytes = Infinity): Buffer {
  const parts: Buffer[] = [];
  let total = 0;
  let s = first;
  for (;;) {
    if (s.remainingBits % 8 !== 0 || s.remainingRefs > 1) throw new Error('not a snake string');
    const part = s.loadBuffer(s.remainingBits / 8);
    parts.push(part);
    total += part.length;
    if (s.remainingRefs === 0 || total >= maxBytes) return Buffer.concat(parts);
    s = s.loadRef().beginParse();
  }
}
