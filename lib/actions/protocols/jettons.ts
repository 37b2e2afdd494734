// TEP-74 jettons: transfer (wallet → wallet, with the receiver's notification), mint (the master's
// internal_transfer into a wallet) and burn (wallet → master burn_notification).
import { Cell, type Slice } from '@ton/core';
import { OPS, readBody, type RawField } from '../bodies';
import { bocBase64, readComment } from '../cells';
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
