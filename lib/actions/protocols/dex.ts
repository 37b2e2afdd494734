// What every DEX flow shares: the incoming leg (a jetton transfer's notification to the DEX, or TON
// through a proxy-TON wallet) and the outgoing leg (the DEX's jetton transfer or TON payout), as
// toncenter's dex_incoming_transfer / dex_outgoing_transfer objects, and the jetton_swap record.
import { OPS } from '../bodies';
import type { Action, ActionData, DexTransfer, PeerSwap } from '../model';
import type { Block, Context, Node } from '../tree';
import { OP, notifyOf, transferOf } from './jettons';

/** Proxy TON v2 (stonfi v2, tonco): `ton_transfer` into and out of a pTON wallet; the asset is TON. */
export const PTON_TON_TRANSFER = OPS.pton_ton_transfer;

export interface Leg {
  transfer: DexTransfer;
  nodes: Node[];
}

/** Excess returns sent by the leg's nodes (gas refunds): part of the same action. */
function withExcesses(nodes: Node[]): Node[] {
  const out = [...nodes];
  for (const n of nodes) for (const c of n.children) if (c.opcode === OP.excesses && !out.includes(c)) out.push(c);
  return out;
}

/**
 * The leg that brought `notify` (a transfer_notification at the DEX): the user's transfer into their
 * wallet and its internal_transfer, or a direct transfer into a proxy-TON wallet.
 */
export function incomingFromNotify(notify: Node, ctx: Context): Leg {
  const n = notifyOf(notify);
  const wallet = notify.parent;
  if (!wallet) throw new Error('notification without a sender');
  const dex = notify.destination;
  if (wallet.opcode === OP.internalTransfer && wallet.parent) {
    const first = wallet.parent;
    return {
      transfer: {
        amount: n.amount,
        asset: ctx.jettonOf(wallet.destination),
        source: first.source,
        source_jetton_wallet: first.destination,
        destination: dex,
        destination_jetton_wallet: wallet.destination,
      },
      nodes: withExcesses([first, wallet, notify]),
    };
  }
  return {
    transfer: {
      amount: n.amount,
      asset: wallet.opcode === PTON_TON_TRANSFER ? null : ctx.jettonOf(wallet.destination),
      source: wallet.source,
      source_jetton_wallet: null,
      destination: dex,
      destination_jetton_wallet: wallet.destination,
    },
    nodes: withExcesses([wallet, notify]),
  };
}

/** TON sent straight to a DEX contract (a native vault): the amount its body names. */
export function incomingTon(node: Node, amount: bigint): Leg {
  return {
    transfer: { amount, asset: null, source: node.source, source_jetton_wallet: null, destination: node.destination, destination_jetton_wallet: null },
    nodes: [node],
  };
}

/**
 * The leg into a vault: a jetton transfer's notification, or TON sent with one of `tonOps` whose body
 * is op, query_id:uint64, amount:Coins.
 */
export function vaultLeg(vault: Node, ctx: Context, tonOps: number[]): Leg | null {
  if (vault.opcode === OP.notify) return incomingFromNotify(vault, ctx);
  if (vault.opcode !== null && tonOps.includes(vault.opcode)) {
    const s = vault.bodyAfterOp();
    s.skip(64);
    return incomingTon(vault, s.loadCoins());
  }
  return null;
}

/** The DEX's jetton transfer `transfer` (to its own wallet) and what followed: to the recipient's wallet or out of proxy TON. */
export function outgoingTransfer(transfer: Node, ctx: Context): Leg {
  const body = transferOf(transfer);
  const internal = transfer.child(OP.internalTransfer);
  if (internal) {
    const notify = internal.child(OP.notify);
    return {
      transfer: {
        amount: body.amount,
        asset: ctx.jettonOf(transfer.destination),
        source: transfer.source,
        source_jetton_wallet: transfer.destination,
        destination: body.destination,
        destination_jetton_wallet: internal.destination,
      },
      nodes: withExcesses([transfer, internal, ...(notify ? [notify] : [])]),
    };
  }
  const out = transfer.child((c) => c.opcode === PTON_TON_TRANSFER || c.opcode === OP.notify);
  return {
    transfer: {
      amount: body.amount,
      asset: out?.opcode === PTON_TON_TRANSFER ? null : ctx.jettonOf(transfer.destination),
      source: transfer.source,
      source_jetton_wallet: null,
      destination: body.destination,
      destination_jetton_wallet: null,
    },
    nodes: withExcesses([transfer, ...(out ? [out] : [])]),
  };
}

export const peer = (a: DexTransfer, b: DexTransfer): PeerSwap => ({ amount_in: a.amount, asset_in: a.asset, amount_out: b.amount, asset_out: b.asset });

export interface SwapParts {
  dex: string;
  incoming: DexTransfer;
  outgoing: DexTransfer;
  peerSwaps?: PeerSwap[];
  /** Top-level asset / asset2 when they differ from the legs' (the assets the user asked for). */
  sourceAsset?: string | null;
  destinationAsset?: string | null;
  /** Top-level destination_secondary when it is not the recipient's wallet. */
  destinationWallet?: string | null;
  minOutAmount?: bigint | null;
}

/** The jetton_swap record fields. */
export function swapFields(p: SwapParts): Partial<Action> {
  const data: Record<string, unknown> = {
    dex: p.dex,
    sender: p.incoming.source,
    dex_incoming_transfer: p.incoming,
    dex_outgoing_transfer: p.outgoing,
    peer_swaps: p.peerSwaps ?? [],
  };
  if (p.dex === 'tonco' || p.dex === 'dedust_v2') data.min_out_amount = p.minOutAmount ?? null;
  return {
    source: p.incoming.source,
    source_secondary: p.incoming.source_jetton_wallet,
    destination: p.outgoing.destination,
    destination_secondary: p.destinationWallet !== undefined ? p.destinationWallet : p.outgoing.destination_jetton_wallet,
    asset: p.sourceAsset !== undefined ? p.sourceAsset : p.incoming.asset,
    asset2: p.destinationAsset !== undefined ? p.destinationAsset : p.outgoing.asset,
    jetton_swap_data: data as Action[`${string}_data`],
  };
}

/**
 * The two halves of one liquidity deposit as one action: each asset reached the pool on its own, so
 * each half was classified apart. `into` keeps the action and takes `from`'s nodes and the
 * dex_deposit_liquidity_data `combine` makes of both halves' (null: not one deposit after all, both
 * stay as they are); its tag becomes `tag` (null: complete, no further half looks for it).
 */
export function mergeDepositHalves(
  ctx: Context,
  into: Block,
  from: Block,
  combine: (into: ActionData, from: ActionData) => ActionData | null,
  tag: string | null = null,
): void {
  const deposit = (b: Block) => b.fields.dex_deposit_liquidity_data as ActionData;
  const data = combine(deposit(into), deposit(from));
  if (!data) return;
  into.fields = { ...into.fields, dex_deposit_liquidity_data: data };
  into.tag = tag;
  ctx.absorb(into, from);
}

/** One side (n: 1 or 2) of a liquidity withdrawal's payout, under toncenter's dex_withdraw_liquidity_data keys. */
export function withdrawalSide(n: number, side: { amount: unknown; asset: unknown; dexWallet: unknown; dexJettonWallet: unknown; userWallet: unknown }): ActionData {
  return {
    [`amount${n}`]: side.amount,
    [`asset${n}_out`]: side.asset,
    [`dex_wallet_${n}`]: side.dexWallet,
    [`dex_jetton_wallet_${n}`]: side.dexJettonWallet,
    [`user_jetton_wallet_${n}`]: side.userWallet,
  } as ActionData;
}

/** A dex_withdraw_liquidity started by an LP burn: from the burner (and its LP wallet), of the LP jetton. */
export function claimBurnWithdrawal(ctx: Context, burn: Block, destination: string | null, nodes: Node[], data: ActionData): void {
  ctx.claim('dex_withdraw_liquidity', nodes, {
    source: burn.fields.source ?? null,
    source_secondary: burn.fields.source_secondary ?? null,
    destination,
    asset: burn.fields.asset ?? null,
    dex_withdraw_liquidity_data: data,
  }, burn.failed);
}
