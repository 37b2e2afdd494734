// swap.coffee. Every flow starts at a vault: the jetton vault after the user's notification, or the TON
// vault after a TON message whose body is op, query_id, amount:Coins (#c0ffee00 swap, #c0ffee02
// create pool, #c0ffee04 deposit liquidity).
// - swap: the vault sends swap#c0ffee20 to the pool; the pool logs it and sends payout#c0ffee21
//   (query_id, recipient, amount) to the out vault, which transfers the jetton or pays TON.
// - create pool: each vault asks the factory (#c0ffee23: query_id, amount, asset1, asset2; ^recipient),
//   which deploys or updates the pool creator (#c0ffee22); the creator that holds both assets sends
//   #c0ffee25 (query_id, amount1, amount2 in pool order) to the factory, which deploys the pool
//   (#c0ffee22 carrying #c0ffee26); the pool mints the LP jettons.
// - deposit liquidity: each vault asks the factory (#c0ffee27: query_id, amount, recipient; ^params
//   ^pool assets), which writes the liquidity depository (#c0ffee22); the depository that holds both
//   sends #c0ffee29 to the pool, which mints LP jettons and pays back what it did not take (#c0ffee21).
// - staking: a jetton transfer whose payload is #0c0ffede stakes; the staking contract forwards
//   #f9471134 to the pool, which mints a position NFT (#be5a7595) and logs the index. The pool pays
//   rewards on #b30c7310 with a jetton transfer.
// - MEV protection: funds held by the protector contract: TON with #6bc79e7e (query_id), or a jetton
//   transfer to it with that payload.
import type { Slice } from '@ton/core';
import type { ActionData, DexTransfer } from '../model';
import { loadAddr } from '../cells';
import { OPS } from '../bodies';
import type { Block, Context, Node } from '../tree';
import { claimBurnWithdrawal, outgoingTransfer, swapFields, vaultLeg, withdrawalSide, type Leg } from './dex';
import { OP, openOrTransfer, step } from './jettons';
import type { Matcher } from './matcher';

export const COFFEE = {
  tonDeposit: 0xc0ffee00,
  extraSwap: 0xc0ffee01,
  createVault: 0xc0ffee06,
  swapEvent: 0xc0ffee30,
  swapFailedEvent: 0xc0ffee31,
  tonPayout: 0xc0ffee32,
  depositEvent: 0xc0ffee33,
  withdrawEvent: 0xc0ffee35,
  notification: 0xc0ffee36,
  stakingWithdraw: 0xcb03bfaf,
  mevFailedSwap: 0xee51ce51,
  tonCreatePool: 0xc0ffee02,
  tonDepositLiquidity: 0xc0ffee04,
  swap: 0xc0ffee20,
  payout: 0xc0ffee21,
  deploy: 0xc0ffee22,
  createPoolCreator: 0xc0ffee23,
  createPool: 0xc0ffee25,
  depositToDepository: 0xc0ffee27,
  depositToPool: 0xc0ffee29,
  stakePayload: 0x0c0ffede,
  stakeToPool: 0xf9471134,
  stakeMintPosition: 0xbe5a7595,
  claimRewards: 0xb30c7310,
  mevHold: 0x6bc79e7e,
};

/** Asset: native$00, jetton$01 workchain:int8 address:uint256, extra$10 id:uint32 (null for TON and extras). */
function readAsset(s: Slice): string | null {
  const tag = s.loadUint(2);
  if (tag === 0) return null;
  if (tag === 1) return `${s.loadInt(8)}:${s.loadBuffer(32).toString('hex').toUpperCase()}`;
  if (tag === 2) {
    s.skip(32);
    return null;
  }
  throw new Error('unknown coffee asset');
}

/** TON into the TON vault: swap, pool creation, liquidity deposit (op, query_id, amount:Coins). */
const TON_OPS = [COFFEE.tonDeposit, COFFEE.tonCreatePool, COFFEE.tonDepositLiquidity];

/** What the out vault paid on payout_internal#c0ffee21 (query_id recipient amount:Coins …): a jetton transfer, or TON (payout#c0ffee32, or the notification#c0ffee36 that carries it). */
function coffeePayout(payout: Node, ctx: Context): Leg {
  const transfer = payout.child(OP.transfer);
  if (transfer) return outgoingTransfer(transfer, ctx);
  const s = payout.bodyAfterOp();
  s.skip(64);
  const recipient = loadAddr(s);
  const t: DexTransfer = { amount: s.loadCoins(), asset: null, source: payout.source, source_jetton_wallet: null, destination: recipient, destination_jetton_wallet: null };
  const paid = payout.children.filter((c) => c.kind === 'tx' && (c.opcode === COFFEE.tonPayout || c.opcode === COFFEE.notification || c.isTonTransfer));
  return { transfer: t, nodes: paid.flatMap((c) => [c, ...c.aux()]) };
}

/** swap_successful_event#c0ffee30 query_id input:Asset input_amount:Coins output_amount:Coins: one pool's hop. */
function readSwapEvent(log: Node): { asset: string | null; amountIn: bigint; amountOut: bigint } {
  const s = log.bodyAfterOp();
  s.skip(64);
  const asset = readAsset(s);
  return { asset, amountIn: s.loadCoins(), amountOut: s.loadCoins() };
}

/**
 * A swap: the in vault's swap_internal#c0ffee20 to the pool, pool to pool for a route, each pool logging
 * its hop (#c0ffee30, or #c0ffee31 when it refused: the input goes back, a failed swap), the last one's
 * payout_internal to the out vault, which pays the recipient.
 */
const swap: Matcher = (node, ctx) => {
  const vault = node.parent;
  if (!node.free || !vault || (vault.opcode === OP.notify ? !openOrTransfer(vault) : !vault.free)) return;
  const incoming = vaultLeg(vault, ctx, [COFFEE.tonDeposit, COFFEE.extraSwap]);
  if (!incoming) return;
  const pools: Node[] = [];
  const logs: Node[] = [];
  let failed = false;
  let cur: Node | undefined = node;
  let payout: Node | undefined;
  while (cur && pools.length < 16) {
    pools.push(cur);
    const own = cur.children.filter((c) => c.kind === 'log' && (c.opcode === COFFEE.swapEvent || c.opcode === COFFEE.swapFailedEvent));
    logs.push(...own);
    if (!own.some((l) => l.opcode === COFFEE.swapEvent)) failed = true;
    payout = cur.child(COFFEE.payout);
    cur = payout ? undefined : cur.child(COFFEE.swap);
  }
  if (!payout) return;
  const outgoing = coffeePayout(payout, ctx);
  const hops = logs.filter((l) => l.opcode === COFFEE.swapEvent).map(readSwapEvent);
  const peerSwaps = hops.map((h, i) => ({ asset_in: h.asset, amount_in: h.amountIn, asset_out: hops[i + 1]?.asset ?? outgoing.transfer.asset, amount_out: h.amountOut }));
  ctx.claim(
    'jetton_swap',
    [...incoming.nodes, ...pools, ...logs, payout, ...payout.aux(), ...outgoing.nodes],
    swapFields({ dex: 'coffee', incoming: incoming.transfer, outgoing: outgoing.transfer, peerSwaps: peerSwaps.length > 1 ? peerSwaps : [] }),
    failed || node.failed,
  );
};

/** The vault's request to the factory: the leg into the vault and the factory's message it caused. */
function vaultRequest(request: Node, ctx: Parameters<Matcher>[1]) {
  if (!request.parent) return null;
  const leg = vaultLeg(request.parent, ctx, TON_OPS);
  const deployed = request.child(COFFEE.deploy);
  if (!leg || !deployed) return null;
  return { leg, deployed };
}

/** Asset1/asset2 slots by the pool's asset order: the provided one in its slot, the other slot empty. */
function slots(provided: DexTransfer, pool: (string | null)[] | null): ActionData {
  const slot = pool && pool[1] === provided.asset && pool[0] !== provided.asset ? 2 : 1;
  const data: ActionData = { asset1: null, amount1: null, user_jetton_wallet_1: null, asset2: null, amount2: null, user_jetton_wallet_2: null };
  data[`asset${slot}`] = provided.asset;
  data[`amount${slot}`] = provided.amount;
  data[`user_jetton_wallet_${slot}`] = provided.source_jetton_wallet;
  return data;
}

const other = (pool: (string | null)[] | null, asset: string | null) => (pool ? (pool[0] === asset ? pool[1]! : pool[0]!) : null);

/** #c0ffee23's pool assets (after query_id and amount) and the deposit recipient (its first ref). */
function creatorRequest(request: Node): { pool: (string | null)[]; recipient: string | null } {
  const s = request.bodyAfterOp();
  s.skip(64);
  s.loadCoins();
  const pool = [readAsset(s), readAsset(s)];
  const ref = request.cell!.refs[0];
  return { pool, recipient: ref ? loadAddr(ref.beginParse()) : null };
}

/** A vault's half of a pool creation: the factory deploys (or fills) the pool creator. */
const createPoolCreator: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== COFFEE.createPoolCreator) return;
  const r = vaultRequest(node, ctx);
  if (!r) return;
  const { pool, recipient } = creatorRequest(node);
  ctx.claim('coffee_create_pool_creator', [...r.leg.nodes, node, r.deployed], {
    source: r.leg.transfer.source,
    source_secondary: r.leg.transfer.source_jetton_wallet,
    destination: recipient,
    destination_secondary: r.deployed.destination,
    asset: r.leg.transfer.asset,
    amount: r.leg.transfer.amount,
    asset2: pool[0],
    asset2_secondary: pool[1],
  }, node.failed || r.deployed.failed);
};

/** The creator that holds both assets asks the factory for the pool: the pool creation, its last half inside. */
const createPool: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== COFFEE.createPool) return;
  const creator = node.parent;
  const request = creator?.parent;
  if (!creator || creator.opcode !== COFFEE.deploy || request?.opcode !== COFFEE.createPoolCreator) return;
  const r = vaultRequest(request, ctx);
  const deployPool = node.child(COFFEE.deploy);
  if (!r || !deployPool) return;
  const { pool } = creatorRequest(request);
  const s = node.bodyAfterOp();
  s.skip(64);
  const amounts = [s.loadCoins(), s.loadCoins()];
  const provided = r.leg.transfer;
  const minted = deployPool.child(OP.internalTransfer);
  ctx.claim('coffee_create_pool', [...r.leg.nodes, request, creator, node, ...node.descendants()], {
    source: provided.source,
    source_secondary: provided.source_jetton_wallet,
    destination: deployPool.destination,
    destination_secondary: creator.destination,
    asset: provided.asset,
    asset2: other(pool, provided.asset),
    amount: provided.amount,
    coffee_create_pool_data: {
      amount_1: provided.amount,
      amount_2: pool[0] === provided.asset ? amounts[1]! : amounts[0]!,
      lp_tokens_minted: minted ? readInternalAmount(minted) : null,
    },
  }, node.failed || deployPool.failed);
};

function readInternalAmount(n: Node): bigint {
  const s = n.bodyAfterOp();
  s.skip(64);
  return s.loadCoins();
}

/**
 * One vault's deposit into the liquidity depository; when it completes the pair, the depository's
 * deposit into the pool (LP tokens minted, the rest paid back) belongs to it.
 */
const depositLiquidity: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== COFFEE.depositToDepository) return;
  const r = vaultRequest(node, ctx);
  if (!r) return;
  const params = node.cell!.refs[1]?.beginParse();
  const pool = params ? [readAsset(params), readAsset(params)] : null;
  const provided = r.leg.transfer;
  const toPool = r.deployed.child(COFFEE.depositToPool);
  const nodes = [...r.leg.nodes, node, r.deployed];
  let minted: bigint | null = null;
  const excesses: ActionData[] = [];
  if (toPool) {
    nodes.push(toPool, ...toPool.descendants());
    const lp = toPool.child(OP.internalTransfer);
    if (lp) minted = readInternalAmount(lp);
    for (const payout of toPool.childrenWith(COFFEE.payout)) {
      const s = payout.bodyAfterOp();
      s.skip(64);
      loadAddr(s);
      const transfer = payout.child(OP.transfer);
      excesses.push({ asset: transfer ? ctx.jettonOf(transfer.destination) : null, amount: s.loadCoins() });
    }
  }
  ctx.claim('dex_deposit_liquidity', nodes, {
    source: provided.source,
    destination: toPool?.destination ?? null,
    destination_secondary: r.deployed.destination,
    dex_deposit_liquidity_data: {
      dex: 'coffee',
      ...slots(provided, pool),
      target_asset_1: provided.asset,
      target_amount_1: null,
      target_asset_2: other(pool, provided.asset),
      target_amount_2: null,
      lp_tokens_minted: minted,
      vault_excesses: excesses,
    },
  }, node.failed || r.deployed.failed);
};

/**
 * A vault created through the factory: create_vault#c0ffee06 query_id asset:Asset, the factory's deploy
 * (#c0ffee22) of the vault, which asks its jetton master for its wallet (TEP-89 provide/take).
 */
const createVault: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const deploy = node.child(COFFEE.deploy);
  if (!deploy) return;
  const s = node.bodyAfterOp();
  s.skip(64);
  const asset = readAsset(s);
  const ask = deploy.child(OPS.provide_wallet_address);
  const answer = ask?.child(OPS.take_wallet_address);
  ctx.claim('coffee_create_vault', [node, ...step(deploy), ...step(ask), ...step(answer)], {
    source: node.source,
    destination: deploy.destination,
    asset,
    value: node.value,
  }, node.failed || deploy.failed);
};

/**
 * Burnt LP jettons: the pool pays both assets out through their vaults (payout_internal#c0ffee21) and
 * logs liquidity_withdrawal_event#c0ffee35 (query_id amount1:Coins amount2:Coins lp_amount:Coins …).
 */
const withdrawLiquidity: Matcher = (node, ctx) => {
  const burn: Block = node.block;
  if (burn.type !== 'jetton_burn' || burn.parent || burn.first !== node) return;
  const notification = burn.nodes.find((n) => n.opcode === OP.burnNotification);
  const event = notification?.children.find((c) => c.kind === 'log' && c.opcode === COFFEE.withdrawEvent);
  const payouts = notification?.children.filter((c) => c.opcode === COFFEE.payout) ?? [];
  if (!notification || !event || payouts.length !== 2) return;
  const e = event.bodyAfterOp();
  e.skip(64);
  const amounts = [e.loadCoins(), e.loadCoins()];
  const data: ActionData = { dex: 'coffee', is_refund: false, lp_tokens_burnt: burn.fields.amount ?? null };
  const nodes: Node[] = [...burn.nodes, event];
  payouts.forEach((p, i) => {
    const out = coffeePayout(p, ctx);
    const jetton = !!p.child(OP.transfer);
    Object.assign(
      data,
      withdrawalSide(i + 1, {
        amount: amounts[i]!,
        asset: out.transfer.asset,
        dexWallet: p.source,
        dexJettonWallet: jetton ? out.transfer.source_jetton_wallet : null,
        userWallet: jetton ? out.transfer.destination_jetton_wallet : out.transfer.destination,
      }),
    );
    nodes.push(...step(p), ...out.nodes);
  });
  claimBurnWithdrawal(ctx, burn, notification.destination, nodes, data);
};

export const coffeeMatchers = { swap, createVault, createPoolCreator, createPool, depositLiquidity, withdrawLiquidity };
