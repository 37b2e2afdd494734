// DeDust CPMM v2 swaps and liquidity withdrawals (withdraw's flow at `withdraw` below). The pools take assets themselves (no vaults): TON comes with pay_native#a5a7cbf8
// query_id amount:Coins ^payment_payload ^payout_config, a jetton as the forward payload
// pay_jetton#cbc33949 ^payment_payload ^payout_config of a transfer whose notification reaches the pool.
// A swap's payment payload is swap#c442500f minimal_amount_out:Coins deadline:uint40 next:(Maybe ^SwapStep)
// …, each SwapStep (pool minimal_amount_out deadline next) one more pool on the route. A pool that swapped
// logs swap#78e79ba4 x_to_y:Bool amount_in:Coins amount_out:Coins … (external out) and sends the result
// on: to the next pool (pay_native, or its jetton transfer carrying pay_jetton), or to the recipient
// (payout#3216ca09 query_id amount:Coins exit_code:int32 with TON, or a plain jetton transfer). A pool
// that refuses (slippage, deadline) logs nothing and pays the input back to the sender: a failed swap,
// of the pool's other asset.
import type { Cell } from '@ton/core';
import type { ActionData, DexTransfer, PeerSwap } from '../model';
import type { Context, Node } from '../tree';
import { incomingFromNotify, outgoingTransfer, swapFields, withdrawalSide, type Leg } from './dex';
import { notifyOf, OP, openOrTransfer, step, transferOf } from './jettons';
import type { Matcher } from './matcher';

export const DEDUST_V2 = {
  payNative: 0xa5a7cbf8,
  payJetton: 0xcbc33949,
  swap: 0xc442500f,
  swapEvent: 0x78e79ba4,
  payout: 0x3216ca09,
  withdraw: 0x20b5ef89,
  withdrawLiquidity: 0xbc1531a9,
  exitLiquidity: 0xf6f6a3aa,
  withdrawalEvent: 0xc0d77b54,
} as const;

/** The swap payload's final minimal_amount_out (the last step of the route); null when it is no swap. */
function swapPayload(payment: Cell | null): { minOut: bigint } | null {
  if (!payment) return null;
  const s = payment.beginParse();
  if (s.remainingBits < 32 || s.loadUint(32) !== DEDUST_V2.swap) return null;
  let minOut = s.loadCoins();
  s.skip(40);
  for (let next = s.loadMaybeRef(); next; ) {
    const step = next.beginParse();
    step.loadAddress();
    minOut = step.loadCoins();
    step.skip(40);
    next = step.loadMaybeRef();
  }
  return { minOut };
}

/** A carrier into a pool: its payment payload (pay_native's, or the pay_jetton forward payload's). */
function paymentOf(carrier: Node): Cell | null {
  if (carrier.opcode === DEDUST_V2.payNative) {
    const s = carrier.bodyAfterOp();
    s.skip(64);
    s.loadCoins();
    return s.loadRef();
  }
  if (carrier.opcode !== OP.notify) return null;
  const p = notifyOf(carrier).payload;
  if (!p || p.remainingBits < 32 || p.loadUint(32) !== DEDUST_V2.payJetton) return null;
  return p.loadRef();
}

/** The pool's swap log (amount_in, amount_out), among the carrier's logs. */
function swapEvent(pool: Node): { amountIn: bigint; amountOut: bigint; log: Node } | null {
  const log = pool.children.find((c) => c.kind === 'log' && c.opcode === DEDUST_V2.swapEvent);
  if (!log) return null;
  const s = log.bodyAfterOp();
  s.skip(1);
  return { amountIn: s.loadCoins(), amountOut: s.loadCoins(), log };
}

/** A pool's jetton transfer that carries pay_jetton on to the next pool (its notification there). */
function nextJettonCarrier(transfer: Node): Node | undefined {
  const p = transferOf(transfer).forwardPayload?.beginParse();
  if (!p || p.remainingBits < 32 || p.loadUint(32) !== DEDUST_V2.payJetton) return undefined;
  return transfer.child(OP.internalTransfer)?.child(OP.notify);
}

/** The TON a pool paid out (payout#3216ca09) as a leg, and its exit code. */
function tonPayout(payout: Node): { leg: Leg; exitCode: number } {
  const s = payout.bodyAfterOp();
  s.skip(64);
  const amount = s.loadCoins();
  const exitCode = s.loadInt(32);
  const transfer: DexTransfer = { amount, asset: null, source: payout.source, source_jetton_wallet: null, destination: payout.destination, destination_jetton_wallet: null };
  return { leg: { transfer, nodes: [payout] }, exitCode };
}

/** The leg that brought the carrier in: the user's jetton transfer or their pay_native. */
function incoming(carrier: Node, ctx: Context, amount: bigint): Leg {
  if (carrier.opcode === OP.notify) return incomingFromNotify(carrier, ctx);
  return {
    transfer: { amount, asset: null, source: carrier.source, source_jetton_wallet: null, destination: carrier.destination, destination_jetton_wallet: null },
    nodes: [carrier],
  };
}

const nativeAmount = (carrier: Node) => {
  const s = carrier.rootAfterOp();
  s.skip(64);
  return s.loadCoins();
};

interface Route {
  hops: { amountIn: bigint; amountOut: bigint; asset: string | null }[];
  nodes: Node[];
  out: Leg | null;
}

/** Follows a swap from pool to pool: each hop's log and the asset it paid on, then the recipient's leg. */
function follow(carrier: Node, ctx: Context): Route {
  const route: Route = { hops: [], nodes: [], out: null };
  for (let pool: Node | undefined = carrier; pool; ) {
    const ev = swapEvent(pool);
    if (!ev) break;
    route.nodes.push(ev.log, ...pool.aux());
    const native: Node | undefined = pool.child(DEDUST_V2.payNative);
    const transfer: Node | undefined = native ? undefined : pool.child(OP.transfer);
    const next: Node | undefined = native ?? (transfer ? nextJettonCarrier(transfer) : undefined);
    if (next) {
      route.hops.push({ ...ev, asset: native ? null : ctx.jettonOf(transfer!.destination) });
      if (transfer) route.nodes.push(...outgoingTransfer(transfer, ctx).nodes);
      else route.nodes.push(next);
      pool = next;
      continue;
    }
    const payout = pool.child(DEDUST_V2.payout);
    route.out = payout ? tonPayout(payout).leg : transfer ? outgoingTransfer(transfer, ctx) : null;
    route.hops.push({ ...ev, asset: route.out?.transfer.asset ?? null });
    break;
  }
  return route;
}

/** The pool's other asset (a refused swap's target), from its interfaces when the index knows the pool. */
function otherAsset(pool: string | null, asset: string | null, ctx: Context): string | null {
  const assets = ctx.info(pool).dedustPool?.assets;
  return assets?.find((a) => a !== asset) ?? null;
}

const swap: Matcher = (node, ctx) => {
  if (node.kind !== 'tx' || (node.opcode === OP.notify ? !openOrTransfer(node) : !node.free)) return;
  const payload = swapPayload(paymentOf(node));
  if (!payload) return;
  const leg = incoming(node, ctx, node.opcode === DEDUST_V2.payNative ? nativeAmount(node) : 0n);
  const route = follow(node, ctx);
  if (route.hops.length === 0) {
    refused(node, ctx, leg, payload.minOut);
    return;
  }
  if (!route.out) return;
  const assets = [leg.transfer.asset, ...route.hops.map((h) => h.asset)];
  const peerSwaps: PeerSwap[] =
    route.hops.length > 1 ? route.hops.map((h, i) => ({ amount_in: h.amountIn, asset_in: assets[i]!, amount_out: h.amountOut, asset_out: assets[i + 1]! })) : [];
  const incomingTransfer = { ...leg.transfer, amount: route.hops[0]!.amountIn };
  const outgoing = { ...route.out.transfer, amount: route.hops[route.hops.length - 1]!.amountOut };
  ctx.claim('jetton_swap', [...leg.nodes, ...node.aux(), ...route.nodes, ...route.out.nodes], swapFields({ dex: 'dedust_v2', incoming: incomingTransfer, outgoing, peerSwaps, minOutAmount: payload.minOut }), node.failed);
};

/** No swap logged: the pool paid the input back (TON payout with an exit code, or the same jetton). */
function refused(node: Node, ctx: Context, leg: Leg, minOut: bigint) {
  const sender = leg.transfer.source;
  const payout = node.child(DEDUST_V2.payout);
  const back = payout && payout.destination === sender && tonPayout(payout).exitCode !== 0 ? payout : undefined;
  const transfer = back ? undefined : node.child(OP.transfer);
  const jettonBack = transfer && transferOf(transfer).destination === sender && ctx.jettonOf(transfer.destination) === leg.transfer.asset ? transfer : undefined;
  if (!back && !jettonBack) return;
  const pool = node.destination;
  const target = otherAsset(pool, leg.transfer.asset, ctx);
  const outgoing: DexTransfer = { amount: 0n, asset: target, source: pool, source_jetton_wallet: null, destination: sender, destination_jetton_wallet: null };
  const refund = back ? [back] : outgoingTransfer(jettonBack!, ctx).nodes;
  ctx.claim('jetton_swap', [...leg.nodes, ...node.aux(), ...refund], swapFields({ dex: 'dedust_v2', incoming: leg.transfer, outgoing, minOutAmount: minOut }), true);
}

/** One asset the pool paid out of a withdrawal: TON (payout#3216ca09) or its jetton transfer. */
function withdrawalLeg(n: Node, ctx: Context) {
  if (n.opcode === DEDUST_V2.payout) {
    const { leg } = tonPayout(n);
    return { nodes: leg.nodes, side: { amount: leg.transfer.amount, asset: null, dexWallet: n.source, dexJettonWallet: null, userWallet: null } };
  }
  const leg = outgoingTransfer(n, ctx);
  const t = leg.transfer;
  return { nodes: leg.nodes, side: { amount: t.amount, asset: t.asset, dexWallet: t.source, dexJettonWallet: t.source_jetton_wallet, userWallet: t.destination_jetton_wallet } };
}

/**
 * A liquidity withdrawal: withdraw#20b5ef89 query_id liquidity:Coins minimal_x_out minimal_y_out
 * auto_claim_fees:Bool … to the pool, which has the user's position burn the share
 * (withdraw_liquidity#bc1531a9) and answer exit_liquidity#f6f6a3aa; the pool then logs
 * withdrawal#c0d77b54 liquidity … and pays both assets. No log: refused (slippage), a failed withdrawal.
 * LP shares are no jettons here: no LP wallet, no LP asset. With auto_claim_fees the pool mixes the fee
 * payouts into the same payments, which can no longer be told apart: not classified (as toncenter).
 */
const withdraw: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const s = node.bodyAfterOp();
  s.skip(64);
  const requested = s.loadCoins();
  s.loadCoins();
  s.loadCoins();
  if (s.loadBit()) return;
  const burn = node.child(DEDUST_V2.withdrawLiquidity);
  const exit = burn?.child(DEDUST_V2.exitLiquidity);
  if (!burn || !exit) return;
  const event = exit.children.find((c) => c.kind === 'log' && c.opcode === DEDUST_V2.withdrawalEvent);
  // Sides in the order the pool sent them (not the order they landed in).
  const sent = (n: Node) => n.msg?.createdLt ?? 0n;
  const legs = exit.children
    .filter((c) => c.kind === 'tx' && (c.opcode === DEDUST_V2.payout || c.opcode === OP.transfer))
    .sort((a, b) => (sent(a) < sent(b) ? -1 : sent(a) > sent(b) ? 1 : 0))
    .slice(0, 2)
    .map((c) => withdrawalLeg(c, ctx));
  const burnt = event ? event.bodyAfterOp().loadCoins() : requested;
  const data: ActionData = { dex: 'dedust_v2', is_refund: !event, lp_tokens_burnt: burnt };
  legs.forEach((l, i) => Object.assign(data, withdrawalSide(i + 1, l.side)));
  for (let i = legs.length; i < 2; i++) Object.assign(data, withdrawalSide(i + 1, { amount: null, asset: null, dexWallet: null, dexJettonWallet: null, userWallet: null }));
  ctx.claim('dex_withdraw_liquidity', [node, ...step(burn), ...step(exit), ...(event ? [event] : []), ...legs.flatMap((l) => l.nodes)], {
    source: node.source,
    destination: node.destination,
    dex_withdraw_liquidity_data: data,
  }, !event || node.failed);
};

export const dedustV2Matchers = { swap, withdraw };
