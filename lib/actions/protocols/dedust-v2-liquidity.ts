// DeDust CPMM v2 deposits. Each asset goes to the pool itself (pay_native, or a jetton transfer carrying
// pay_jetton) with the payment payload deposit#c9a015da amount_x:Coins amount_y:Coins
// minimal_liquidity:Coins locked_liquidity_share:uint16 (the amounts wanted); the pool credits it to the
// user's deposit escrow (credit_asset#dc5ddba1 query_id is_x:Bool amount:Coins). The escrow that holds
// both sides asks the pool to join (join_liquidity#25251ee0 query_id ^config amount_x:Coins
// amount_y:Coins initiator); the pool logs deposit#35df2e12 amount_x_in amount_y_in liquidity … and
// credits the position, refunding what it did not take, or — no log — refunds everything (failed). The
// side whose credit completed the escrow carries the join; the other side is a deposit of its own until
// both are in one trace, then one action of both (keyed on the escrow).
import type { Cell } from '@ton/core';
import { loadAddr } from '../cells';
import type { ActionData } from '../model';
import type { Block, Context, Node } from '../tree';
import { incomingFromNotify, mergeDepositHalves, outgoingTransfer } from './dex';
import { DEDUST_V2 } from './dedust-v2';
import { notifyOf, OP, transferOf } from './jettons';
import type { Matcher } from './matcher';

export const DEDUST_V2_LP = {
  deposit: 0xc9a015da,
  creditAsset: 0xdc5ddba1,
  joinLiquidity: 0x25251ee0,
  depositEvent: 0x35df2e12,
} as const;

/** The carrier's payment payload, when it is a deposit: the amounts wanted. */
function depositPayload(carrier: Node): { x: bigint; y: bigint } | null {
  let payment: Cell | null = null;
  if (carrier.opcode === DEDUST_V2.payNative) {
    const s = carrier.bodyAfterOp();
    s.skip(64);
    s.loadCoins();
    payment = s.loadRef();
  } else if (carrier.opcode === OP.notify) {
    const p = notifyOf(carrier).payload;
    if (!p || p.remainingBits < 32 || p.loadUint(32) !== DEDUST_V2.payJetton) return null;
    payment = p.loadRef();
  }
  const s = payment?.beginParse();
  if (!s || s.remainingBits < 32 || s.loadUint(32) !== DEDUST_V2_LP.deposit) return null;
  return { x: s.loadCoins(), y: s.loadCoins() };
}

/** One side: who sent it, the asset, the user's jetton wallet, the nodes that brought it to the pool. */
function side(carrier: Node, ctx: Context) {
  if (carrier.opcode === OP.notify) {
    const leg = incomingFromNotify(carrier, ctx);
    return { sender: leg.transfer.source, asset: leg.transfer.asset, wallet: leg.transfer.source_jetton_wallet, nodes: leg.nodes };
  }
  return { sender: carrier.source, asset: null, wallet: null, nodes: [carrier] };
}

/** credit_asset's is_x and amount. */
function readCredit(credit: Node) {
  const s = credit.bodyAfterOp();
  s.skip(64);
  return { isX: s.loadBit(), amount: s.loadCoins() };
}

/** The slot (1: pool asset x, 2: y) a side fills. */
function slot(n: 1 | 2, asset: string | null, wallet: string | null): ActionData {
  return { [`asset${n}`]: asset, [`user_jetton_wallet_${n}`]: wallet };
}

/** The first side credited: a deposit of its own until the other side joins it. */
const partial: Matcher = (node, ctx) => {
  const carrier = node.parent;
  if (!node.free || node.kind !== 'tx' || !carrier || !depositPayload(carrier)) return;
  const s = side(carrier, ctx);
  const c = readCredit(node);
  const data: ActionData = { dex: 'dedust_v2', amount1: null, amount2: null, asset1: null, asset2: null, user_jetton_wallet_1: null, user_jetton_wallet_2: null, lp_tokens_minted: null };
  data[c.isX ? 'amount1' : 'amount2'] = c.amount;
  Object.assign(data, slot(c.isX ? 1 : 2, s.asset, s.wallet));
  const block = ctx.claim('dex_deposit_liquidity', [...s.nodes, node, ...node.aux()], {
    source: s.sender,
    destination: node.source,
    destination_secondary: node.destination,
    dex_deposit_liquidity_data: data,
  }, node.failed);
  block.tag = `dedust_v2_deposit:${node.destination}`;
  const whole = ctx.blocks.find((b) => b !== block && b.tag === block.tag);
  if (whole) join(whole, block, c.isX, s, ctx);
};

/** The completed deposit takes the first side in: its asset and wallet in the slot it left empty. */
function join(whole: Block, first: Block, isX: boolean, s: ReturnType<typeof side>, ctx: Context) {
  mergeDepositHalves(ctx, whole, first, (data) => ({ ...data, ...slot(isX ? 1 : 2, s.asset, s.wallet) }));
}

const sentAt = (n: Node) => n.msg?.createdLt ?? 0n;

/** What the pool paid back to the initiator: each refund's asset and amount, in the order the pool sent them. */
function refunds(node: Node, initiator: string | null, ctx: Context) {
  const out: { asset: string | null; amount: bigint | null; nodes: Node[] }[] = [];
  const sent = [...node.children].sort((a, b) => (sentAt(a) < sentAt(b) ? -1 : sentAt(a) > sentAt(b) ? 1 : 0));
  for (const c of sent) {
    if (c.kind !== 'tx') continue;
    if (c.opcode === DEDUST_V2.payout && c.destination === initiator) {
      const s = c.bodyAfterOp();
      s.skip(64);
      out.push({ asset: null, amount: s.loadCoins(), nodes: [c] });
    } else if (c.opcode === OP.transfer && transferOf(c).destination === initiator) {
      const leg = outgoingTransfer(c, ctx);
      out.push({ asset: leg.transfer.asset, amount: leg.transfer.amount, nodes: leg.nodes });
    }
  }
  return out;
}

/** The side that completed the escrow: its join, and the pool's log (minted) or refunds (rejected). */
const complete: Matcher = (node, ctx) => {
  const credit = node.parent;
  const carrier = credit?.parent;
  if (!node.free || node.kind !== 'tx' || credit?.opcode !== DEDUST_V2_LP.creditAsset || !carrier) return;
  const wanted = depositPayload(carrier);
  if (!wanted) return;
  const b = node.bodyAfterOp();
  b.skip(64);
  b.loadRef();
  const asked = { x: b.loadCoins(), y: b.loadCoins() };
  const initiator = loadAddr(b);
  const log = node.children.find((c) => c.kind === 'log' && c.opcode === DEDUST_V2_LP.depositEvent);
  const paidBack = refunds(node, initiator, ctx);
  if (!log && paidBack.length === 0) return;
  const e = log?.bodyAfterOp();
  const s = side(carrier, ctx);
  const c = readCredit(credit);
  const data: ActionData = {
    dex: 'dedust_v2',
    amount1: e ? e.loadCoins() : asked.x,
    amount2: e ? e.loadCoins() : asked.y,
    asset1: null,
    asset2: null,
    user_jetton_wallet_1: null,
    user_jetton_wallet_2: null,
    lp_tokens_minted: e ? e.loadCoins() : null,
    target_amount_1: wanted.x,
    target_amount_2: wanted.y,
    vault_excesses: paidBack.map((r) => ({ asset: r.asset, amount: r.amount })),
  };
  Object.assign(data, slot(c.isX ? 1 : 2, s.asset, s.wallet));
  const rest = node.children.filter((c) => c.kind === 'tx' && c.free && !paidBack.some((r) => r.nodes.includes(c)));
  const block = ctx.claim('dex_deposit_liquidity', [...s.nodes, credit, ...credit.aux(), node, ...(log ? [log] : []), ...rest, ...paidBack.flatMap((r) => r.nodes)], {
    source: initiator,
    destination: node.destination,
    destination_secondary: node.source,
    dex_deposit_liquidity_data: data,
  }, !log || node.failed);
  block.tag = `dedust_v2_deposit:${node.source}`;
};

export const dedustV2LiquidityMatchers = { partial, complete };
