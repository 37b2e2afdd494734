// DeDust swaps: a vault (the jetton vault after the user's transfer notification, or the native vault
// after swap#ea06185d with TON) sends swap#61ee542d to the pool; pools chain with swap_peer#72aca8aa
// and log each hop (swap#9c610de3, external out); the last pool's payout#ad4eb6f5 makes the out
// vault pay the recipient.
import type { Slice } from '@ton/core';
import type { DexTransfer, PeerSwap } from '../model';
import type { Node } from '../tree';
import { outgoingTransfer, swapFields, vaultLeg, type Leg } from './dex';
import { OP, readInternalTransfer } from './jettons';
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

const swap: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== DEDUST.swap || !node.parent) return;
  const incoming = vaultLeg(node.parent, ctx, [DEDUST.nativeSwap]);
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


const DEPOSIT = { toFactory: 0xf04ec526, toDepositContract: 0x54240fe5, toPool: 0xb56b9598, accepted: 0xaae79256, cancelled: 0xe1a36cd4, payout: 0x6b0b787f, nativeDeposit: 0xd55e4686 };

/** Two (Asset, Coins) pairs filling a cell: a deposit's target balances. */
function readBalances(c: import('@ton/core').Cell): { asset: string | null; amount: bigint }[] | null {
  try {
    const s = c.beginParse();
    const out = [
      { asset: readAsset(s), amount: s.loadCoins() },
      { asset: readAsset(s), amount: s.loadCoins() },
    ];
    return s.remainingBits === 0 ? out : null;
  } catch {
    return null;
  }
}

/** Everything a node caused, itself included. */
const subtree = (n: Node): Node[] => [n, ...n.descendants()];

/** A deposit completed in this trace: the deposit contract sent both balances to the pool. */
const deposit: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== DEPOSIT.toPool) return;
  const contract = node.source;
  const pool = node.destination;
  const targets = node.cell!.refs.map(readBalances).find((b) => b !== null) ?? null;
  const order = ctx.info(pool).dedustPool?.assets ?? targets?.map((t) => t.asset) ?? [];
  const legs: Leg[] = [];
  const nodes: Node[] = [];
  for (const n of ctx.nodes) {
    if (n.opcode !== DEPOSIT.toDepositContract || n.destination !== contract) continue;
    const vault = n.parent?.opcode === DEPOSIT.toFactory ? n.parent.parent : null;
    const leg = vault ? vaultLeg(vault, ctx, [DEDUST.nativeSwap, DEPOSIT.nativeDeposit]) : null;
    if (!leg) continue;
    legs.push(leg);
    nodes.push(...leg.nodes, ...subtree(leg.nodes[0]!));
  }
  if (legs.length === 0) return;
  const slot = (i: number) => legs.find((l) => l.transfer.asset === order[i]);
  const minted = node.child(OP.internalTransfer);
  const excesses = [...node.descendants()]
    .filter((n) => n.opcode === DEPOSIT.payout)
    .map((p) => {
      const s = p.bodyAfterOp();
      s.skip(64);
      const transfer = p.child(OP.transfer);
      if (transfer) return { asset: ctx.jettonOf(transfer.destination), amount: s.loadCoins() };
      // the native vault pays the TON itself: the amount is what it sent
      const paid = p.children.find((c) => c.kind === 'tx');
      return { asset: null, amount: paid?.value ?? null };
    });
  const a = slot(0)?.transfer;
  const b = slot(1)?.transfer;
  ctx.claim(
    'dex_deposit_liquidity',
    nodes,
    {
      source: legs[0]!.transfer.source,
      destination: pool,
      destination_secondary: contract,
      dex_deposit_liquidity_data: {
        dex: 'dedust',
        asset1: a ? a.asset : null,
        amount1: a?.amount ?? null,
        asset2: b ? b.asset : null,
        amount2: b?.amount ?? null,
        user_jetton_wallet_1: a?.source_jetton_wallet ?? null,
        user_jetton_wallet_2: b?.source_jetton_wallet ?? null,
        lp_tokens_minted: minted ? readInternalTransfer(minted.body()).amount : null,
        target_asset_1: targets?.[0]?.asset ?? null,
        target_amount_1: targets?.[0]?.amount ?? null,
        target_asset_2: targets?.[1]?.asset ?? null,
        target_amount_2: targets?.[1]?.amount ?? null,
        vault_excesses: excesses,
      },
    },
    !minted,
  );
};

export const dedustMatchers = { swap, deposit };
