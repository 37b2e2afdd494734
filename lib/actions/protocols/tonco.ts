// TONCO swaps: the router gets the user's notification whose payload is POOLV3_SWAP#a7fb58f8
// (target: the router's wallet of the wanted jetton, sqrt price limit, min out), forwards the swap to
// the pool, the pool answers payTo#a1daa96d and the router transfers out (or refunds).
// Liquidity: each asset reaches the router with a notification, the router sends
// POOLV3_FUND_ACCOUNT#4468de77 to the pool, which adds it to the user's account contract
// (ACCOUNTV3_ADD_LIQUIDITY#3ebe5431); once both are in, the account sends POOLV3_MINT#81702ef8, the
// pool mints the position NFT (POSITIONNFTV3_POSITION_INIT#d5ecca2a) and pays back what it did not use
// through the router (payTo). Burning a position: POOLV3_START_BURN#530b5f2c to the pool, which burns
// the NFT (POSITIONNFTV3_POSITION_BURN#46ca335a) and pays both amounts out through the router.
import type { ActionData, DexTransfer } from '../model';
import { loadAddr } from '../cells';
import type { Node } from '../tree';
import { incomingFromNotify, outgoingTransfer, peer, PTON_TON_TRANSFER, swapFields, type Leg } from './dex';
import { assetOfJetton, OP, notifyOf, step } from './jettons';
import type { Matcher } from './matcher';

export const TONCO = {
  poolSwap: 0xa7fb58f8,
  payTo: 0xa1daa96d,
  fundAccount: 0x4468de77,
  addLiquidity: 0x3ebe5431,
  mint: 0x81702ef8,
  startBurn: 0x530b5f2c,
  positionInit: 0xd5ecca2a,
  positionBurn: 0x46ca335a,
  createPool: 0x2e3034ef,
  poolInit: 0x441c39ed,
} as const;

type Side = { amount: bigint; wallet: string | null };

/** payTo's amounts: ^[amount0:Coins jetton0_wallet amount1:Coins jetton1_wallet] (the router's wallets). */
function payToAmounts(payTo: Node): Side[] | null {
  const ref = payTo.cell?.refs[0];
  if (!ref) return null;
  const s = ref.beginParse();
  return [
    { amount: s.loadCoins(), wallet: loadAddr(s) },
    { amount: s.loadCoins(), wallet: loadAddr(s) },
  ];
}

const routerTransfer = (payTo: Node, wallet: string | null) => payTo.children.find((c) => c.opcode === OP.transfer && c.destination === wallet);

/** What the router paid out for one side of payTo: the transfer it made, or null when it paid nothing. */
function payoutOf(payTo: Node, side: Side, ctx: Parameters<Matcher>[1]): DexTransfer | null {
  const transfer = routerTransfer(payTo, side.wallet);
  return transfer ? outgoingTransfer(transfer, ctx).transfer : null;
}

/** The jetton a router wallet holds; null for its proxy-TON wallet (it pays out TON). */
function assetOfRouterWallet(payTo: Node, wallet: string | null, ctx: Parameters<Matcher>[1]): string | null {
  if (routerTransfer(payTo, wallet)?.child(PTON_TON_TRANSFER)) return null;
  return ctx.jettonOf(wallet);
}

/** ROUTERV3_PAY_TO's exit code: 200 a swap done, 201 a burn done, 0 paid; anything else refunds. */
function payToExit(payTo: Node): number {
  const s = payTo.bodyAfterOp();
  s.skip(64);
  loadAddr(s);
  loadAddr(s);
  return s.loadUint(32);
}

/** The swap request a notification's payload carries: the router wallet of the jetton wanted and the minimum out. */
function swapRequest(notify: Node): { target: string | null; minOut: bigint | null } {
  const payload = notifyOf(notify).payload;
  if (!payload || payload.remainingBits < 32 || payload.loadUint(32) !== TONCO.poolSwap) return { target: null, minOut: null };
  const target = loadAddr(payload);
  payload.skip(160);
  return { target, minOut: payload.loadCoins() };
}

/**
 * A swap: pool swap → the pool's payTo → the router's transfer out; a multi-hop route chains the
 * router's transfer into its next swap (one action, the hops as peer_swaps). Failed when a pool
 * refunded (payTo's exit code other than 200); the asset asked for is the first request's target.
 */
const swap: Matcher = (node, ctx) => {
  if (!node.free || node.parent?.opcode !== OP.notify) return;
  const hops: { incoming: Leg; outgoing: Leg; nodes: Node[]; ok: boolean }[] = [];
  for (let cur: Node | undefined = node; cur; ) {
    const payTo = cur.child(TONCO.payTo);
    const transfer = payTo?.child(OP.transfer);
    if (!payTo || !transfer) break;
    const outgoing = outgoingTransfer(transfer, ctx);
    hops.push({ incoming: incomingFromNotify(cur.parent!, ctx), outgoing, nodes: [cur, payTo, ...payTo.aux()], ok: payToExit(payTo) === 200 });
    const next = outgoing.nodes.find((n) => n.opcode === OP.notify)?.child(TONCO.poolSwap);
    cur = next?.free ? next : undefined;
  }
  if (hops.length === 0) return;
  const first = hops[0]!;
  const last = hops[hops.length - 1]!;
  const { target, minOut } = swapRequest(node.parent!);
  const ok = hops.every((h) => h.ok);
  ctx.claim(
    'jetton_swap',
    hops.flatMap((h) => [...h.incoming.nodes, ...h.nodes, ...h.outgoing.nodes]),
    swapFields({
      dex: 'tonco',
      incoming: first.incoming.transfer,
      outgoing: last.outgoing.transfer,
      peerSwaps: hops.length > 1 ? hops.map((h) => peer(h.incoming.transfer, h.outgoing.transfer)) : [],
      destinationAsset: target ? assetOfJetton(ctx.jettonOf(target)) : last.outgoing.transfer.asset,
      minOutAmount: minOut,
    }),
    !ok || node.failed,
  );
};

/**
 * A pool deployed through the router: ROUTERV3_CREATE_POOL#2e3034ef (query_id jetton_wallet0
 * jetton_wallet1 tick_spacing:int24 initial_price_x96:uint160 protocol_fee:uint16 lp_fee_base:uint16
 * lp_fee_current:uint16 ^nft_content ^item_content ^[jetton0_minter jetton1_minter controller]) and
 * the router's POOLV3_INIT#441c39ed to the new pool (which says whether it is active).
 */
const deployPool: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const init = node.child(TONCO.poolInit);
  if (!init) return;
  const s = node.bodyAfterOp();
  s.skip(64);
  const wallet0 = loadAddr(s);
  const wallet1 = loadAddr(s);
  const tickSpacing = s.loadIntBig(24);
  const price = s.loadUintBig(160);
  const [protocolFee, lpFeeBase, lpFeeCurrent] = [s.loadUint(16), s.loadUint(16), s.loadUint(16)];
  s.loadRef();
  s.loadRef();
  const minters = s.loadRef().beginParse();
  const minter0 = loadAddr(minters);
  const minter1 = loadAddr(minters);
  const i = init.bodyAfterOp();
  i.skip(64 + 2);
  loadAddr(i);
  i.skip(1);
  loadAddr(i);
  i.skip(1 + 24 + 1 + 160 + 1);
  const active = i.loadBit();
  ctx.claim('tonco_deploy_pool', [node, ...step(init)], {
    source: node.source,
    destination: node.destination,
    destination_secondary: init.destination,
    tonco_deploy_pool_data: {
      jetton0_router_wallet: wallet0,
      jetton1_router_wallet: wallet1,
      jetton0_minter: minter0,
      jetton1_minter: minter1,
      tick_spacing: tickSpacing,
      initial_price_x96: price,
      protocol_fee: protocolFee,
      lp_fee_base: lpFeeBase,
      lp_fee_current: lpFeeCurrent,
      pool_active: active,
    },
  }, node.failed || init.failed);
};

const depositLiquidity: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== TONCO.fundAccount || node.parent?.opcode !== OP.notify) return;
  const account = node.child(TONCO.addLiquidity);
  if (!account) return;
  const leg = incomingFromNotify(node.parent, ctx);
  const s = node.bodyAfterOp();
  s.skip(64);
  loadAddr(s);
  const amount0 = s.loadCoins();
  s.loadCoins();
  const target0 = s.loadCoins();
  const target1 = s.loadCoins();
  s.skip(128);
  const tickLower = s.loadIntBig(24);
  const tickUpper = s.loadIntBig(24);
  // The side the router funded: amount0 for jetton0, else jetton1.
  const slot = amount0 > 0n ? 1 : 2;
  const mint = account.child(TONCO.mint);
  const nodes = [...leg.nodes, node, account];
  const excesses: ActionData[] = [];
  let minted: bigint | null = null;
  let nft: string | null = null;
  const targets: (string | null)[] = [null, null];
  targets[slot - 1] = leg.transfer.asset;
  if (mint) {
    nodes.push(mint, ...mint.descendants());
    const m = mint.bodyAfterOp();
    m.skip(64);
    m.loadCoins();
    m.loadCoins();
    loadAddr(m);
    minted = m.loadUintBig(128);
    nft = mint.child(TONCO.positionInit)?.destination ?? null;
    const payTo = mint.child(TONCO.payTo);
    const sides = payTo ? payToAmounts(payTo) : null;
    if (payTo && sides) {
      sides.forEach((side, i) => {
        const asset = assetOfRouterWallet(payTo, side.wallet, ctx);
        targets[i] = asset;
        if (side.amount > 0n) excesses.push({ asset, amount: side.amount });
      });
    }
  }
  const wallets: (string | null)[] = [null, null];
  wallets[slot - 1] = leg.transfer.source_jetton_wallet;
  ctx.claim('dex_deposit_liquidity', nodes, {
    source: leg.transfer.source,
    source_secondary: leg.transfer.source_jetton_wallet,
    destination: node.destination,
    destination_secondary: account.destination,
    dex_deposit_liquidity_data: {
      dex: 'tonco',
      // toncenter puts the funded asset first whatever its side; the wallets keep the pool's sides.
      asset1: leg.transfer.asset,
      amount1: leg.transfer.amount,
      asset2: null,
      amount2: null,
      user_jetton_wallet_1: wallets[0]!,
      user_jetton_wallet_2: wallets[1]!,
      target_asset_1: targets[0]!,
      target_asset_2: targets[1]!,
      target_amount_1: target0,
      target_amount_2: target1,
      lp_tokens_minted: minted,
      vault_excesses: excesses,
      tick_lower: tickLower,
      tick_upper: tickUpper,
      nft_index: nft ? (ctx.info(nft).nftItem?.index ?? null) : null,
      nft_address: nft,
    },
  }, node.failed || account.failed || !!mint?.failed);
};

const withdrawLiquidity: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== TONCO.startBurn || node.kind !== 'tx') return;
  const s = node.bodyAfterOp();
  s.skip(64);
  const index = s.loadUintBig(64);
  const burnt = s.loadUintBig(128);
  const tickLower = s.loadIntBig(24);
  const tickUpper = s.loadIntBig(24);
  const burnNft = node.child(TONCO.positionBurn);
  const payTo = [...node.descendants()].find((c) => c.opcode === TONCO.payTo);
  const sides = payTo ? payToAmounts(payTo) : null;
  if (!burnNft || !payTo || !sides) return;
  const p = payTo.bodyAfterOp();
  p.skip(64);
  const recipient = loadAddr(p);
  const data: ActionData = {
    dex: 'tonco',
    lp_tokens_burnt: burnt,
    burned_nft_index: index,
    burned_nft_address: burnNft.destination,
    tick_lower: tickLower,
    tick_upper: tickUpper,
  };
  const nodes = [node, ...node.descendants()];
  sides.forEach((side, i) => {
    const n = i + 1;
    const leg = payoutOf(payTo, side, ctx);
    data[`amount${n}`] = side.amount;
    data[`asset${n}_out`] = leg ? leg.asset : assetOfRouterWallet(payTo, side.wallet, ctx);
    // A side paid out names the router and the wallets the transfer went through; a side with nothing
    // to pay names the pool, the router's wallet and the recipient, as toncenter records it.
    data[`dex_wallet_${n}`] = leg ? leg.source : payTo.source;
    data[`dex_jetton_wallet_${n}`] = leg ? leg.source_jetton_wallet : side.wallet;
    data[`user_jetton_wallet_${n}`] = leg ? leg.destination_jetton_wallet : recipient;
  });
  ctx.claim('dex_withdraw_liquidity', nodes, {
    source: node.source,
    destination: node.destination,
    dex_withdraw_liquidity_data: data,
  }, node.failed || burnNft.failed || ![0, 201].includes(payToExit(payTo)));
};

export const toncoMatchers = { swap, depositLiquidity, withdrawLiquidity, deployPool };
