// JVault staking pools: staking is a jetton transfer to the pool whose payload is stake#e3a06989
// (period:uint32); the pool then writes the user's stake wallet (#d68a4ac1). Claiming rewards goes
// user → stake wallet (#78d9f109) → pool (#44bc1fe3), which transfers each reward jetton. An unstake
// request goes user → stake wallet (#0168d4b7 query_id amount:Coins) → pool (#f5c5baa3), which answers
// the stake wallet (#ae9307ce) and pays referrers (#55c35b40).
import { bocRootData } from '../../ton/boc';
import { loadAddr } from '../cells';
import type { Context } from '../tree';
import { incomingFromNotify } from './dex';
import { OP, readNotify, readTransfer } from './jettons';
import type { Matcher } from './matcher';

const JVAULT = {
  stakePayload: 0xe3a06989,
  toStakeWallet: 0xd68a4ac1,
  claim: 0x78d9f109,
  claimToPool: 0x44bc1fe3,
  unstakeRequest: 0x0168d4b7,
  unstakeToPool: 0xf5c5baa3,
};

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
  if (!node.free || node.opcode !== OP.notify) return;
  const write = node.child(JVAULT.toStakeWallet);
  const payload = readNotify(node.body()).payload;
  if (!write || !payload || payload.remainingBits < 64 || payload.loadUint(32) !== JVAULT.stakePayload) return;
  const period = payload.loadUint(32);
  const leg = incomingFromNotify(node, ctx);
  ctx.claim('jvault_stake', [...leg.nodes, ...node.descendants()], {
    source: leg.transfer.source,
    source_secondary: leg.transfer.source_jetton_wallet,
    destination: node.destination,
    asset: leg.transfer.asset,
    amount: leg.transfer.amount,
    jvault_stake_data: { period, stake_wallet: write.destination },
  }, node.failed);
};

const claim: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== JVAULT.claim) return;
  const pool = node.child(JVAULT.claimToPool);
  if (!pool) return;
  const rewards = pool.childrenWith(OP.transfer).map((t) => ({ wallet: t.destination, amount: readTransfer(t.body()).amount }));
  ctx.claim('jvault_claim', [node, ...node.descendants()], {
    source: node.source,
    source_secondary: node.destination,
    destination: pool.destination,
    jvault_claim_data: { claimed_jettons: rewards.map((r) => r.wallet), claimed_amounts: rewards.map((r) => r.amount) },
  }, node.failed);
};

const unstakeRequest: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== JVAULT.unstakeRequest || node.kind !== 'tx') return;
  const pool = node.child(JVAULT.unstakeToPool);
  if (!pool) return;
  const s = node.bodyAfterOp();
  s.skip(64);
  const amount = s.loadCoins();
  ctx.claim('jvault_unstake_request', [node, ...node.descendants()], {
    source: node.source,
    source_secondary: node.destination,
    destination: pool.destination,
    asset: lockedJetton(pool.destination, ctx),
    asset2: ctx.jettonOf(node.destination),
    amount,
  }, node.failed || pool.failed);
};

export const jvaultMatchers = { stake, claim, unstakeRequest };
