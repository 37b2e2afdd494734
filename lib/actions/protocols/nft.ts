// TEP-62 NFTs: mints (a collection deploying an item), transfers (transfer#5fcc3d14 to the item, with
// its ownership_assigned and excess), purchases through a marketplace sale or auction contract, and
// Telegram items (Fragment) bought by sending TON to the item.
import type { Slice } from '@ton/core';
import { bocBase64, loadAddr, loadEitherCell, loadMaybeRef } from '../cells';
import type { Action } from '../model';
import type { Context, Node } from '../tree';
import { OP as JETTON_OP } from './jettons';
import type { Matcher } from './matcher';

export const NFT_OP = { transfer: 0x5fcc3d14, ownershipAssigned: 0x05138d91 };

// transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress
//   custom_payload:(Maybe ^Cell) forward_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
/** The fields of an NFT transfer request, read after its opcode. */
export function readNftTransfer(s: Slice) {
  const queryId = s.loadUintBig(64);
  const newOwner = loadAddr(s);
  const response = loadAddr(s);
  const customPayload = loadMaybeRef(s);
  const forwardAmount = s.loadCoins();
  const forwardPayload = loadEitherCell(s);
  return { queryId, newOwner, response, customPayload, forwardAmount, forwardPayload };
}

const isDeploy = (n: Node) => n.tx.origStatus !== 'active' && n.tx.endStatus === 'active';

function transferData(ctx: Context, item: string | null, d: Record<string, unknown>): Action[`${string}_data`] {
  const index = ctx.info(item).nftItem?.index ?? null;
  return {
    query_id: null,
    is_purchase: false,
    price: null,
    nft_item_index: index,
    forward_amount: null,
    custom_payload: null,
    forward_payload: null,
    response_destination: null,
    marketplace: null,
    marketplace_address: null,
    real_prev_owner: null,
    ...d,
  } as Action[`${string}_data`];
}

const mint: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx' || !isDeploy(node)) return;
  const item = ctx.info(node.destination).nftItem;
  if (!item || !item.collection || item.collection !== node.source) return;
  ctx.claim(
    'nft_mint',
    [node],
    { source: node.source, destination: node.destination, asset: item.collection, asset_secondary: node.destination, opcode: node.opcode, nft_mint_data: { nft_item_index: item.index } },
    node.failed,
  );
};

// ownership_assigned#05138d91 query_id:uint64 prev_owner:MsgAddress forward_payload:(Either Cell ^Cell)
function readOwnership(n: Node) {
  const s = n.bodyAfterOp();
  const queryId = s.loadUintBig(64);
  const prevOwner = loadAddr(s);
  const payload = s.remainingBits > 0 || s.remainingRefs > 0 ? loadEitherCell(s) : null;
  return { queryId, prevOwner, payload };
}

const transfer: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== NFT_OP.transfer || node.kind === 'log') return;
  const item = ctx.info(node.destination).nftItem;
  if (!item) return;
  const { queryId, newOwner, response, customPayload: custom, forwardAmount, forwardPayload: payload } = readNftTransfer(node.bodyAfterOp());
  const seller = ctx.info(node.source);
  const sale = seller.nftSale ?? seller.nftAuction;
  const price = seller.nftSale?.price ?? seller.nftAuction?.lastBid ?? null;
  const nodes = [node, ...node.children.filter((c) => c.kind === 'tx' && (c.opcode === NFT_OP.ownershipAssigned || c.opcode === JETTON_OP.excesses))];
  ctx.claim(
    'nft_transfer',
    nodes,
    {
      source: node.source,
      destination: newOwner,
      asset: item.collection,
      asset_secondary: node.destination,
      nft_transfer_data: transferData(ctx, node.destination, {
        query_id: queryId,
        is_purchase: !!sale,
        price: sale ? price : null,
        forward_amount: sale ? null : forwardAmount,
        custom_payload: custom ? bocBase64(custom) : null,
        forward_payload: bocBase64(payload),
        response_destination: response,
        marketplace: sale ? 'getgems' : null,
        marketplace_address: sale?.marketplace ?? null,
        real_prev_owner: sale?.owner ?? null,
      }),
    },
    node.failed,
  );
};

/** A Telegram item (username, number) sold on Fragment: the buyer's TON makes the item assign itself. */
const telegramPurchase: Matcher = (node, ctx) => {
  if (!node.free || (node.opcode !== null && node.opcode !== 0) || !node.source) return;
  const item = ctx.info(node.destination).nftItem;
  const assigned = node.child((c) => c.opcode === NFT_OP.ownershipAssigned && c.destination === node.source);
  if (!item || !assigned) return;
  const o = readOwnership(assigned);
  ctx.claim('nft_transfer', [node, ...node.children.filter((c) => c.kind === 'tx')], {
    source: o.prevOwner,
    destination: node.source,
    asset: item.collection,
    asset_secondary: node.destination,
    nft_transfer_data: transferData(ctx, node.destination, {
      query_id: o.queryId,
      is_purchase: true,
      price: node.value,
      forward_payload: o.payload ? bocBase64(o.payload) : null,
      marketplace: 'fragment',
    }),
  });
};

/** An item announcing a new owner with no transfer before it (minted straight to its owner). */
const ownershipAssigned: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== NFT_OP.ownershipAssigned || node.kind !== 'tx') return;
  const item = ctx.info(node.source).nftItem;
  if (!item) return;
  const o = readOwnership(node);
  ctx.claim('nft_transfer', [node], {
    source: o.prevOwner,
    destination: node.destination,
    asset: item.collection,
    asset_secondary: node.source,
    nft_transfer_data: transferData(ctx, node.source, { query_id: o.queryId, forward_payload: o.payload ? bocBase64(o.payload) : null }),
  });
};

export const nftMatchers = { mint, transfer, telegramPurchase, ownershipAssigned };
