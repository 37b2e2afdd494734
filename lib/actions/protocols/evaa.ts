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
import type { Slice } from '@ton/core';
import { loadAddr } from '../cells';
import type { Context, Node } from '../tree';
import { incomingFromNotify } from './dex';
import { OP, openOrTransfer, notifyOf, transferOf } from './jettons';
import type { Matcher } from './matcher';

export const EVAA = {
  supply: 0x1,
  withdraw: 0x2,
  supplyUser: 0x11,
  liquidate: 0x3,
  supplySuccess: 0x11a,
  supplyFail: 0x11f,
  withdrawCollateralized: 0x211,
  liquidateSatisfied: 0x311,
  liquidateUnsatisfied: 0x31f,
  liquidateSuccessReport: 0x311d,
  liquidateFail: 0x311f,
} as const;

/** The user contract's refunds when a withdrawal cannot go on, by the reason they name. */
const FAILURES = new Map<number, string>([
  [0x21e6, 'withdraw_locked_excess'],
  [0x21e7, 'withdraw_not_collateralized_excess'],
  [0x21e8, 'withdraw_missing_prices_excess'],
  [0x21ec, 'withdraw_execution_crashed'],
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

/** How the user contract answered a supply: supply_success or supply_fail back to the master, or a refund transfer; null without an answer. */
function supplyOutcome(master: Node, user: Node | undefined): 'success' | 'fail' | null {
  for (const c of user?.children ?? []) {
    if (c.destination === master.destination && c.opcode === EVAA.supplySuccess) return 'success';
    if (c.destination === master.destination && c.opcode === EVAA.supplyFail) return 'fail';
    if (c.opcode === OP.transfer) return 'fail';
  }
  return null;
}

/**
 * The asset a master's command to a user contract is about: supply_user#11 query_id asset_id:uint256 …,
 * after the user-contract header (user_version:Coins upgrade_info:(Maybe ^Cell) upgrade_exec:int2) that
 * current masters put before the opcode; older ones send the opcode first.
 */
function userCommandAssetId(user: Node, op: number): bigint | null {
  const headers = [(s: Slice) => (s.loadCoins(), s.loadMaybeRef(), s.skip(2)), () => undefined];
  for (const header of headers) {
    try {
      const s = user.body();
      header(s);
      if (s.loadUint(32) !== op) continue;
      s.skip(64);
      return s.loadUintBig(256);
    } catch {
      // not this layout
    }
  }
  return null;
}

/** supply_success#11a query_id owner asset_id:uint256 amount_supplied:uint64 …: what the position took in. */
function suppliedAmount(master: Node, user: Node): bigint | null {
  const ok = user.children.find((c) => c.destination === master.destination && c.opcode === EVAA.supplySuccess);
  if (!ok) return null;
  const s = ok.bodyAfterOp();
  s.skip(64);
  loadAddr(s);
  s.skip(256);
  return s.loadUintBig(64);
}

const hexId = (id: bigint | null) => (id === null ? null : '0x' + id.toString(16));

const jettonSupply: Matcher = (node, ctx) => {
  if (!openOrTransfer(node)) return;
  const payload = notifyOf(node).payload;
  if (!payload || payload.remainingBits < 32 + 2 + 267 || payload.loadUint(32) !== EVAA.supply) return;
  payload.skip(2);
  const recipient = loadAddr(payload);
  const user = toUserContract(node);
  const outcome = supplyOutcome(node, user);
  if (!user || !outcome) return;
  const leg = incomingFromNotify(node, ctx);
  ctx.claim('evaa_supply', [...leg.nodes, ...node.descendants()], {
    source: leg.transfer.source,
    source_secondary: leg.transfer.source_jetton_wallet,
    destination: recipient ?? leg.transfer.source,
    destination_secondary: user.destination,
    asset: leg.transfer.asset,
    amount: (outcome === 'success' ? suppliedAmount(node, user) : null) ?? leg.transfer.amount,
    evaa_supply_data: {
      master: node.destination,
      master_jetton_wallet: node.source,
      recipient_jetton_wallet: recipient === null || recipient === leg.transfer.source ? leg.transfer.source_jetton_wallet : null,
      is_ton: false,
      asset_id: hexId(userCommandAssetId(user, EVAA.supplyUser)),
    },
  }, outcome === 'fail' || node.failed || user.failed);
};

const tonSupply: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== EVAA.supply || node.kind !== 'tx') return;
  const user = toUserContract(node);
  const outcome = supplyOutcome(node, user);
  if (!user || !outcome) return;
  const s = node.rootAfterOp();
  s.skip(64 + 2);
  const amount = s.loadUintBig(64);
  const recipient = loadAddr(s);
  ctx.claim('evaa_supply', [node, ...node.descendants()], {
    source: node.source,
    destination: recipient ?? node.source,
    destination_secondary: user.destination,
    amount: (outcome === 'success' ? suppliedAmount(node, user) : null) ?? amount,
    evaa_supply_data: { master: node.destination, master_jetton_wallet: null, recipient_jetton_wallet: null, is_ton: true, asset_id: hexId(userCommandAssetId(user, EVAA.supplyUser)) },
  }, outcome === 'fail' || node.failed || user.failed);
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
    amount: payout ? transferOf(payout).amount : amount,
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

/** Why a liquidation was refused (the error opcode closing liquidate_unsatisfied's ref). */
const LIQUIDATION_ERRORS = new Map<number, string>([
  [0xe001, 'master_liquidating_too_much'],
  [0xe002, 'user_withdraw_in_progress'],
  [0xe003, 'not_liquidatable'],
  [0xe004, 'execution_crashed'],
  [0xe005, 'min_collateral_not_satisfied'],
  [0xe006, 'user_not_enough_collateral'],
  [0xe007, 'user_liquidating_too_much'],
  [0xe008, 'master_not_enough_liquidity'],
  [0xe009, 'liquidation_prices_missing'],
]);

/** The borrower's contract answer to the master: liquidate_satisfied (with its ref) or liquidate_unsatisfied, read. */
function liquidationAnswer(user: Node, master: string | null) {
  const answer = user.children.find((c) => c.destination === master && (c.opcode === EVAA.liquidateSatisfied || c.opcode === EVAA.liquidateUnsatisfied));
  if (!answer) return null;
  const s = answer.bodyAfterOp();
  s.skip(64);
  const borrower = loadAddr(s);
  const liquidator = loadAddr(s);
  s.skip(256); // transferred_asset_id
  const r = s.loadRef().beginParse();
  if (answer.opcode === EVAA.liquidateSatisfied) {
    r.skip(64); // delta_loan_principal
    const debt = r.loadUintBig(64);
    r.skip(64 + 64); // protocol_gift, new_user_loan_principal
    const collateral = r.loadUintBig(256);
    r.skip(64); // delta_collateral_principal
    return { answer, borrower, liquidator, debt, collateral, reward: r.loadUintBig(64), error: null };
  }
  const transferred = r.loadUintBig(64);
  const collateral = r.loadUintBig(256);
  r.skip(64 + 64);
  r.loadRef();
  const code = r.remainingBits >= 32 ? r.loadUint(32) : 0;
  return { answer, borrower, liquidator, debt: transferred, collateral, reward: null, error: LIQUIDATION_ERRORS.get(code) ?? 'unknown' };
}

/**
 * A liquidation: liquidate_master#3 (TON, or a jetton transfer whose payload is it) to the master, which
 * asks the borrower's user contract; its answer decides: satisfied (the master pays the collateral to
 * the liquidator, or fails with #311f) or unsatisfied (refused, the reason in its error code).
 */
const liquidate: Matcher = (node, ctx) => {
  const viaJetton = node.opcode === OP.notify;
  if (viaJetton ? !openOrTransfer(node) : !node.free || node.kind !== 'tx') return;
  if (viaJetton) {
    const payload = notifyOf(node).payload;
    if (!payload || payload.remainingBits < 32 || payload.loadUint(32) !== EVAA.liquidate) return;
  }
  const user = toUserContract(node);
  const a = user ? liquidationAnswer(user, node.destination) : null;
  const leg = viaJetton ? incomingFromNotify(node, ctx) : null;
  if (!user || !a) {
    immediateRejection(node, ctx, leg);
    return;
  }
  // The master took the borrower's answer but could not pay the collateral (liquidate_fail to the user contract).
  const failedLater = [...a.answer.descendants()].some((n) => n.opcode === EVAA.liquidateFail);
  const failed = !!a.error || failedLater || node.failed;
  ctx.claim('evaa_liquidate', [...(leg?.nodes ?? [node]), ...node.descendants()], {
    source: a.liquidator,
    destination: a.borrower,
    destination_secondary: user.destination,
    asset: a.collateral.toString(),
    // Nothing was received on a refusal (toncenter's collateral_amount 0).
    amount: failed ? 0n : a.reward,
    evaa_liquidate_data: { asset_id: hexId(a.collateral), fail_reason: a.error ?? (failedLater ? 'master_not_enough_liquidity' : null), debt_amount: a.debt },
  }, failed);
};

/** liquidate_master's own fields: borrower, liquidator, collateral_asset_id, and the debt it repays. */
function readLiquidateMaster(s: Slice) {
  s.skip(64);
  const borrower = loadAddr(s);
  const liquidator = loadAddr(s);
  const collateral = s.loadUintBig(256);
  s.skip(64 + 2); // min_collateral_amount, include_user_code
  return { borrower, liquidator, collateral, debt: s.loadUintBig(64) };
}

/** The master refused before asking the borrower: TON bounced, or the jettons sent back to the liquidator. */
function immediateRejection(node: Node, ctx: Context, leg: ReturnType<typeof incomingFromNotify> | null) {
  const refund = leg ? node.child(OP.transfer) : node.children.find((c) => c.msg?.bounced === true);
  if (!refund || (!leg && !node.failed)) return;
  const payload = leg ? notifyOf(node).payload : node.rootAfterOp();
  if (!payload) return;
  if (leg) payload.skip(32);
  const m = readLiquidateMaster(payload);
  ctx.claim('evaa_liquidate', [...(leg?.nodes ?? [node]), ...node.descendants()], {
    source: leg ? leg.transfer.source : node.source,
    destination: m.borrower,
    asset: m.collateral.toString(),
    amount: 0n,
    evaa_liquidate_data: { asset_id: hexId(m.collateral), fail_reason: 'immediate_rejection', debt_amount: m.debt },
  }, true);
}

export const evaaMatchers = { jettonSupply, tonSupply, withdraw, liquidate };
