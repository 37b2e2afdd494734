// TEP-467 normalized message hashes: what the index, the pending traces and the APIs key an external
// message by, so a message re-signed or re-wrapped on its way (other source, import fee, init) is still
// found by the hash its sender computed.
import { beginCell, storeMessage, type Message } from '@ton/core';

/** TEP-467 normalized hash of an external-in message: no source, no import fee, no init, body by reference. */
export function normalizedHash(msg: Message): Buffer | null {
  if (msg.info.type !== 'external-in') return null;
  const normalized: Message = { info: { type: 'external-in', src: null, dest: msg.info.dest, importFee: 0n }, init: null, body: msg.body };
  return beginCell().store(storeMessage(normalized, { forceRef: true })).endCell().hash();
}
