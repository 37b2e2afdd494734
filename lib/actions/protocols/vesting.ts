// Vesting wallets (TON's vesting contract): the owner asks the vesting wallet to send a message
// (send#a7733acd query_id mode:uint8 ^message), answered by #f7733acd.
import { VESTING_OP as VESTING } from '../../ton/owner-ops';
import { bocBase64, loadAddr } from '../cells';
import type { Matcher } from './matcher';

const sendMessage: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== VESTING.sendMessage) return;
  const s = node.bodyAfterOp();
  const queryId = s.loadUintBig(64);
  s.skip(8);
  const message = s.loadRef();
  const m = message.beginParse();
  if (m.loadBit()) return; // not an internal message
  m.skip(3);
  loadAddr(m);
  const destination = loadAddr(m);
  const value = m.loadCoins();
  ctx.claim('vesting_send_message', [node, ...node.childrenWith(VESTING.response)], {
    source: node.source,
    destination: node.destination,
    destination_secondary: destination,
    amount: value,
    vesting_send_message_data: { query_id: queryId, message_boc: bocBase64(message, false) },
  }, node.failed);
};

const addWhitelist: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== VESTING.addWhitelist) return;
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
  ctx.claim('vesting_add_whitelist', [node, ...node.childrenWith(VESTING.response)], {
    source: node.source,
    destination: node.destination,
    vesting_add_whitelist_data: { query_id: queryId, accounts_added: added },
  }, node.failed);
};

export const vestingMatchers = { sendMessage, addWhitelist };
