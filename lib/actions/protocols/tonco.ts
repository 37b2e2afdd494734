// TONCO swaps: the router gets the user's notification whose payload is POOLV3_SWAP#a7fb58f8
// (target: the router's wallet of the wanted jetton, sqrt price limit, min out), forwards the swap to
// the pool, the pool answers payTo#a1daa96d and the router transfers out (or refunds).
import { loadAddr } from '../cells';
import { incomingFromNotify, outgoingTransfer, swapFields } from './dex';
import { OP, readNotify } from './jettons';
import type { Matcher } from './matcher';

export const TONCO = { poolSwap: 0xa7fb58f8, payTo: 0xa1daa96d };

const swap: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== TONCO.poolSwap || node.parent?.opcode !== OP.notify) return;
  const notify = node.parent;
  const incoming = incomingFromNotify(notify, ctx);
  let target: string | null = null;
  let minOut: bigint | null = null;
  const payload = readNotify(notify.body()).payload;
  if (payload && payload.remainingBits >= 32 && payload.loadUint(32) === TONCO.poolSwap) {
    target = loadAddr(payload);
    payload.skip(160);
    minOut = payload.loadCoins();
  }
  const payTo = node.child(TONCO.payTo);
  const transfer = payTo?.child(OP.transfer);
  if (!payTo || !transfer) return;
  const outgoing = outgoingTransfer(transfer, ctx);
  ctx.claim(
    'jetton_swap',
    [...incoming.nodes, node, payTo, ...outgoing.nodes],
    swapFields({
      dex: 'tonco',
      incoming: incoming.transfer,
      outgoing: outgoing.transfer,
      destinationAsset: target ? ctx.jettonOf(target) : outgoing.transfer.asset,
      minOutAmount: minOut,
    }),
    node.failed,
  );
};

export const toncoMatchers = { swap };
