// TEP-62 NFTs: mints (a collection deploying an item), transfers (transfer#5fcc3d14 to the item, with
// its ownership_assigned and excess), purchases through a marketplace sale or auction contract, and
// Telegram items (Fragment) bought by sending TON to the item.
import type { Cell, Slice } from '@ton/core';
import { OPS, readBody } from '../bodies';
import { bocBase64 } from '../cells';
import type { Action } from '../model';
import type { Context, Node } from '../tree';
import { OP as JETTON_OP } from './jettons';
import type { Matcher } from './matcher';

export const NFT_OP = { transfer: OPS.nft_transfer, ownershipAssigned: OPS.nft_ownership_assigned };

/** The fields of an NFT transfer request (the body table's nft_transfer layout); throws on any other body. */
export function readNftTransfer(body: Slice) {
  const f = readBody(body, 'nft_transfer');
  return {
    queryId: f.query_id as bigint | null,
    newOwner: f.new_owner as string | null,
    response: f.response_destination as string | null,
    customPayload: f.custom_payload as Cell | null,
    forwardAmount: f.forward_amount as bigint | null,
    forwardPayload: f.forward_payload as Cell | null,
  };
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

function readOwnership(n: Node) {
  const f = readBody(n.body(), 'nft_ownership_assigned');
  return { queryId: f.query_id as bigint | null, prevOwner: f.prev_owner as string | null, payload: f.forward_payload as Cell | null };
}

const transfer: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== NFT_OP.transfer || node.kind === 'log') return;
  const item = ctx.info(node.destination).nftItem;
  if (!item) return;
  const { queryId, newOwner, response, customPayload: custom, forwardAmount, forwardPayload: payload } = readNftTransfer(node.body());
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
        forward_payload: payload ? bocBase64(payload) : null,
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
