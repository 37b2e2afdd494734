// DeDust swaps: a vault (the jetton vault after the user's transfer notification, or the native vault
// after swap#ea06185d with TON) sends swap#61ee542d to the pool; pools chain with swap_peer#72aca8aa
// and log each hop (swap#9c610de3, external out); the last pool's payout#ad4eb6f5 makes the out
// vault pay the recipient.
import type { Slice } from '@ton/core';
import type { DexTransfer, PeerSwap } from '../model';
import type { Node } from '../tree';
import { incomingFromNotify, incomingTon, outgoingTransfer, swapFields, type Leg } from './dex';
import { OP } from './jettons';
import type { Matcher } from './matcher';

export const DEDUST = { nativeSwap: 0xea06185d, swap: 0x61ee542d, swapPeer: 0x72aca8aa, payout: 0xad4eb6f5, swapEvent: 0x9c610de3 };

/** Asset: native$0000, jetton$0001 workchain:int8 address:uint256, extra_currency$0010 id:int32. */
export function readAsset(s: Slice): string | null {
  const tag = s.loadUint(4);
  if (tag === 0) return null;
  if (tag === 1) return `${s.loadInt(8)}:${s.loadBuffer(32).toString('hex').toUpperCase()}`;
  if (tag === 2) {
    s.skip(32);
    return null;
  }
  throw new Error('unknown dedust asset');
}

// swap#9c610de3 asset_in:Asset asset_out:Asset amount_in:Coins amount_out:Coins ^[…]
export function readSwapEvent(log: Node): PeerSwap {
  const s = log.bodyAfterOp();
  const assetIn = readAsset(s);
  const assetOut = readAsset(s);
  return { asset_in: assetIn, asset_out: assetOut, amount_in: s.loadCoins(), amount_out: s.loadCoins() };
}

/** The leg into the vault that started a pool swap. */
export function vaultIncoming(vault: Node, ctx: Parameters<Matcher>[1]): Leg | null {
  if (vault.opcode === OP.notify) return incomingFromNotify(vault, ctx);
  if (vault.opcode === DEDUST.nativeSwap) {
    const s = vault.bodyAfterOp();
    s.skip(64);
    return incomingTon(vault, s.loadCoins());
  }
  return null;
}

const swap: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== DEDUST.swap || !node.parent) return;
  const incoming = vaultIncoming(node.parent, ctx);
  if (!incoming) return;
  const pools: Node[] = [node];
  let cur = node;
  for (let next = cur.child(DEDUST.swapPeer); next; next = cur.child(DEDUST.swapPeer)) {
    pools.push(next);
    cur = next;
  }
  const logs = pools.flatMap((p) => p.children.filter((c) => c.kind === 'log' && c.opcode === DEDUST.swapEvent));
  const hops = logs.map(readSwapEvent);
  const payout = cur.child(DEDUST.payout);
  if (!payout) return;
  let outgoing: Leg;
  const transfer = payout.child(OP.transfer);
  if (transfer) outgoing = outgoingTransfer(transfer, ctx);
  else {
    const paid = payout.children.find((c) => c.kind === 'tx');
    const t: DexTransfer = {
      amount: hops.length ? hops[hops.length - 1]!.amount_out : null,
      asset: null,
      source: payout.destination,
      source_jetton_wallet: null,
      destination: paid?.destination ?? null,
      destination_jetton_wallet: null,
    };
    outgoing = { transfer: t, nodes: paid ? [paid] : [] };
  }
  ctx.claim(
    'jetton_swap',
    [...incoming.nodes, ...pools, ...logs, payout, ...outgoing.nodes],
    swapFields({ dex: 'dedust', incoming: incoming.transfer, outgoing: outgoing.transfer, peerSwaps: hops.length > 1 ? hops : [] }),
    node.failed,
  );
};

export const dedustMatchers = { swap };
