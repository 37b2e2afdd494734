// STON.fi v2 liquidity. Providing: each asset reaches the router (a jetton transfer's notification, or
// pTON), the router sends provide_lp#37c096df (query_id from_user amount1:Coins amount2:Coins …) to the
// pool, the pool adds it to the user's LP account (#50c6a654); once both sides are in, the account
// asks the pool (cb_add_liquidity#06ecd527) to mint the LP jettons (internal_transfer) or, when the
// provision does not fit, refunds (#50c6a654 back). Withdrawing: burning LP jettons reaches the pool
// (#297437cf), or an LP account refunds what it holds (refund_me#132b9a2c → #0f98e2b8); the pool pays
// each asset through the router (pay_to#657b54f5 → the router's jetton transfer, pTON for TON).
import type { ActionData } from '../model';
import type { Block, Context, Node } from '../tree';
import { loadAddr } from '../cells';
import { STONFI } from './stonfi';
import { PTON_TON_TRANSFER, mergeDepositHalves, withdrawalSide } from './dex';
import { assetOfJetton, OP, internalTransferOf } from './jettons';
import type { Matcher } from './matcher';

export const STONFI_LP = {
  provide: 0x37c096df,
  addLiquidity: 0x50c6a654,
  cbAddLiquidity: 0x06ecd527,
  burnNotification: 0x297437cf,
  refundMe: 0x132b9a2c,
  refundToPool: 0x0f98e2b8,
  payTo: STONFI.v2PayTo,
} as const;

/** The transfer that brought one side to the router: its jetton_transfer block, or a pTON transfer (TON). */
function provided(notify: Node): { block: Block | null; ton: boolean; nodes: Node[] } {
  const b = notify.block;
  if (b.type === 'jetton_transfer' && !b.parent) return { block: b, ton: false, nodes: b.nodes };
  const wallet = notify.parent;
  if (wallet?.opcode === PTON_TON_TRANSFER) return { block: null, ton: true, nodes: [wallet, notify] };
  return { block: null, ton: false, nodes: [notify] };
}

const provide: Matcher = (node, ctx) => {
  const notify = node.parent;
  if (!node.free || notify?.opcode !== OP.notify) return;
  const add = node.child(STONFI_LP.addLiquidity);
  if (!add) return;
  const s = node.bodyAfterOp();
  s.skip(64);
  const sender = loadAddr(s);
  const amount1 = s.loadCoins();
  const amount2 = s.loadCoins();
  const leg = provided(notify);
  const cb = add.child(STONFI_LP.cbAddLiquidity);
  const lp = cb?.child(OP.internalTransfer);
  const refund = cb?.child(STONFI_LP.addLiquidity);
  const nodes = [...leg.nodes, node, ...add.aux(), add, ...(cb ? [cb, ...cb.descendants()] : [])];
  const data: ActionData = {
    dex: 'stonfi_v2',
    amount1: amount1 > 0n ? amount1 : amount2,
    asset1: leg.ton ? null : assetOfJetton((leg.block?.fields.asset as string | null | undefined) ?? null),
    user_jetton_wallet_1: (leg.block?.fields.source_secondary as string | null | undefined) ?? null,
    amount2: null,
    asset2: null,
    user_jetton_wallet_2: null,
    lp_tokens_minted: lp ? internalTransferOf(lp).amount : null,
  };
  const block = ctx.claim('dex_deposit_liquidity', nodes, { source: sender, destination: node.destination, dex_deposit_liquidity_data: data }, !!refund || node.failed);
  const origin = (leg.block?.first ?? leg.nodes[0])?.parent;
  block.tag = origin ? `stonfi_v2_provide:${origin.tx.hash}` : null;
  mergeSides(block, ctx);
};

/**
 * Both sides sent at once (two transfers from one transaction) into one pool for one user: the side
 * that completed the LP account (the one that minted) takes in the other side's provision as its
 * second asset, one action of both, as toncenter pairs them. Two sides that both minted nothing (a
 * refund, or both still pending) stay apart.
 */
function mergeSides(block: Block, ctx: Context): void {
  if (!block.tag) return;
  const other = ctx.blocks.find(
    (b) => b !== block && b.tag === block.tag && b.fields.source === block.fields.source && b.fields.destination === block.fields.destination,
  );
  if (!other) return;
  const mine = block.fields.dex_deposit_liquidity_data as ActionData;
  const theirs = other.fields.dex_deposit_liquidity_data as ActionData;
  if ((mine.lp_tokens_minted ?? null) === (theirs.lp_tokens_minted ?? null)) return;
  const [into, from] = mine.lp_tokens_minted != null ? [block, other] : [other, block];
  mergeDepositHalves(ctx, into, from, (data, side) => ({
    ...data,
    amount2: side.amount1 ?? null,
    asset2: side.asset1 ?? null,
    user_jetton_wallet_2: side.user_jetton_wallet_1 ?? null,
  }));
}

/** One asset the pool paid out through the router: the router's transfer (and pTON's TON for TON). */
function payout(payTo: Node, ctx: Context) {
  const t = payTo.children.find((c) => c.opcode === OP.transfer);
  if (!t) return null;
  const b = t.block;
  const pton = t.child(PTON_TON_TRANSFER);
  const f = b.type === 'jetton_transfer' && !b.parent ? b.fields : null;
  let amount = (f?.amount as bigint | undefined) ?? null;
  if (pton) {
    const s = pton.bodyAfterOp();
    s.skip(64);
    amount = s.loadCoins();
  }
  return {
    nodes: [payTo, ...payTo.aux(), ...(f ? b.nodes : [t]), ...(pton ? [pton] : [])],
    amount,
    asset: pton ? null : assetOfJetton((f?.asset as string | null | undefined) ?? ctx.jettonOf(t.destination)),
    dexWallet: (f?.source as string | null | undefined) ?? t.source,
    dexJettonWallet: (f?.source_secondary as string | null | undefined) ?? t.destination,
    userWallet: (f?.destination_secondary as string | null | undefined) ?? null,
  };
}

const withdraw: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const fromBurn = node.opcode === STONFI_LP.burnNotification;
  const burn = fromBurn ? node.parent?.block : null;
  if (fromBurn ? burn?.type !== 'jetton_burn' || burn.parent : node.parent?.opcode !== STONFI_LP.refundMe) return;
  const payouts = node.children.filter((c) => c.opcode === STONFI_LP.payTo).map((p) => payout(p, ctx)).filter((p) => p !== null);
  if (payouts.length === 0) return;
  const data: ActionData = { dex: 'stonfi_v2', is_refund: !fromBurn, lp_tokens_burnt: (burn?.fields.amount as bigint | undefined) ?? null };
  payouts.slice(0, 2).forEach((p, i) => {
    Object.assign(data, withdrawalSide(i + 1, p));
  });
  const start = burn ? burn.nodes : [node.parent!];
  ctx.claim('dex_withdraw_liquidity', [...start, node, ...payouts.flatMap((p) => p.nodes)], {
    source: burn ? ((burn.fields.source as string | null | undefined) ?? null) : node.parent!.source,
    source_secondary: burn ? ((burn.fields.source_secondary as string | null | undefined) ?? null) : null,
    destination: node.destination,
    asset: (burn?.fields.asset as string | null | undefined) ?? null,
    dex_withdraw_liquidity_data: data,
  }, node.failed);
};

export const stonfiLiquidityMatchers = { provide, withdraw };
