// EVAA lending. The user talks to the master, which keeps one user contract per owner and asks it to
// update the position; the user contract answers the master (or, on failure, refunds the owner):
// - supply: TON with supply#1 (query_id, include_user_code:int2, amount:uint64, recipient) or a jetton
//   transfer to the master whose payload is supply#1 (include_user_code:int2, recipient); the user
//   contract answers supply_success#11a.
// - withdraw: withdraw#2 (query_id, asset_id:uint256, amount:uint64, recipient); the user contract
//   answers withdraw_collateralized#211 (query_id, owner, asset_id, amount) and the master pays out
//   (TON, or a jetton transfer from its wallet), or the user contract refunds the owner with a failure
//   excess (#21e7 not collateralized; #211fe8 after the master found no funds).
// Assets are ids: sha256("TON") for TON, else the jetton's id.
import { createHash } from 'node:crypto';
import { loadAddr } from '../cells';
import type { Node } from '../tree';
import { incomingFromNotify } from './dex';
import { OP, readNotify, readTransfer } from './jettons';
import type { Matcher } from './matcher';

const EVAA = {
  supply: 0x1,
  withdraw: 0x2,
  supplySuccess: 0x11a,
  withdrawCollateralized: 0x211,
} as const;

const FAILURES = new Map<number, string>([
  [0x21e7, 'withdraw_not_collateralized_excess'],
  [0x211fe8, 'withdraw_no_funds_excess'],
]);

const TON_ASSET_ID = BigInt('0x' + createHash('sha256').update('TON').digest('hex'));

/** The master's message to the user contract: its first message that is no payout. */
const toUserContract = (master: Node) =>
  master.children.find((c) => c.kind === 'tx' && c.opcode !== null && c.opcode !== 0 && c.opcode !== OP.transfer && c.opcode !== OP.excesses);

/** A failure excess the user contract sent back, anywhere below `node`. */
function failure(node: Node): string | null {
  for (const n of node.descendants()) {
    const reason = n.opcode === null ? undefined : FAILURES.get(n.opcode);
    if (reason && n.kind === 'tx') return reason;
  }
  return null;
}

function supplied(master: Node, user: Node | undefined): boolean {
  return !!user?.children.some((c) => c.opcode === EVAA.supplySuccess && c.destination === master.destination);
}

const jettonSupply: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== OP.notify) return;
  const payload = readNotify(node.body()).payload;
  if (!payload || payload.remainingBits < 32 + 2 + 267 || payload.loadUint(32) !== EVAA.supply) return;
  payload.skip(2);
  const recipient = loadAddr(payload);
  const user = toUserContract(node);
  if (!user || !supplied(node, user)) return;
  const leg = incomingFromNotify(node, ctx);
  ctx.claim('evaa_supply', [...leg.nodes, ...node.descendants()], {
    source: leg.transfer.source,
    source_secondary: leg.transfer.source_jetton_wallet,
    destination: recipient ?? leg.transfer.source,
    destination_secondary: user.destination,
    asset: leg.transfer.asset,
    amount: leg.transfer.amount,
    evaa_supply_data: {
      master: node.destination,
      master_jetton_wallet: node.source,
      recipient_jetton_wallet: leg.transfer.source_jetton_wallet,
      is_ton: false,
    },
  }, node.failed || user.failed);
};

const tonSupply: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== EVAA.supply || node.kind !== 'tx') return;
  const user = toUserContract(node);
  if (!user || !supplied(node, user)) return;
  const s = node.rootAfterOp();
  s.skip(64 + 2);
  const amount = s.loadUintBig(64);
  const recipient = loadAddr(s);
  ctx.claim('evaa_supply', [node, ...node.descendants()], {
    source: node.source,
    destination: recipient ?? node.source,
    destination_secondary: user.destination,
    amount,
    evaa_supply_data: { master: node.destination, master_jetton_wallet: null, recipient_jetton_wallet: null, is_ton: true },
  }, node.failed || user.failed);
};

const withdraw: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== EVAA.withdraw || node.kind !== 'tx') return;
  const user = toUserContract(node);
  if (!user) return;
  const reason = failure(node);
  const collateralized = user.child(EVAA.withdrawCollateralized);
  if (!reason && !collateralized) return;
  // The request's refs carry the oracle prices with their proofs: only its first cell is read.
  const s = node.rootAfterOp();
  s.skip(64);
  const assetId = s.loadUintBig(256);
  let amount = s.loadUintBig(64);
  const recipient = loadAddr(s);
  if (collateralized) {
    const c = collateralized.bodyAfterOp();
    c.skip(64);
    loadAddr(c);
    c.skip(256);
    amount = c.loadUintBig(64);
  }
  const payout = collateralized?.child(OP.transfer);
  const internal = payout?.child(OP.internalTransfer);
  ctx.claim('evaa_withdraw', [node, ...node.descendants()], {
    source: node.source,
    destination: recipient ?? node.source,
    destination_secondary: user.destination,
    asset: payout ? ctx.jettonOf(payout.destination) : null,
    amount: payout ? readTransfer(payout.body()).amount : amount,
    evaa_withdraw_data: {
      master: node.destination,
      asset_id: '0x' + assetId.toString(16),
      is_ton: assetId === TON_ASSET_ID,
      master_jetton_wallet: payout?.destination ?? null,
      recipient_jetton_wallet: internal?.destination ?? null,
      fail_reason: reason,
    },
  }, !!reason || node.failed || user.failed);
};

export const evaaMatchers = { jettonSupply, tonSupply, withdraw };
