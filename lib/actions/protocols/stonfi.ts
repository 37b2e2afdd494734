// STON.fi swaps.
// v1: the user's jetton (or pTON) transfer notifies the router, whose payload is swap#25938561
// (token_wallet: the router's wallet of the wanted jetton, min_out, to_address, has_ref, ref_address?);
// the router asks the pool (swap#25938561 query_id to_address sender_address amount:Coins min_out:Coins
// has_ref ^[from_real_user ref_address]) and the pool answers pay_to#f93bb43f (query_id owner
// exit_code:uint32 ^[amount0_out token0 amount1_out token1]) once for the user and, with a referrer,
// once more with exit code ok_ref: that one pays the referrer and stays its own jetton transfer. Exit
// codes other than swap_ok (no liquidity, reserve error) refund the input: a failed swap.
// v2: the router sends swap#6664de2a (query_id from_user left_amount right_amount ^[transferred_op
// token_wallet1 refund excesses deadline ^[min_out receiver fwd_gas custom_payload …]]) to the pool,
// which answers pay_to#657b54f5 (query_id to excesses original_caller exit_code:uint32 custom_payload
// ^[fwd_ton_amount amount0_out token0 amount1_out token1]); a multi-hop route chains the router's
// transfer into the next router (one swap, its hops as peer_swaps). An exit code other than swap_ok
// refunds: failed, and the asset asked for is the target pool's.
import type { Slice } from '@ton/core';
import { loadAddr } from '../cells';
import type { PeerSwap } from '../model';
import type { Context, Node } from '../tree';
import { incomingFromNotify, outgoingTransfer, peer, swapFields, type Leg } from './dex';
import { assetOfJetton, OP, notifyOf } from './jettons';
import type { Matcher } from './matcher';

export const STONFI = { v1Swap: 0x25938561, v1PayTo: 0xf93bb43f, v2Swap: 0x6664de2a, v2PayTo: 0x657b54f5, v2CrossSwap: 0x69cf1a5b } as const;

const EXIT = { ok: 0xc64370e5, okRef: 0x45078540, noLiquidity: 0x5ffe1295, reserveError: 0x38976e9b } as const;
const SENDER_EXITS: readonly number[] = [EXIT.ok, EXIT.noLiquidity, EXIT.reserveError];

/** pay_to's exit code and the leg it pays: the non-zero one of its two amounts. */
function readPayTo(s: Slice, v2: boolean): { exit: number; amount: bigint; token: string | null } {
  s.skip(64);
  loadAddr(s);
  if (v2) {
    loadAddr(s);
    loadAddr(s);
  }
  const exit = s.loadUint(32);
  if (v2) s.loadMaybeRef();
  const info = s.loadRef().beginParse();
  if (v2) info.loadCoins();
  const amount0 = info.loadCoins();
  const token0 = loadAddr(info);
  const amount1 = info.loadCoins();
  const token1 = loadAddr(info);
  return amount0 > 0n ? { exit, amount: amount0, token: token0 } : { exit, amount: amount1, token: token1 };
}

/** The router wallet of the jetton asked for, from the swap payload the user's transfer carried. */
function requestedWallet(notify: Node): string | null {
  const p = notifyOf(notify).payload;
  if (!p || p.remainingBits < 32 || p.loadUint(32) !== STONFI.v1Swap) return null;
  return loadAddr(p);
}

const swapV1: Matcher = (node, ctx) => {
  const notify = node.parent;
  if (!node.free || notify?.opcode !== OP.notify) return;
  const incoming = incomingFromNotify(notify, ctx);
  // The user's payments: every sender-related pay_to that moved something; the larger one is the swap's.
  const payments = node.children
    .filter((c) => c.opcode === STONFI.v1PayTo && c.child(OP.transfer))
    .map((c) => ({ node: c, ...readPayTo(c.bodyAfterOp(), false) }))
    .filter((p) => SENDER_EXITS.includes(p.exit));
  if (payments.length === 0) return;
  const main = payments.reduce((a, b) => (b.amount > a.amount ? b : a));
  const transfer = main.node.child(OP.transfer)!;
  const out = outgoingTransfer(transfer, ctx);
  const wanted = requestedWallet(notify);
  ctx.claim(
    'jetton_swap',
    [...incoming.nodes, node, ...payments.flatMap((p) => [p.node, ...p.node.aux()]), ...out.nodes],
    swapFields({
      dex: 'stonfi',
      incoming: incoming.transfer,
      outgoing: { ...out.transfer, amount: main.amount },
      destinationAsset: wanted ? ctx.jettonOf(wanted) : out.transfer.asset,
      destinationWallet: wanted ?? transfer.destination,
    }),
    main.exit !== EXIT.ok || node.failed,
  );
};

/** The target jetton of a v2 route: the last pool wallet the swap (and its cross-swap chain) names. */
function v2Target(swap: Node, ctx: Context): string | null {
  const s = swap.bodyAfterOp();
  s.skip(64);
  loadAddr(s);
  s.loadCoins();
  s.loadCoins();
  const dex = s.loadRef().beginParse();
  dex.skip(32);
  let wallet = loadAddr(dex);
  loadAddr(dex);
  loadAddr(dex);
  dex.skip(64);
  const body = dex.loadRef().beginParse();
  body.loadCoins();
  loadAddr(body);
  body.loadCoins();
  let next = body.loadMaybeRef()?.beginParse();
  for (let hops = 0; next && next.remainingBits >= 32 && hops < 16; hops++) {
    const op = next.loadUint(32);
    if (op !== STONFI.v2Swap && op !== STONFI.v2CrossSwap) break;
    wallet = loadAddr(next);
    if (next.remainingRefs === 0) break;
    const cross = next.loadRef().beginParse();
    cross.loadCoins();
    cross.loadCoins();
    next = cross.remainingRefs > 0 ? cross.loadMaybeRef()?.beginParse() : undefined;
  }
  return assetOfJetton(ctx.jettonOf(wallet));
}

/** A hop's assets with proxy TON named as TON. */
const ptonAsTon = (p: PeerSwap): PeerSwap => ({ ...p, asset_in: assetOfJetton(p.asset_in), asset_out: assetOfJetton(p.asset_out) });

interface Hop {
  incoming: Leg;
  outgoing: Leg;
  nodes: Node[];
  ok: boolean;
}

const swapV2: Matcher = (node, ctx) => {
  if (!node.free || node.parent?.opcode !== OP.notify) return;
  const hops: Hop[] = [];
  let swap: Node | undefined = node;
  while (swap) {
    const incoming = incomingFromNotify(swap.parent!, ctx);
    const payTo = swap.child(STONFI.v2PayTo);
    const transfer = payTo?.child(OP.transfer);
    if (!payTo || !transfer) break;
    const { exit } = readPayTo(payTo.bodyAfterOp(), true);
    const outgoing = outgoingTransfer(transfer, ctx);
    hops.push({ incoming, outgoing, nodes: [swap, payTo, ...payTo.aux()], ok: exit === EXIT.ok });
    const next = outgoing.nodes.find((n) => n.opcode === OP.notify);
    swap = next?.child(STONFI.v2Swap);
    if (swap && !swap.free) swap = undefined;
  }
  if (hops.length === 0) return;
  const first = hops[0]!;
  const last = hops[hops.length - 1]!;
  const ok = hops.every((h) => h.ok);
  const incoming = { ...first.incoming.transfer, asset: assetOfJetton(first.incoming.transfer.asset) };
  const outgoing = { ...last.outgoing.transfer, asset: assetOfJetton(last.outgoing.transfer.asset) };
  ctx.claim(
    'jetton_swap',
    hops.flatMap((h) => [...h.incoming.nodes, ...h.nodes, ...h.outgoing.nodes]),
    swapFields({
      dex: 'stonfi_v2',
      incoming,
      outgoing,
      peerSwaps: hops.length > 1 ? hops.map((h) => ptonAsTon(peer(h.incoming.transfer, h.outgoing.transfer))) : [],
      sourceAsset: incoming.asset,
      // A refund pays back what came in: the asset asked for is the route's target.
      destinationAsset: ok ? outgoing.asset : v2Target(node, ctx),
    }),
    !ok || node.failed,
  );
};

export const stonfiMatchers = { swapV1, swapV2 };
