// DeDust (v1). Assets: native$0000, jetton$0001 workchain:int8 address:uint256, extra_currency$0010.
// Swaps: a vault (the jetton vault after the user's transfer notification with payload swap#e3a0d482
// SwapStep, or the native vault after swap#ea06185d query_id amount:Coins SwapStep) sends
// swap#61ee542d to the pool; pools chain with swap_peer#72aca8aa and log each hop they made
// (swap#9c610de3 asset_in asset_out amount_in amount_out, external out); the last pool's
// payout#ad4eb6f5 makes the out vault pay the recipient (a jetton transfer, or payout#474f86cf with TON).
// A pool that refuses (slippage, reserves) logs nothing and pays the input back: a failed swap.
// Liquidity: each asset goes to its vault (deposit_liquidity#d55e4686 with TON, or a jetton transfer
// whose payload is #40e108d6), the vault asks the factory (#f04ec526), which deploys (#9b3aa3fa) and
// tops up (#54240fe5) the deposit contract; the contract that holds both sends deposit#b56b9598 to the
// pool, which mints LP jettons or rejects (#e1a36cd4), and the contract destroys itself (#aae79256),
// returning what the pool did not take through the vaults (#6b0b787f). The first asset's half is a
// deposit of its own until the second arrives; both halves in one trace are one action. Withdrawing:
// burning LP jettons reaches the pool, which pays both assets through their vaults (#ad4eb6f5).
import type { Slice } from '@ton/core';
import { loadAddr } from '../cells';
import type { ActionData, DexTransfer, PeerSwap } from '../model';
import type { Block, Context, Node } from '../tree';
import { claimBurnWithdrawal, mergeDepositHalves, outgoingTransfer, swapFields, vaultLeg, withdrawalSide, type Leg } from './dex';
import { OP, openOrTransfer, internalTransferOf, notifyOf, step } from './jettons';
import type { Matcher } from './matcher';

export const DEDUST = {
  nativeSwap: 0xea06185d,
  swapPayload: 0xe3a0d482,
  swap: 0x61ee542d,
  swapPeer: 0x72aca8aa,
  payoutFromPool: 0xad4eb6f5,
  payout: 0x474f86cf,
  swapEvent: 0x9c610de3,
  nativeDeposit: 0xd55e4686,
  depositPayload: 0x40e108d6,
  askFactory: 0xf04ec526,
  deployDeposit: 0x9b3aa3fa,
  topUp: 0x54240fe5,
  depositToPool: 0xb56b9598,
  rejection: 0xe1a36cd4,
  destroy: 0xaae79256,
  returnExcess: 0x6b0b787f,
} as const;

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

/** The pools a swap's route names (SwapStep pool_addr kind:1 limit:Coins next:(Maybe ^SwapStep)). */
function routePools(s: Slice): string[] {
  const pools: string[] = [];
  for (let step: Slice | undefined = s; step && pools.length < 16; ) {
    const pool = loadAddr(step);
    if (pool) pools.push(pool);
    step.skip(1);
    step.loadCoins();
    step = step.loadMaybeRef()?.beginParse();
  }
  return pools;
}

/** The route a swap was asked for, from the native vault's request or the jetton's swap payload. */
function requestedRoute(vault: Node): string[] {
  try {
    if (vault.opcode === DEDUST.nativeSwap) {
      const s = vault.bodyAfterOp();
      s.skip(64);
      s.loadCoins();
      return routePools(s);
    }
    const p = notifyOf(vault).payload;
    if (!p || p.remainingBits < 32 || p.loadUint(32) !== DEDUST.swapPayload) return [];
    return routePools(p);
  } catch {
    return [];
  }
}

/** The asset a route ends in: each pool turns its input into its other asset (the pools' assets as the index knows them). */
function routeTarget(route: string[], start: string | null, ctx: Context): string | null | undefined {
  let asset = start;
  for (const pool of route) {
    const assets = ctx.info(pool).dedustPool?.assets;
    if (!assets || assets.length !== 2) return undefined;
    asset = assets[0] === asset ? assets[1]! : assets[0]!;
  }
  return route.length ? asset : undefined;
}

/** What left the last vault: a jetton transfer, or TON (payout#474f86cf query_id … from the native vault). */
function paidOut(payout: Node, fallback: bigint | null, ctx: Context): Leg {
  const transfer = payout.child(OP.transfer);
  if (transfer) return outgoingTransfer(transfer, ctx);
  const paid = payout.children.find((c) => c.kind === 'tx' && c.opcode === DEDUST.payout) ?? payout.children.find((c) => c.kind === 'tx');
  const t: DexTransfer = { amount: fallback, asset: null, source: payout.destination, source_jetton_wallet: null, destination: paid?.destination ?? null, destination_jetton_wallet: null };
  return { transfer: t, nodes: paid ? step(paid) : [] };
}

const swap: Matcher = (node, ctx) => {
  if (!node.free || !node.parent) return;
  const vault = node.parent;
  if (vault.opcode === OP.notify ? !openOrTransfer(vault) : !vault.free) return;
  const incoming = vaultLeg(vault, ctx, [DEDUST.nativeSwap]);
  if (!incoming) return;
  const pools: Node[] = [node];
  let cur = node;
  for (let next = cur.child(DEDUST.swapPeer); next; next = cur.child(DEDUST.swapPeer)) {
    pools.push(next);
    cur = next;
  }
  const logs = pools.flatMap((p) => p.children.filter((c) => c.kind === 'log' && c.opcode === DEDUST.swapEvent));
  const hops = logs.map(readSwapEvent);
  const payout = cur.child(DEDUST.payoutFromPool);
  if (!payout) return;
  // Every pool on the way logs the hop it made; one that did not refused the swap and paid the input back.
  const failed = hops.length < pools.length;
  const amount = payout.bodyAfterOp();
  amount.skip(64);
  amount.loadRef();
  const outgoing = paidOut(payout, amount.loadCoins(), ctx);
  const target = routeTarget(requestedRoute(vault), incoming.transfer.asset, ctx);
  ctx.claim(
    'jetton_swap',
    [...incoming.nodes, ...pools, ...logs, payout, ...outgoing.nodes],
    swapFields({
      dex: 'dedust',
      incoming: incoming.transfer,
      outgoing: outgoing.transfer,
      peerSwaps: hops.length > 1 ? hops : [],
      destinationAsset: target !== undefined ? target : failed ? null : outgoing.transfer.asset,
    }),
    failed || node.failed,
  );
};

interface Balance {
  asset: string | null;
  amount: bigint;
}

/** The asset and amount one vault received for a deposit, the user's jetton wallet, and the pool's target balances. */
function depositLeg(vault: Node, ctx: Context): { leg: Leg; wallet: string | null; targets: Balance[] } | null {
  const leg = vaultLeg(vault, ctx, [DEDUST.nativeDeposit]);
  if (!leg) return null;
  let s: Slice;
  if (vault.opcode === DEDUST.nativeDeposit) {
    s = vault.bodyAfterOp();
    s.skip(64);
    s.loadCoins();
  } else {
    const p = notifyOf(vault).payload;
    if (!p || p.remainingBits < 32 || p.loadUint(32) !== DEDUST.depositPayload) return null;
    s = p;
  }
  s.skip(1); // pool type
  const assets = [readAsset(s), readAsset(s)];
  const params = vault.opcode === DEDUST.nativeDeposit ? s.loadRef().beginParse() : s;
  params.loadCoins(); // min_lp_amount
  const targets = assets.map((asset) => ({ asset, amount: params.loadCoins() }));
  return { leg, wallet: leg.transfer.source_jetton_wallet, targets };
}

/** deposit#b56b9598 query_id ^proof owner min_lp_amount ^[asset0 amount0 asset1 amount1]: the owner and the balances deposited. */
function readDeposit(node: Node): { owner: string | null; targets: Balance[] } {
  const s = node.bodyAfterOp();
  s.skip(64);
  s.loadRef();
  const owner = loadAddr(s);
  s.loadCoins();
  const b = s.loadRef().beginParse();
  return { owner, targets: [{ asset: readAsset(b), amount: b.loadCoins() }, { asset: readAsset(b), amount: b.loadCoins() }] };
}

/** What a vault returned to the owner: TON by payout#474f86cf, or a jetton transfer. */
function vaultExcesses(root: Node, owner: string | null): { nodes: Node[]; excesses: ActionData[] } {
  const nodes: Node[] = [];
  const excesses: ActionData[] = [];
  for (const ret of [...root.descendants()].filter((n) => n.opcode === DEDUST.returnExcess)) {
    nodes.push(...step(ret));
    for (const c of ret.children) {
      if (c.opcode === DEDUST.payout && c.destination === owner) {
        excesses.push({ asset: null, amount: c.value });
        nodes.push(...step(c));
      } else if (c.opcode === OP.transfer && c.block.type === 'jetton_transfer' && !c.block.parent && c.block.fields.destination === owner) {
        excesses.push({ asset: c.block.fields.asset ?? null, amount: c.block.fields.amount ?? null });
        nodes.push(...c.block.nodes);
      }
    }
  }
  return { nodes, excesses };
}

const slotsOf = (legs: { asset: string | null; amount: bigint | null; wallet: string | null }[]): ActionData => {
  const d: ActionData = { asset1: null, amount1: null, user_jetton_wallet_1: null, asset2: null, amount2: null, user_jetton_wallet_2: null };
  legs.slice(0, 2).forEach((l, i) => Object.assign(d, { [`asset${i + 1}`]: l.asset, [`amount${i + 1}`]: l.amount, [`user_jetton_wallet_${i + 1}`]: l.wallet }));
  return d;
};

const targetsOf = (t: Balance[]): ActionData => ({ target_asset_1: t[0]?.asset ?? null, target_amount_1: t[0]?.amount ?? null, target_asset_2: t[1]?.asset ?? null, target_amount_2: t[1]?.amount ?? null });

/** The deposit that completed the pair: the last asset's way to the contract, the pool's answer and the contract's end. */
const depositFinal: Matcher = (node, ctx) => {
  const topUp = node.parent;
  const ask = topUp?.parent;
  const vault = ask?.parent;
  if (!node.free || topUp?.opcode !== DEDUST.topUp || ask?.opcode !== DEDUST.askFactory || !vault) return;
  const d = depositLeg(vault, ctx);
  if (!d) return;
  const { owner, targets } = readDeposit(node);
  const minted = node.child(OP.internalTransfer);
  const rejection = node.child(DEDUST.rejection);
  if (!minted && !rejection) return;
  const destroy = node.child(DEDUST.destroy);
  const ex = vaultExcesses(node, owner);
  const ends = [minted, rejection, destroy].filter((n): n is Node => !!n).flatMap((n) => [n, ...n.children.filter((c) => c.free && c.kind === 'tx' && (c.isTonTransfer || c.opcode === OP.notify || c.opcode === OP.excesses))]);
  const block = ctx.claim('dex_deposit_liquidity', [...d.leg.nodes, ...step(ask), ...step(ask.child(DEDUST.deployDeposit)), ...step(topUp), node, ...ends, ...ex.nodes], {
    source: owner,
    destination: rejection ? rejection.source : node.destination,
    destination_secondary: node.source,
    dex_deposit_liquidity_data: {
      dex: 'dedust',
      ...slotsOf([{ asset: d.leg.transfer.asset, amount: d.leg.transfer.amount, wallet: d.wallet }]),
      lp_tokens_minted: minted ? internalTransferOf(minted).amount : null,
      ...targetsOf(targets),
      vault_excesses: ex.excesses,
    },
  }, !minted);
  block.tag = 'dedust-final';
};

/** The first asset of a deposit: the deposit contract deployed and topped up, waiting for the second. */
const depositPartial: Matcher = (node, ctx) => {
  const ask = node.parent;
  const vault = ask?.parent;
  const deploy = ask?.child(DEDUST.deployDeposit);
  if (!node.free || ask?.opcode !== DEDUST.askFactory || !deploy || !vault) return;
  if (node.child(DEDUST.depositToPool) || node.child(DEDUST.rejection)) return;
  const d = depositLeg(vault, ctx);
  if (!d) return;
  const block = ctx.claim('dex_deposit_liquidity', [...d.leg.nodes, ...step(ask), ...step(deploy), node], {
    source: d.leg.transfer.source,
    destination_secondary: node.destination,
    dex_deposit_liquidity_data: {
      dex: 'dedust',
      ...slotsOf([{ asset: d.leg.transfer.asset, amount: d.leg.transfer.amount, wallet: d.wallet }]),
      lp_tokens_minted: null,
      ...targetsOf(d.targets),
    },
  }, node.failed);
  block.tag = 'dedust-partial';
};

/** The halves of one deposit as one action: the assets in the order they came, the same asset's amounts added. */
function combine(first: ActionData, last: ActionData): ActionData | null {
  const legs: { asset: string | null; amount: bigint | null; wallet: string | null }[] = [];
  for (const d of [first, last]) {
    for (const i of [1, 2]) {
      const amount = d[`amount${i}`] as bigint | null;
      if (amount === null || amount === undefined) continue;
      const asset = (d[`asset${i}`] ?? null) as string | null;
      const wallet = (d[`user_jetton_wallet_${i}`] ?? null) as string | null;
      const same = legs.find((l) => l.asset === asset);
      if (same) {
        same.amount = (same.amount ?? 0n) + amount;
        same.wallet = wallet ?? same.wallet;
      } else legs.push({ asset, amount, wallet });
    }
  }
  const targets = new Set([first.target_asset_1, first.target_asset_2]);
  if (legs.length !== 2 || !legs.every((l) => targets.has(l.asset))) return null;
  return { ...last, ...slotsOf(legs), target_asset_1: legs[0]!.asset, target_asset_2: legs[1]!.asset };
}

/**
 * A deposit whose halves both happened in this trace is one action. A contract used for more than one
 * deposit in the trace keeps every half on its own (which halves belong together cannot be told).
 */
const depositMerge: Matcher = (node, ctx) => {
  const final = node.block;
  if (final.tag !== 'dedust-final' || !final.nodes.includes(node)) return;
  const contract = final.fields.destination_secondary;
  const halves = ctx.blocks.filter((b) => (b.tag === 'dedust-final' || b.tag === 'dedust-partial') && b.fields.destination_secondary === contract);
  const partial = halves.find((b) => b.tag === 'dedust-partial');
  if (halves.length !== 2 || !partial) return;
  mergeDepositHalves(ctx, final, partial, (last, first) => combine(first, last), 'dedust-merged');
};

/** Burnt LP jettons: the pool pays each asset through its vault (payout#ad4eb6f5 query_id ^proof amount:Coins). */
const withdraw: Matcher = (node, ctx) => {
  const burn: Block = node.block;
  if (burn.type !== 'jetton_burn' || burn.parent || burn.first !== node) return;
  const notification = burn.nodes.find((n) => n.opcode === OP.burnNotification);
  const payouts = notification?.children.filter((c) => c.opcode === DEDUST.payoutFromPool) ?? [];
  if (!notification || payouts.length !== 2) return;
  const data: ActionData = { dex: 'dedust', is_refund: false, lp_tokens_burnt: burn.fields.amount ?? null };
  const nodes: Node[] = [...burn.nodes];
  payouts.forEach((p, i) => {
    const s = p.bodyAfterOp();
    s.skip(64);
    s.loadRef();
    const amount = s.loadCoins();
    const out = paidOut(p, amount, ctx);
    const jetton = !!p.child(OP.transfer);
    Object.assign(
      data,
      withdrawalSide(i + 1, {
        amount,
        asset: out.transfer.asset,
        dexWallet: p.destination,
        dexJettonWallet: jetton ? out.transfer.source_jetton_wallet : null,
        userWallet: jetton ? out.transfer.destination_jetton_wallet : null,
      }),
    );
    nodes.push(...step(p), ...out.nodes);
  });
  claimBurnWithdrawal(ctx, burn, notification.destination, nodes, data);
};

export const dedustMatchers = { swap, depositFinal, depositPartial, depositMerge, withdraw };
