// swap.coffee staking and MEV protection.
// Staking: a jetton transfer to the staking pool whose payload is staking_lock#0c0ffede (period_id);
// the pool answers staking_deposit#f9471134, logs it and mints the position NFT (#be5a7595). The pool
// pays rewards on staking_claim_rewards#b30c7310 (query_id jetton_wallet jetton_amount:Coins receiver)
// with a jetton transfer. Withdrawing a position: user → position NFT (#cb03bfaf) → pool (#cb03bfaf
// query_id nft_id:uint64 owner points:Coins ^[wallet amount]) → #cb03bfaf (query_id jetton_wallet
// jetton_amount:Coins owner) and the jetton transfer back; one opcode, three roles.
// MEV protection: funds held by the protector — TON with mev_protect_hold_funds#6bc79e7e query_id, or
// a jetton transfer to it with that payload; a swap the protector gave up is mev_protect_failed_swap
// (#ee51ce51 query_id recipient) back to the user.
import { loadAddr } from '../cells';
import type { Node } from '../tree';
import { COFFEE } from './coffee';
import { incomingFromNotify } from './dex';
import { OP, openOrTransfer, notifyOf, transferOf, step } from './jettons';
import type { Matcher } from './matcher';

const payloadOp = (notify: Node) => {
  const p = notifyOf(notify).payload;
  return p && p.remainingBits >= 32 ? p.loadUint(32) : null;
};

const stakingDeposit: Matcher = (node, ctx) => {
  if (!openOrTransfer(node) || payloadOp(node) !== COFFEE.stakePayload) return;
  const leg = incomingFromNotify(node, ctx);
  const toPool = node.child(COFFEE.stakeToPool);
  const pool = toPool ?? node;
  const item = pool.child(COFFEE.stakeMintPosition);
  let index = item ? (ctx.info(item.destination).nftItem?.index ?? null) : null;
  const log = pool.children.find((c) => c.kind === 'log' && c.opcode === COFFEE.stakeToPool);
  if (index === null && log) {
    const s = log.bodyAfterOp();
    s.skip(64);
    index = s.loadUintBig(64);
  }
  ctx.claim('coffee_staking_deposit', [...leg.nodes, ...node.descendants()], {
    source: leg.transfer.source,
    source_secondary: leg.transfer.source_jetton_wallet,
    destination: pool.destination,
    destination_secondary: node.source,
    asset: leg.transfer.asset,
    amount: leg.transfer.amount,
    coffee_staking_deposit_data: { minted_item_address: item?.destination ?? null, minted_item_index: index },
  }, node.failed || !!toPool?.failed);
};

/** The position's withdrawal: the NFT's message to the pool names the owner, the index and the points. */
const stakingWithdraw: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const toPool = node.child(COFFEE.stakingWithdraw);
  const payout = toPool?.child((c) => c.kind === 'tx' && c.opcode === COFFEE.stakingWithdraw);
  const transfer = payout?.child(OP.transfer);
  if (!toPool || !payout || !transfer) return;
  const w2 = toPool.bodyAfterOp();
  w2.skip(64);
  const nftIndex = w2.loadUintBig(64);
  const owner = loadAddr(w2);
  const points = w2.loadCoins();
  const w3 = payout.bodyAfterOp();
  w3.skip(64);
  const poolWallet = loadAddr(w3);
  const amount = w3.loadCoins();
  const out = transfer.block.type === 'jetton_transfer' ? transfer.block : null;
  const logs = toPool.children.filter((c) => c.kind === 'log' && c.opcode === COFFEE.stakingWithdraw);
  ctx.claim('coffee_staking_withdraw', [node, ...step(toPool), ...logs, ...step(payout), ...(out ? out.nodes : [transfer])], {
    source: owner,
    source_secondary: (out?.fields.destination_secondary as string | null | undefined) ?? null,
    destination: toPool.source,
    destination_secondary: poolWallet,
    asset: (out?.fields.asset as string | null | undefined) ?? ctx.jettonOf(transfer.destination),
    amount,
    coffee_staking_withdraw_data: { nft_address: node.destination, nft_index: nftIndex, points },
  }, node.failed || toPool.failed || payout.failed);
};

const stakingClaim: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const transfer = node.child(OP.transfer);
  if (!transfer) return;
  const body = transferOf(transfer);
  const internal = transfer.child(OP.internalTransfer);
  ctx.claim('coffee_staking_claim_rewards', [node, ...node.descendants()], {
    source: node.destination,
    source_secondary: transfer.destination,
    destination: body.destination,
    destination_secondary: internal?.destination ?? null,
    asset: ctx.jettonOf(transfer.destination),
    amount: body.amount,
  }, node.failed || transfer.failed);
};

const mevProtectHold: Matcher = (node, ctx) => {
  if (!node.free || node.kind === 'log') return;
  ctx.claim('coffee_mev_protect_hold_funds', [node], { source: node.source, destination: node.destination, amount: node.value }, node.failed);
};

/** Jettons held the same way: a transfer to the protector whose payload is #6bc79e7e. */
const mevProtectHoldJetton: Matcher = (node, ctx) => {
  if (!openOrTransfer(node) || payloadOp(node) !== COFFEE.mevHold) return;
  const leg = incomingFromNotify(node, ctx);
  ctx.claim('coffee_mev_protect_hold_funds', [...leg.nodes, ...node.descendants()], {
    source: leg.transfer.source,
    source_secondary: leg.transfer.source_jetton_wallet,
    destination: node.destination,
    destination_secondary: node.source,
    asset: leg.transfer.asset,
    amount: leg.transfer.amount,
  }, node.failed);
};

/** The protector gave a held swap up and returns the funds (a jetton transfer, or TON with the message). */
const mevFailedSwap: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const s = node.bodyAfterOp();
  s.skip(64);
  const recipient = loadAddr(s);
  const back = node.children.find((c) => c.opcode === OP.transfer);
  ctx.claim('coffee_mev_protect_failed_swap', [node], {
    source: node.source,
    destination: recipient,
    asset: back ? ctx.jettonOf(back.destination) : null,
    amount: back ? transferOf(back).amount : node.value,
  }, node.failed);
};

export const coffeeStakingMatchers = { stakingDeposit, stakingWithdraw, stakingClaim, mevProtectHold, mevProtectHoldJetton, mevFailedSwap };
