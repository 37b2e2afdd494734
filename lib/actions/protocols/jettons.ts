// TEP-74 jettons: transfer (wallet → wallet, with the receiver's notification; a proxy-TON wallet
// notifies without an internal transfer), mint (a mint request to the master and the internal_transfer
// it makes) and burn (wallet → master burn_notification).
import { Cell, type Slice } from '@ton/core';
import { PTON_MASTERS } from '../addresses';
import { OPS, readBody, type RawField } from '../bodies';
import { bocBase64, loadAddr, readComment } from '../cells';
import type { Context, Node } from '../tree';
import type { Matcher } from './matcher';

// Opcodes from the one table of bodies (lib/actions/bodies.ts), under the names the matchers use.
export const OP = {
  transfer: OPS.jetton_transfer,
  internalTransfer: OPS.jetton_internal_transfer,
  notify: OPS.jetton_notify,
  excesses: OPS.excess,
  burn: OPS.jetton_burn,
  burnNotification: OPS.jetton_burn_notification,
} as const;

// Layouts are read by the body table (readBody); these give the matchers typed fields.
const big = (v: RawField): bigint => (typeof v === 'bigint' ? v : 0n);
const addr = (v: RawField): string | null => (typeof v === 'string' ? v : null);
const cell = (v: RawField): Cell | null => (v instanceof Cell ? v : null);

export interface JettonTransferBody {
  queryId: bigint;
  amount: bigint;
  destination: string | null;
  response: string | null;
  customPayload: Cell | null;
  forwardAmount: bigint;
  forwardPayload: Cell | null;
}

export function readTransfer(s: Slice): JettonTransferBody {
  const f = readBody(s, 'jetton_transfer');
  return {
    queryId: big(f.query_id),
    amount: big(f.amount),
    destination: addr(f.destination),
    response: addr(f.response_destination),
    customPayload: cell(f.custom_payload),
    forwardAmount: big(f.forward_ton_amount),
    forwardPayload: cell(f.forward_payload),
  };
}

export function readInternalTransfer(s: Slice) {
  const f = readBody(s, 'jetton_internal_transfer');
  return { queryId: big(f.query_id), amount: big(f.amount), from: addr(f.from), response: addr(f.response_address), forwardAmount: big(f.forward_ton_amount) };
}

export function readNotify(s: Slice) {
  const f = readBody(s, 'jetton_notify');
  return { queryId: big(f.query_id), amount: big(f.amount), sender: addr(f.sender), payload: cell(f.forward_payload)?.beginParse() ?? null };
}

export function readBurn(s: Slice) {
  const f = readBody(s, 'jetton_burn');
  return { queryId: big(f.query_id), amount: big(f.amount), response: addr(f.response_destination), customPayload: cell(f.custom_payload) };
}

export function readBurnNotification(s: Slice) {
  const f = readBody(s, 'jetton_burn_notification');
  return { queryId: big(f.query_id), amount: big(f.amount), sender: addr(f.sender), response: addr(f.response_destination) };
}

// The same bodies read from a node, once per node (several protocols' matchers read one transfer).
export const transferOf = (n: Node): JettonTransferBody => n.memo('jetton_transfer', () => readTransfer(n.body()));
export const internalTransferOf = (n: Node): ReturnType<typeof readInternalTransfer> => n.memo('jetton_internal_transfer', () => readInternalTransfer(n.body()));
export function notifyOf(n: Node) {
  const f = n.memo('jetton_notify', () => {
    const r = readBody(n.body(), 'jetton_notify');
    return { queryId: big(r.query_id), amount: big(r.amount), sender: addr(r.sender), payload: cell(r.forward_payload) };
  });
  return { ...f, payload: f.payload?.beginParse() ?? null };
}

/** A jetton (master) as a swap or liquidity action names it: TON for a proxy-TON master. */
export const assetOfJetton = (jetton: string | null): string | null => (jetton && PTON_MASTERS.has(jetton) ? null : jetton);

/**
 * A node a protocol action may start from: no action holds it, or only the jetton transfer it ends (a
 * protocol action built on a transfer's notification takes the transfer in, as a nested action).
 */
export const openOrTransfer = (n: Node): boolean => n.free || (n.block.type === 'jetton_transfer' && !n.block.parent && n.kind !== 'log');

/** A step's own node and what it leaves (excesses, bounces): how every non-anchor step of a flow is taken. */
export const step = (n: Node | undefined): Node[] => (n ? [n, ...n.aux()] : []);

/**
 * The nodes of a jetton transfer started at `node` (the request to the sender's wallet): the wallet's
 * internal_transfer to the receiver's wallet and the receiver's notification, with the excesses and
 * bounces those steps sent. A proxy-TON wallet has no internal transfer: it notifies directly.
 */
export function transferNodes(node: Node): { internal: Node | undefined; notify: Node | undefined; nodes: Node[] } {
  const internal = node.child(OP.internalTransfer);
  const notify = internal ? internal.child(OP.notify) : node.child(OP.notify);
  return { internal, notify, nodes: [node, ...step(internal), ...step(notify)] };
}

/** A jetton transfer's own fields, from its first message; null when the sender's wallet is unknown. */
export function transferFields(node: Node, ctx: Context) {
  const body = transferOf(node);
  const senderWallet = node.destination;
  const known = ctx.jettonWallet(senderWallet);
  const internal = node.child(OP.internalTransfer);
  // An intended transfer of a failed external: the wallet that would have sent it is the owner.
  const sender = known?.owner ?? (node.kind === 'ghost' ? node.source : null);
  if (!sender) return null;
  const pton = !!known && PTON_MASTERS.has(known.jetton) && !internal;
  const receiverWallet = pton ? null : (internal?.destination ?? null);
  // The receiver is who owns the wallet the jettons reached (a transfer may name another address).
  const receiver = ctx.jettonWallet(receiverWallet)?.owner ?? body.destination;
  const amount = internal ? internalTransferOf(internal).amount : body.amount;
  const { comment, encrypted } = readComment(body.forwardPayload?.beginParse() ?? null);
  return {
    body,
    sender,
    senderWallet: pton ? null : senderWallet,
    receiver,
    receiverWallet,
    amount,
    asset: known?.jetton ?? null,
    data: {
      query_id: body.queryId,
      response_destination: body.response,
      forward_amount: body.forwardAmount,
      custom_payload: body.customPayload ? bocBase64(body.customPayload) : null,
      forward_payload: body.forwardPayload ? bocBase64(body.forwardPayload) : null,
      comment,
      is_encrypted_comment: encrypted,
    },
  };
}

/** TEP-74 transfer: failed when the sender's wallet or the receiver's wallet aborted. */
const transfer: Matcher = (node, ctx) => {
  if (!node.free || node.kind === 'log') return;
  const f = transferFields(node, ctx);
  if (!f) return;
  const { internal, nodes } = transferNodes(node);
  ctx.claim(
    'jetton_transfer',
    nodes,
    {
      source: f.sender,
      source_secondary: f.senderWallet,
      destination: f.receiver,
      destination_secondary: f.receiverWallet,
      amount: f.amount,
      asset: f.asset,
      jetton_transfer_data: f.data,
    },
    node.failed || !!internal?.failed,
  );
};

/** TEP-74 burn: the wallet's burn_notification to the master (and the master's excess) belong to it. */
const burn: Matcher = (node, ctx) => {
  if (!node.free) return;
  const wallet = ctx.jettonWallet(node.destination);
  if (!wallet) return;
  const body = readBurn(node.body());
  const notification = node.child(OP.burnNotification);
  ctx.claim('jetton_burn', [node, ...step(notification)], { source: wallet.owner, source_secondary: node.destination, asset: wallet.jetton, amount: body.amount }, node.failed);
};

const MINT_OPS = [OPS.jetton_mint, 0x15];

/**
 * A mint: the request to the master (the standard minter's mint#642b7d07 or the reference minter's
 * mint#15: query_id to_address ton_amount:Coins ^master_msg) and what the master made of it, its
 * internal_transfer into the receiver's wallet with the notification. No internal transfer (the master
 * refused) is a failed mint of what was asked.
 */
const mint: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx' || node.opcode === null) return;
  const s = node.bodyAfterOp();
  s.skip(64);
  const to = loadAddr(s);
  const tonAmount = s.loadCoins();
  const master = node.destination;
  const internal = node.child((c) => c.opcode === OP.internalTransfer && c.kind === 'tx' && c.source === master);
  const wallet = internal && !node.failed ? ctx.jettonWallet(internal.destination) : undefined;
  if (internal && !node.failed && !wallet) return;
  if (internal && wallet) {
    const notify = internal.child(OP.notify);
    ctx.claim('jetton_mint', [node, ...step(internal), ...step(notify)], {
      destination: wallet.owner,
      destination_secondary: internal.destination,
      asset: wallet.jetton,
      amount: internalTransferOf(internal).amount,
      value: tonAmount,
    }, internal.failed);
    return;
  }
  // Only the reference minter's request says the amount (its master_msg is the internal_transfer to send).
  const asked = node.opcode === 0x15 && s.remainingRefs > 0 ? readInternalTransfer(s.loadRef().beginParse()).amount : null;
  ctx.claim('jetton_mint', [node, ...node.aux()], { destination: to, asset: master, amount: asked, value: tonAmount }, true);
};

export const jettonMatchers = { transfer, burn, mint, MINT_OPS };
