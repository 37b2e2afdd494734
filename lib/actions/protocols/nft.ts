// TEP-62 NFTs: mints (a transaction that deploys a known item), transfers (transfer#5fcc3d14 to the item,
// with its ownership_assigned and excess; bought when the sender is a GetGems sale or auction that was
// paid and hands the item to someone else than its seller), discovery (get_static_data answered by
// report_static_data), and Telegram items (Fragment): ownership_assigned carrying the winning bid
// (#38127de1 bid:Coins bid_ts:uint32), the buyer's payment that made the item assign itself and the
// item's fill-up payouts (#370fec51: royalty first, then the seller).
import type { Cell } from '@ton/core';
import { OPS, readBody } from '../bodies';
import { bocBase64, readComment } from '../cells';
import type { ActionData, NftAuctionInfo, NftSaleInfo } from '../model';
import type { Context, Node } from '../tree';
import { DNS_OP } from './dns';
import { OP as JETTON_OP } from './jettons';
import type { Matcher } from './matcher';

export const NFT_OP = {
  transfer: OPS.nft_transfer,
  ownershipAssigned: OPS.nft_ownership_assigned,
  getStaticData: OPS.get_static_data,
  reportStaticData: OPS.report_static_data,
  /** Fragment: the item pays the royalty and the seller when an auction ends. */
  auctionFillUp: DNS_OP.fillUp,
  /** Telemint: an item deployed by its collection for the winner. */
  telemintDeploy: 0x299a3e15,
  teleitemBidInfo: 0x38127de1,
} as const;

/** Comments a seller sends an auction to end it with the last bid winning. */
export const FINISH_COMMENTS = ['finish', 'stop'];
/** Comments that end a GetGems sale or auction: the item leaves without a purchase by its sender. */
export const TRADE_END_COMMENTS = ['cancel', ...FINISH_COMMENTS];
export const isFragmentItem = (uri: string | null | undefined) => !!uri && uri.includes('https://nft.fragment.com');

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
type Slice = ReturnType<Cell['beginParse']>;


/** nft_transfer_data with every key toncenter's record has, null unless set. */
export function nftTransferData(ctx: Context, item: string | null, d: ActionData): ActionData {
  return {
    query_id: null,
    is_purchase: false,
    price: null,
    nft_item_index: ctx.info(item).nftItem?.index ?? null,
    forward_amount: null,
    custom_payload: null,
    forward_payload: null,
    response_destination: null,
    marketplace: null,
    marketplace_address: null,
    real_prev_owner: null,
    payout_amount: null,
    payout_address: null,
    payout_comment: null,
    payout_comment_encrypted: null,
    payout_comment_encoded: null,
    royalty_amount: null,
    royalty_address: null,
    ...d,
  };
}

/** A transaction that deployed an NFT item the index knows: its mint (whoever deployed it). */
const mint: Matcher = (node, ctx) => {
  if (!node.free || !node.isDeploy) return;
  const item = ctx.info(node.tx.account).nftItem;
  if (!item) return;
  ctx.claim(
    'nft_mint',
    [node],
    {
      source: node.source,
      destination: node.tx.account,
      asset: item.collection,
      asset_secondary: node.tx.account,
      opcode: node.opcode,
      nft_mint_data: { nft_item_index: item.index },
    },
    node.failed,
  );
};

interface Purchase {
  marketplaceAddress: string | null;
  price: bigint | null;
  realPrevOwner: string | null;
}

/**
 * The trade a transfer completes: the sender is a GetGems sale that the message before it paid, or a
 * GetGems auction, selling this very item. Null for a plain transfer (and for a sale or auction giving
 * the item back to its seller: a cancellation, not a purchase).
 */
function purchaseOf(node: Node, item: string | null, newOwner: string | null, ctx: Context): Purchase | null {
  const parent = node.parent;
  if (!parent || !item) return null;
  const seller = ctx.info(node.source);
  const paid = parent.destination === node.source;
  const sale: NftSaleInfo | undefined = paid ? seller.nftSale : undefined;
  const auction: NftAuctionInfo | undefined = sale ? undefined : ctx.info(parent.tx.account).nftAuction;
  const trade = sale
    ? { marketplaceAddress: sale.marketplace, nft: sale.nft, price: sale.price, realPrevOwner: sale.owner }
    : auction
      ? { marketplaceAddress: auction.marketplace, nft: auction.nft, price: auction.lastBid, realPrevOwner: auction.owner }
      : null;
  if (!trade || trade.nft !== item || trade.realPrevOwner === newOwner) return null;
  return trade;
}

/** The payment that bought the item belongs to the transfer, unless it only ended the trade ("finish", "stop"). */
function payment(node: Node): Node | null {
  const parent = node.parent;
  if (!parent?.free || parent.kind !== 'tx') return null;
  if (parent.isTonTransfer) return FINISH_COMMENTS.includes(parent.comment() ?? '') ? null : parent;
  return parent.destination === node.source ? parent : null;
}

const transfer: Matcher = (node, ctx) => {
  if (!node.free || node.kind === 'log') return;
  const itemAddress = node.destination;
  const item = ctx.info(itemAddress).nftItem;
  if (!item) return;
  const t = readNftTransfer(node.body());
  const assigned = node.child(NFT_OP.ownershipAssigned);
  const excess = node.child(JETTON_OP.excesses);
  const prevOwner = assigned ? readOwnership(assigned).prevOwner : node.source;
  const purchase = purchaseOf(node, itemAddress, t.newOwner, ctx);
  const nodes = [node, ...(assigned ? [assigned] : []), ...(excess ? [excess] : [])];
  const paidBy = purchase ? payment(node) : null;
  if (paidBy) nodes.push(paidBy);
  ctx.claim(
    'nft_transfer',
    nodes,
    {
      source: prevOwner,
      destination: t.newOwner,
      asset: item.collection,
      asset_secondary: itemAddress,
      nft_transfer_data: nftTransferData(ctx, itemAddress, {
        query_id: t.queryId,
        is_purchase: !!purchase,
        price: purchase?.price ?? null,
        forward_amount: t.forwardAmount,
        custom_payload: t.customPayload ? bocBase64(t.customPayload) : null,
        forward_payload: t.forwardPayload ? bocBase64(t.forwardPayload) : null,
        response_destination: t.response,
        marketplace: purchase ? 'getgems' : null,
        marketplace_address: purchase?.marketplaceAddress ?? null,
        real_prev_owner: purchase?.realPrevOwner ?? null,
      }),
    },
    node.failed,
  );
};

export function readOwnership(n: Node) {
  const f = readBody(n.body(), 'nft_ownership_assigned');
  return { queryId: f.query_id as bigint | null, prevOwner: f.prev_owner as string | null, payload: f.forward_payload as Cell | null };
}

/** The winning bid a Fragment item names in its ownership_assigned payload; null for any other payload. */
function teleitemBid(payload: Cell | null): bigint | null {
  if (!payload) return null;
  const s = payload.beginParse();
  if (s.remainingBits < 32 || s.loadUint(32) !== NFT_OP.teleitemBidInfo) return null;
  return s.loadCoins();
}

/**
 * An item announcing its new owner without a transfer request: a Fragment item sold at the end of its
 * auction (the payment that ended it and the item's fill-up payouts belong to it), or an item minted or
 * moved by its own logic.
 */
const ownershipAssigned: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const itemAddress = node.source;
  const item = ctx.info(itemAddress).nftItem;
  if (!item) return;
  const o = readOwnership(node);
  const bid = teleitemBid(o.payload);
  const parent = node.parent;
  const d: ActionData = { query_id: o.queryId, forward_payload: o.payload ? bocBase64(o.payload) : null };
  const nodes = [node];
  if (bid !== null) {
    const minted = !!parent && (parent.opcode === NFT_OP.telemintDeploy || parent.block.type === 'nft_mint');
    Object.assign(d, { is_purchase: !minted, price: bid, marketplace: 'fragment', real_prev_owner: null });
    const paidBy = parent?.free && (parent.isTonTransfer || (parent.kind === 'tx' && parent.source === null)) ? parent : null;
    if (paidBy) {
      // The royalty (sending fee) is always the first fill-up sent, the seller's payout the second.
      const payouts = paidBy.children
        .filter((c) => c.free && c.kind === 'tx' && c.opcode === NFT_OP.auctionFillUp)
        .sort((a, b) => ((a.msg!.createdLt ?? 0n) < (b.msg!.createdLt ?? 0n) ? -1 : 1));
      const [royalty, payout] = payouts.length > 1 ? payouts : [null, payouts[0] ?? null];
      if (payout) Object.assign(d, { payout_amount: payout.value, payout_address: payout.destination });
      if (royalty) Object.assign(d, { royalty_amount: royalty.value, royalty_address: royalty.destination });
      nodes.push(paidBy, ...payouts);
    }
  }
  ctx.claim('nft_transfer', nodes, {
    source: o.prevOwner,
    destination: node.destination,
    asset: item.collection,
    asset_secondary: itemAddress,
    nft_transfer_data: nftTransferData(ctx, itemAddress, d),
  });
};

/** TEP-62 get_static_data answered by report_static_data#8b771735 (query_id, index:uint256, collection). */
const discovery: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const report = node.child(NFT_OP.reportStaticData);
  if (!report) return;
  const r = readBody(report.body(), 'report_static_data');
  ctx.claim('nft_discovery', [node, report], {
    source: node.source,
    asset: r.collection as string | null,
    asset_secondary: node.destination,
    nft_transfer_data: { nft_item_index: r.index as bigint | null, query_id: r.query_id as bigint | null },
  }, node.failed);
};

/** A TON transfer's comment as toncenter's ton_transfer reads it, for payouts: text, encrypted, or absent. */
export function payoutComment(n: Node) {
  if (n.opcode === null) return { comment: null, encrypted: false };
  return readComment(n.cell?.beginParse() ?? null);
}

export const nftMatchers = { mint, transfer, ownershipAssigned, discovery };
