// Vesting wallets (TON's vesting contract). The owner asks the vesting wallet to send a message
// (send#a7733acd query_id mode:uint8 ^message), answered by #f7733acd; it succeeded when the wallet
// really sent that message (same destination and body). The vesting sender whitelists addresses
// (add_whitelist#7258a69b query_id addr:MsgAddress ^[addr …]), answered by #f258a69b.
import { VESTING_OP as VESTING } from '../../ton/owner-ops';
import { bocBase64, cellFromBoc, loadAddr } from '../cells';
import { readInternalMessage } from '../wallet';
import type { Node } from '../tree';
import type { Matcher } from './matcher';

const WHITELIST_RESPONSE = 0xf258a69b;

/** Whether the vesting wallet's transaction sent the message it was asked to (destination and body hash). */
function sent(node: Node, destination: string | null, bodyHash: Buffer): boolean {
  return node.tx.outMsgs.some((m) => {
    if (m.destination !== destination || !m.body) return false;
    try {
      return cellFromBoc(m.body).hash().equals(bodyHash);
    } catch {
      return false;
    }
  });
}

const sendMessage: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const s = node.bodyAfterOp();
  const queryId = s.loadUintBig(64);
  s.skip(8);
  const message = s.loadRef();
  const inner = readInternalMessage(message);
  if (!inner) return;
  const response = node.child(VESTING.response);
  ctx.claim('vesting_send_message', response ? [node, response] : [node], {
    source: node.source,
    destination: node.destination,
    destination_secondary: inner.destination,
    amount: inner.value,
    vesting_send_message_data: { query_id: queryId, message_boc: bocBase64(message, false) },
  }, node.failed || !response || !sent(node, inner.destination, inner.body.hash()));
};

const addWhitelist: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const s = node.bodyAfterOp();
  const queryId = s.loadUintBig(64);
  const added: string[] = [];
  for (let c = s; ; ) {
    while (c.remainingBits >= 267) {
      const a = loadAddr(c);
      if (a) added.push(a);
    }
    if (c.remainingRefs === 0) break;
    c = c.loadRef().beginParse();
  }
  const response = node.child(WHITELIST_RESPONSE);
  ctx.claim('vesting_add_whitelist', response ? [node, response] : [node], {
    source: node.source,
    destination: node.destination,
    vesting_add_whitelist_data: { query_id: queryId, accounts_added: added },
  }, node.failed || !response);
};

export const vestingMatchers = { sendMessage, addWhitelist };
