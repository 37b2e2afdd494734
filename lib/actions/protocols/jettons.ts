// TEP-74 jettons: transfer (wallet → wallet, with the receiver's notification), mint (the master's
// internal_transfer into a wallet) and burn (wallet → master burn_notification).
import type { Cell, Slice } from '@ton/core';
import { bocBase64, loadAddr, loadEitherCell, loadMaybeRef, readComment } from '../cells';
import type { Context, Node } from '../tree';
import type { Matcher } from './matcher';

export const OP = {
  transfer: 0x0f8a7ea5,
  internalTransfer: 0x178d4519,
  notify: 0x7362d09c,
  excesses: 0xd53276db,
  burn: 0x595f07bc,
  burnNotification: 0x7bdd97de,
} as const;

// transfer#0f8a7ea5 query_id:uint64 amount:Coins destination:MsgAddress response_destination:MsgAddress
//   custom_payload:(Maybe ^Cell) forward_ton_amount:Coins forward_payload:(Either Cell ^Cell)
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
  if (s.loadUint(32) !== OP.transfer) throw new Error('not a jetton transfer');
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const destination = loadAddr(s);
  const response = loadAddr(s);
  const customPayload = loadMaybeRef(s);
  const forwardAmount = s.loadCoins();
  let forwardPayload: Cell | null = null;
  if (s.remainingBits > 0) forwardPayload = loadEitherCell(s);
  return { queryId, amount, destination, response, customPayload, forwardAmount, forwardPayload };
}

// internal_transfer#178d4519 query_id:uint64 amount:Coins from:MsgAddress response_address:MsgAddress
//   forward_ton_amount:Coins forward_payload:(Either Cell ^Cell)
export function readInternalTransfer(s: Slice) {
  if (s.loadUint(32) !== OP.internalTransfer) throw new Error('not an internal transfer');
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const from = loadAddr(s);
  const response = loadAddr(s);
  const forwardAmount = s.remainingBits > 0 ? s.loadCoins() : 0n;
  return { queryId, amount, from, response, forwardAmount };
}

// transfer_notification#7362d09c query_id:uint64 amount:Coins sender:MsgAddress forward_payload:(Either Cell ^Cell)
export function readNotify(s: Slice) {
  if (s.loadUint(32) !== OP.notify) throw new Error('not a transfer notification');
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const sender = loadAddr(s);
  const payload = s.remainingBits > 0 ? loadEitherCell(s).beginParse() : null;
  return { queryId, amount, sender, payload };
}

// burn#595f07bc query_id:uint64 amount:Coins response_destination:MsgAddress custom_payload:(Maybe ^Cell)
export function readBurn(s: Slice) {
  if (s.loadUint(32) !== OP.burn) throw new Error('not a burn');
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const response = loadAddr(s);
  // Some wallets' burn requests end before custom_payload.
  const customPayload = s.remainingBits > 0 ? loadMaybeRef(s) : null;
  return { queryId, amount, response, customPayload };
}

// burn_notification#7bdd97de query_id:uint64 amount:Coins sender:MsgAddress response_destination:MsgAddress
export function readBurnNotification(s: Slice) {
  if (s.loadUint(32) !== OP.burnNotification) throw new Error('not a burn notification');
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), sender: loadAddr(s), response: loadAddr(s) };
}

/** The nodes of a jetton transfer started at `node` (the transfer to the sender's wallet). */
export function transferNodes(node: Node): { internal: Node | undefined; notify: Node | undefined; nodes: Node[] } {
  const internal = node.child(OP.internalTransfer);
  const notify = internal ? internal.child(OP.notify) : node.child(OP.notify);
  return { internal, notify, nodes: [node, internal, notify].filter((n): n is Node => !!n) };
}

/** A jetton transfer's own fields, from its first message; null when the sender's wallet is unknown. */
export function transferFields(node: Node, ctx: Context) {
  const body = readTransfer(node.body());
  const senderWallet = node.destination;
  const known = ctx.jettonWallet(senderWallet);
  const internal = node.child(OP.internalTransfer);
  // An intended transfer of a failed external: the wallet that would have sent it is the owner.
  const sender = known?.owner ?? (node.kind === 'ghost' ? node.source : null);
  if (!sender) return null;
  const { comment, encrypted } = readComment(body.forwardPayload?.beginParse() ?? null);
  return {
    body,
    sender,
    senderWallet,
    receiverWallet: internal?.destination ?? null,
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

const transfer: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== OP.transfer || node.kind === 'log') return;
  const f = transferFields(node, ctx);
  if (!f) return;
  const { nodes } = transferNodes(node);
  ctx.claim(
    'jetton_transfer',
    nodes,
    {
      source: f.sender,
      source_secondary: f.senderWallet,
      destination: f.body.destination,
      destination_secondary: f.receiverWallet,
      amount: f.body.amount,
      asset: f.asset,
      jetton_transfer_data: f.data,
    },
    node.failed,
  );
};

const burn: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== OP.burn) return;
  const wallet = ctx.jettonWallet(node.destination);
  if (!wallet) return;
  const body = readBurn(node.body());
  const notification = node.child(OP.burnNotification);
  const nodes = [node];
  if (notification) nodes.push(notification, ...notification.childrenWith(OP.excesses));
  ctx.claim('jetton_burn', nodes, { source: wallet.owner, source_secondary: node.destination, asset: wallet.jetton, amount: body.amount }, node.failed);
};

/** A mint: the master's internal_transfer into a wallet, with the request that asked for it. */
const mint: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== OP.internalTransfer) return;
  const wallet = ctx.jettonWallet(node.destination);
  const master = node.source;
  if (!master || !wallet || wallet.jetton !== master) return;
  const body = readInternalTransfer(node.body());
  const nodes = [node];
  const request = node.parent;
  if (request && request.free && request.kind === 'tx' && request.destination === master && request.msg?.source !== null) nodes.push(request);
  const notify = node.child(OP.notify);
  if (notify) nodes.push(notify);
  ctx.claim(
    'jetton_mint',
    nodes,
    {
      destination: wallet.owner,
      destination_secondary: node.destination,
      asset: master,
      amount: body.amount,
      value: node.value,
    },
    node.failed,
  );
};

export const jettonMatchers = { transfer, burn, mint };
