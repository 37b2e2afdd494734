// The messages a wallet's signed external request asks it to send. When the wallet sent nothing (the
// action phase failed), they are still what the user meant: the classifier shows them as failed
// actions. Wallet v3 (subwallet, valid_until, seqno, then mode + ^message per message), v4 (the same
// with an op byte, 0 = simple send) and v5 (signature last; `0x7369676e` request with an out-action list).
import type { Cell, Slice } from '@ton/core';
import { WALLET_V5_OP } from '../ton/wallet-v5-ops';
import { loadAddr } from './cells';

export interface IntendedMessage {
  /** Synthetic hash: base64(UTF-8(base64(message cell hash) + index)). */
  hash: string;
  destination: string | null;
  value: bigint;
  bounce: boolean;
  bounced: boolean;
  body: Cell;
  opcode: number | null;
}

const V5_SIGNED_EXTERNAL = WALLET_V5_OP.signedExternal;
const ACTION_SEND_MSG = 0x0ec3c86d;

/** The message cells of a wallet's external body, in the order the wallet sends them. */
function messageCells(body: Cell): Cell[] {
  const s = body.beginParse();
  if (s.remainingBits >= 32 && s.preloadUint(32) === V5_SIGNED_EXTERNAL) {
    s.skip(32 + 32 + 32 + 32); // op, wallet_id, valid_until, seqno
    if (!s.loadBit()) return [];
    const out: Cell[] = [];
    // OutList: prev:^(OutList n) action — the first action sits deepest.
    const walk = (list: Cell, depth: number) => {
      const l = list.beginParse();
      if (l.remainingRefs === 0 || depth > 255) return;
      const prev = l.loadRef();
      walk(prev, depth + 1);
      if (l.remainingBits >= 40 && l.loadUint(32) === ACTION_SEND_MSG) {
        l.skip(8);
        out.push(l.loadRef());
      }
    };
    walk(s.loadRef(), 0);
    return out;
  }
  s.skip(512 + 32 + 32 + 32); // signature, subwallet_id, valid_until, seqno
  const refs = s.remainingRefs;
  if (s.remainingBits === 8 * (refs + 1)) {
    if (s.loadUint(8) !== 0) return []; // v4 plugin operations
  } else if (s.remainingBits !== 8 * refs) {
    return [];
  }
  const out: Cell[] = [];
  for (let i = 0; i < refs; i++) {
    s.skip(8);
    out.push(s.loadRef());
  }
  return out;
}

/** An internal message cell (int_msg_info, relaxed or not): where it goes, its value and body; null for an external one. */
export function readInternalMessage(cell: Cell): { destination: string | null; value: bigint; bounce: boolean; bounced: boolean; body: Cell } | null {
  const s: Slice = cell.beginParse();
  if (s.loadBit()) return null; // not int_msg_info
  s.skip(1); // ihr_disabled
  const bounce = s.loadBit();
  const bounced = s.loadBit();
  loadAddr(s);
  const destination = loadAddr(s);
  const value = s.loadCoins();
  s.loadMaybeRef(); // extra currencies
  s.loadCoins(); // ihr_fee
  s.loadCoins(); // fwd_fee
  s.skip(64 + 32);
  if (s.loadBit()) {
    if (s.loadBit()) s.loadRef();
    else throw new Error('inline state init'); // rare: not decoded
  }
  const body = s.loadBit() ? s.loadRef() : s.asCell();
  return { destination, value, bounce, bounced, body };
}

function readMessage(cell: Cell, index: number): IntendedMessage | null {
  const m = readInternalMessage(cell);
  if (!m) return null;
  const { destination, value, bounce, bounced, body } = m;
  const opcode = body.bits.length >= 32 ? body.beginParse().preloadUint(32) : null;
  const inner = cell.hash().toString('base64') + String(index);
  const hash = Buffer.from(inner, 'utf8').toString('base64');
  return { hash, destination, value, bounce, bounced, body, opcode };
}

/** The intended messages of a wallet's external body (empty when it is not a known wallet request). */
export function intendedMessages(body: Cell): IntendedMessage[] {
  try {
    const out: IntendedMessage[] = [];
    messageCells(body).forEach((c, i) => {
      const m = readMessage(c, i);
      if (m) out.push(m);
    });
    return out;
  } catch {
    return [];
  }
}
