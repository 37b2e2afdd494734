// STON.fi swaps. v1: the router gets the user's jetton (or pTON) notification, asks the pool with
// swap#25938561, the pool answers pay_to#f93bb43f and the router transfers the other jetton out. v2:
// swap#6664de2a to the pool, pay_to#657b54f5 back; a multi-hop route chains the router's transfer
// into the next router (one swap, its hops as peer_swaps).
import type { Node } from '../tree';
import { incomingFromNotify, outgoingTransfer, peer, swapFields, type Leg } from './dex';
import { OP } from './jettons';
import type { Matcher } from './matcher';

const V1 = { swap: 0x25938561, payTo: 0xf93bb43f };
const V2 = { swap: 0x6664de2a, payTo: 0x657b54f5 };

/** The router's outgoing transfer after a pay_to: the first one that moves something. */
function payout(payTo: Node, ctx: Parameters<Matcher>[1]): { leg: Leg; transfer: Node } {
  const transfers = payTo.childrenWith(OP.transfer);
  if (transfers.length === 0) throw new Error('no payout');
  const legs = transfers.map((t) => ({ leg: outgoingTransfer(t, ctx), transfer: t }));
  return legs.find((l) => (l.leg.transfer.amount ?? 0n) > 0n) ?? legs[0]!;
}

const swapV1: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== V1.swap || node.parent?.opcode !== OP.notify) return;
  const incoming = incomingFromNotify(node.parent, ctx);
  const payTo = node.child(V1.payTo);
  if (!payTo) return;
  const out = payout(payTo, ctx);
  ctx.claim(
    'jetton_swap',
    [...incoming.nodes, node, payTo, ...out.leg.nodes],
    swapFields({ dex: 'stonfi', incoming: incoming.transfer, outgoing: out.leg.transfer, destinationWallet: out.transfer.destination }),
    node.failed,
  );
};

const swapV2: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== V2.swap || node.parent?.opcode !== OP.notify) return;
  const hops: { incoming: Leg; outgoing: Leg; nodes: Node[] }[] = [];
  let swap: Node | undefined = node;
  while (swap) {
    const incoming = incomingFromNotify(swap.parent!, ctx);
    const payTo = swap.child(V2.payTo);
    if (!payTo) break;
    const out = payout(payTo, ctx);
    hops.push({ incoming, outgoing: out.leg, nodes: [swap, payTo] });
    const next = out.leg.nodes.find((n) => n.opcode === OP.notify);
    swap = next?.child(V2.swap);
    if (swap && !swap.free) swap = undefined;
  }
  if (hops.length === 0) return;
  const first = hops[0]!;
  const last = hops[hops.length - 1]!;
  ctx.claim(
    'jetton_swap',
    hops.flatMap((h) => [...h.incoming.nodes, ...h.nodes, ...h.outgoing.nodes]),
    swapFields({
      dex: 'stonfi_v2',
      incoming: first.incoming.transfer,
      outgoing: last.outgoing.transfer,
      peerSwaps: hops.length > 1 ? hops.map((h) => peer(h.incoming.transfer, h.outgoing.transfer)) : [],
    }),
    node.failed,
  );
};

export const stonfiMatchers = { swapV1, swapV2 };
