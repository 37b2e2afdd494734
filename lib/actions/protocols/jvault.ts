// JVault staking pools. Staking is a jetton transfer to the pool whose payload is stake#e3a06989
// (period:uint32): the pool writes the user's stake wallet (receive_jettons#d68a4ac1), which asks the
// pool to update its rewards (#f5c5baa3; the pool answers #ae9307ce and updates the referrers, #55c35b40
// / #076ee4e0) or cancels the stake (#9eada1d9) and sends the jettons back: a failed stake. Claiming
// goes user → stake wallet (claim_rewards#78d9f109 query_id jettons_to_claim:(HashmapE 267 Bit)) → pool
// (#44bc1fe3), which transfers the rewards. Unstaking (unstake_jettons#499a9262 query_id amount:Coins)
// and unstake requests (#0168d4b7 query_id amount:Coins) go user → stake wallet → pool (#f5c5baa3),
// which pays out (the jettons, a fee in TON) and updates the stake wallet; when the stake wallet refuses,
// the request never reaches the pool (the exit code says why).
import { Dictionary } from '@ton/core';
import { bocRootData } from '../../ton/boc';
import { loadAddr } from '../cells';
import type { Context, Node } from '../tree';
import { incomingFromNotify } from './dex';
import { OP, openOrTransfer, notifyOf, transferOf } from './jettons';
import type { Matcher } from './matcher';

export const JVAULT = {
  stakePayload: 0xe3a06989,
  receiveJettons: 0xd68a4ac1,
  requestUpdateRewards: 0xf5c5baa3,
  updateRewards: 0xae9307ce,
  stakeCancel: 0x9eada1d9,
  claim: 0x78d9f109,
  sendClaimedRewards: 0x44bc1fe3,
  unstake: 0x499a9262,
  unstakeRequest: 0x0168d4b7,
} as const;

/** The address a contract's data starts with, from the index's copy of its state (a stake wallet: its pool). */
function firstAddress(address: string | null, ctx: Context): string | null {
  const data = ctx.info(address).dataBoc;
  if (!data) return null;
  try {
    return loadAddr(bocRootData(data).beginParse());
  } catch {
    return null;
  }
}

/**
 * The jetton a pool locks: its data starts init:bool index:uint32 collection owner lock_wallet (the
 * pool's wallet of the staked jetton); null when the index has no data or no wallet for it.
 */
function lockedJetton(pool: string | null, ctx: Context): string | null {
  const data = ctx.info(pool).dataBoc;
  if (!data) return null;
  try {
    const s = bocRootData(data).beginParse();
    s.skip(33);
    loadAddr(s);
    loadAddr(s);
    return ctx.jettonOf(loadAddr(s));
  } catch {
    return null;
  }
}

const stake: Matcher = (node, ctx) => {
  if (!openOrTransfer(node)) return;
  const receive = node.child(JVAULT.receiveJettons);
  const payload = notifyOf(node).payload;
  if (!receive || !payload || payload.remainingBits < 64 || payload.loadUint(32) !== JVAULT.stakePayload) return;
  const request = receive.child(JVAULT.requestUpdateRewards);
  const cancel = receive.child(JVAULT.stakeCancel);
  if (!request && !cancel) return;
  const period = payload.loadUint(32);
  const leg = incomingFromNotify(node, ctx);
  ctx.claim('jvault_stake', [...leg.nodes, ...node.descendants()], {
    source: leg.transfer.source,
    source_secondary: leg.transfer.source_jetton_wallet,
    destination: node.destination,
    asset: leg.transfer.asset,
    amount: leg.transfer.amount,
    jvault_stake_data: { period, stake_wallet: receive.destination },
  }, receive.failed || !!cancel || !!request?.failed);
};

/** The jetton wallets a claim names (HashmapE 267 Bit: the keys). */
function claimedWallets(node: Node): string[] {
  const s = node.bodyAfterOp();
  s.skip(64);
  const dict = s.loadDict(Dictionary.Keys.Address(), Dictionary.Values.Bool());
  return dict.keys().map((a) => a.toRawString().toUpperCase());
}

const claim: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const pool = node.child(JVAULT.sendClaimedRewards);
  if (!pool) return;
  const rewards = pool.childrenWith(OP.transfer);
  if (rewards.length === 0) return;
  let wallets: string[];
  try {
    wallets = claimedWallets(node);
  } catch {
    wallets = rewards.map((t) => t.destination!);
  }
  ctx.claim('jvault_claim', [node, ...node.descendants()], {
    source: node.source,
    source_secondary: node.destination,
    destination: pool.destination,
    jvault_claim_data: { claimed_jettons: wallets, claimed_amounts: rewards.map((t) => transferOf(t).amount) },
  }, node.failed || pool.failed);
};

/** An unstake or an unstake request; `early`: the stake wallet never asked the pool (its exit code is the answer). */
function unstakeFields(node: Node, ctx: Context) {
  const s = node.bodyAfterOp();
  s.skip(64);
  const amount = s.loadCoins();
  const request = node.child(JVAULT.requestUpdateRewards);
  const pool = request?.destination ?? firstAddress(node.destination, ctx);
  return {
    request,
    fields: {
      source: node.source,
      source_secondary: node.destination,
      destination: pool,
      amount,
      asset: lockedJetton(pool, ctx),
      asset2: ctx.jettonOf(node.destination),
      opcode: request ? null : node.tx.computeExitCode,
    },
  };
}

const unstake: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const { request, fields } = unstakeFields(node, ctx);
  const withdrawal = request?.child(OP.transfer);
  const asset = withdrawal ? ctx.jettonOf(withdrawal.destination) : fields.asset;
  if (!fields.destination || !asset) return;
  ctx.claim('jvault_unstake', [node, ...node.descendants()], { ...fields, asset }, node.failed || !!request?.failed);
};

const unstakeRequest: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const { request, fields } = unstakeFields(node, ctx);
  if (!request && (!fields.destination || !fields.asset)) return;
  ctx.claim('jvault_unstake_request', [node, ...node.descendants()], fields, node.failed || !request || request.failed);
};

export const jvaultMatchers = { stake, claim, unstake, unstakeRequest };
