// NFT marketplaces. GetGems: an item is listed by transferring it to the marketplace's deployer, which
// deploys the sale (or auction) contract from the listing's state init and transfers the item on to it;
// the sale is bought by paying it (it pays the seller, the royalty and the marketplace fee and transfers
// the item to the buyer), cancelled by op 3 (or the comment "cancel") from the seller, repriced by
// 0x6c6c2080 (query_id full_price mp_fee royalty). An auction takes bids as plain TON transfers, refunds
// the previous bidder with "Your bid has been outbid by another user.", and ends with a purchase (a bid
// at the maximum, "finish"/"stop" or their ops 0x20c9eb18/0xb95616b6) or a cancellation ("cancel",
// 0x5616c572) that returns the item. Fragment (Telegram items, .ton names): the item runs its own auction
// (teleitem_start_auction#487a8e81 query_id ^[beneficiary initial_min_bid max_bid …], cancel #371638ae,
// answered #a37a0983); a bid is TON sent to the item, the previous bidder gets #557cea20.
import type { Action, ActionData } from '../model';
import type { Block, Context, Node } from '../tree';
import { loadAddr } from '../cells';
import type { Matcher } from './matcher';
import { FINISH_COMMENTS, isFragmentItem, NFT_OP, nftTransferData, payoutComment, TRADE_END_COMMENTS } from './nft';

export const MARKET_OP = {
  saleCancel: 0x3,
  saleUpdate: 0x6c6c2080,
  auctionCancel: 0x5616c572,
  auctionFinish: 0x20c9eb18,
  auctionStop: 0xb95616b6,
  teleitemStartAuction: 0x487a8e81,
  teleitemCancelAuction: 0x371638ae,
  teleitemOk: 0xa37a0983,
  teleitemOutbid: 0x557cea20,
} as const;

const OUTBID_COMMENT = 'Your bid has been outbid by another user';

/** The top-level block of `type` a node belongs to, when it is the block's anchor (its earliest node or transfer request). */
function blockOf(node: Node | undefined, type: string): Block | null {
  const b = node?.block;
  return b && b.type === type && !b.parent ? b : null;
}

const data = (b: Block) => (b.fields.nft_transfer_data ?? {}) as ActionData;

/** The messages a block's transactions sent that no action of it holds: the steps after it. */
function nextNodes(b: Block): Node[] {
  const inside = new Set(b.nodes);
  return b.nodes.flatMap((n) => n.children.filter((c) => !inside.has(c)));
}


/** An NFT transfer's item, collection and new owner as its block recorded them. */
function itemOf(b: Block) {
  return { nft: b.fields.asset_secondary ?? null, collection: b.fields.asset ?? null, newOwner: b.fields.destination ?? null, prevOwner: b.fields.source ?? null };
}

/** A GetGems purchase: the bought item's transfer and the seller's payout (the other payouts stay TON transfers). */
const purchase: Matcher = (node, ctx) => {
  const b = blockOf(node, 'nft_transfer');
  const d = b && data(b);
  if (!b || !d || d.is_purchase !== true || d.marketplace !== 'getgems' || !d.real_prev_owner) return;
  // Ended by a "finish"/"stop" comment the transfer did not take: the payouts are that message's.
  const candidates = b.nodes.includes(node.parent!) || !node.parent ? nextNodes(b) : node.parent.children;
  const payout = candidates.find((c) => c.free && c.isTonTransfer && c.destination === d.real_prev_owner);
  if (!payout) return;
  const { comment, encrypted } = payoutComment(payout);
  ctx.claim('nft_purchase', [...b.nodes, payout], {
    ...b.fields,
    nft_transfer_data: {
      ...d,
      payout_amount: payout.value,
      payout_address: payout.destination,
      payout_comment: comment,
      payout_comment_encrypted: encrypted,
      payout_comment_encoded: false,
    },
  }, b.failed);
};

/** nft_listing_data with every key, null unless set. */
function listingData(d: ActionData): ActionData {
  return {
    nft_item_index: null,
    full_price: null,
    marketplace_fee: null,
    royalty_amount: null,
    marketplace_fee_address: null,
    royalty_address: null,
    mp_fee_factor: null,
    mp_fee_base: null,
    royalty_fee_base: null,
    max_bid: null,
    min_bid: null,
    marketplace: null,
    ...d,
  };
}

/** Listing on GetGems: the transfer to the deployer, the sale's deployment and the transfer on to the sale. */
const putOnSale: Matcher = (node, ctx) => {
  const listing = blockOf(node, 'nft_transfer');
  if (!listing) return;
  const next = nextNodes(listing);
  const toSale = next.map((n) => blockOf(n, 'nft_transfer')).find((x): x is Block => !!x);
  if (!toSale) return;
  const sold = itemOf(toSale);
  const listed = itemOf(listing);
  const init = next.find((n) => n.free && n.isDeploy && n.destination === sold.newOwner);
  if (!init || sold.nft !== listed.nft) return;
  const contract = init.destination;
  const { nftSale: sale, nftAuction: auction } = ctx.info(contract);
  const index = ctx.info(sold.nft).nftItem?.index ?? null;
  const common: Partial<Action> = {
    source_secondary: listed.newOwner,
    destination: contract,
    asset: sold.collection,
    asset_secondary: sold.nft,
  };
  const nodes = [...listing.nodes, init, ...toSale.nodes];
  if (sale && sale.nft === sold.nft && sale.owner === listed.prevOwner) {
    ctx.claim('nft_put_on_sale', nodes, {
      ...common,
      source: sale.owner,
      destination_secondary: sale.marketplace,
      nft_listing_data: listingData({
        nft_item_index: index,
        full_price: sale.price,
        marketplace_fee: sale.marketplaceFee ?? null,
        royalty_amount: sale.royaltyAmount ?? null,
        marketplace_fee_address: sale.marketplaceFeeAddress ?? null,
        royalty_address: sale.royaltyAddress ?? null,
        marketplace: 'getgems',
      }),
    }, listing.failed || toSale.failed);
  } else if (auction && auction.nft === sold.nft && auction.owner === listed.prevOwner) {
    ctx.claim('nft_put_on_auction', nodes, {
      ...common,
      source: auction.owner,
      destination_secondary: auction.marketplace,
      nft_listing_data: listingData({
        nft_item_index: index,
        mp_fee_factor: auction.mpFeeFactor ?? null,
        mp_fee_base: auction.mpFeeBase ?? null,
        royalty_fee_base: auction.royaltyBase ?? null,
        max_bid: auction.maxBid ?? null,
        min_bid: auction.minBid ?? null,
        marketplace_fee_address: auction.mpFeeAddress ?? null,
        royalty_address: auction.royaltyAddress ?? null,
        marketplace: 'getgems',
      }),
    }, listing.failed || toSale.failed);
  }
};

/** The item a sale or auction gave back in answer to `node`: the top-level transfer (or purchase) it sent. */
function returned(node: Node, type: string): Block | null {
  for (const c of node.children) {
    const b = c.opcode === NFT_OP.transfer ? blockOf(c, type) : null;
    if (b) return b;
  }
  return null;
}

/** An order to a sale or auction (cancel, finish): from whoever sent it, about the item it gave away. */
function tradeFields(node: Node, b: Block, marketplace: string | null, ctx: Context): Partial<Action> {
  const it = itemOf(b);
  return {
    source: node.source,
    destination: node.destination,
    asset: it.collection,
    asset_secondary: it.nft,
    nft_transfer_data: { marketplace_address: marketplace, nft_item_index: ctx.info(it.nft).nftItem?.index ?? null, marketplace: 'getgems' },
  };
}

const isCancelOrder = (n: Node, comments: string[], ops: number[]) =>
  n.isTonTransfer ? comments.includes(n.comment() ?? '') : n.opcode !== null && ops.includes(n.opcode);

/** The seller takes the item back from a GetGems sale: op 3 (or "cancel"), answered by the item's transfer back. */
const cancelSale: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx' || !isCancelOrder(node, ['cancel'], [MARKET_OP.saleCancel])) return;
  const sale = ctx.info(node.destination).nftSale;
  const back = returned(node, 'nft_transfer');
  if (!sale || !back || itemOf(back).nft !== sale.nft) return;
  ctx.claim('nft_cancel_sale', [node], tradeFields(node, back, sale.marketplace, ctx), node.failed);
};

/** An auction ended by "finish"/"stop" (or their ops) with a winner: the purchase follows it. */
const finishAuction: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx' || !isCancelOrder(node, FINISH_COMMENTS, [MARKET_OP.auctionFinish, MARKET_OP.auctionStop])) return;
  const auction = ctx.info(node.destination).nftAuction;
  const sold = returned(node, 'nft_purchase');
  if (!auction || !sold || itemOf(sold).nft !== auction.nft) return;
  ctx.claim('nft_finish_auction', [node], tradeFields(node, sold, null, ctx), node.failed);
};

/** An auction cancelled (or finished without a bid): the item goes back to its seller. */
const cancelAuction: Matcher = (node, ctx) => {
  const ops = [MARKET_OP.auctionCancel, MARKET_OP.auctionFinish, MARKET_OP.auctionStop];
  if (!node.free || node.kind !== 'tx' || !isCancelOrder(node, TRADE_END_COMMENTS, ops)) return;
  const auction = ctx.info(node.destination).nftAuction;
  const back = returned(node, 'nft_transfer');
  if (!auction || !back || itemOf(back).nft !== auction.nft) return;
  const finish = node.isTonTransfer ? FINISH_COMMENTS.includes(node.comment() ?? '') : node.opcode !== MARKET_OP.auctionCancel;
  ctx.claim(finish ? 'nft_finish_auction' : 'nft_cancel_auction', [node], tradeFields(node, back, auction.marketplace, ctx), node.failed);
};

/** The seller reprices a GetGems sale (query_id new_full_price:Coins new_marketplace_fee:Coins new_royalty:Coins). */
const updateSale: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const sale = ctx.info(node.destination).nftSale;
  if (!sale) return;
  const s = node.bodyAfterOp();
  s.skip(64);
  const [price, fee, royalty] = [s.loadCoins(), s.loadCoins(), s.loadCoins()];
  ctx.claim('nft_update_sale', [node], {
    source: node.source,
    destination: node.destination,
    asset_secondary: sale.nft,
    nft_transfer_data: { marketplace_address: sale.marketplace, marketplace: 'getgems' },
    nft_listing_data: listingData({ full_price: price, marketplace_fee: fee, royalty_amount: royalty, marketplace: 'getgems' }),
  }, node.failed);
};

/** What a bid goes to: a GetGems auction (by its interface) or a Fragment item's own auction. */
function auctionOf(node: Node, ctx: Context): { nft: string | null; type: 'getgems' | 'fragment'; marketplace: string | null } | null {
  const info = ctx.info(node.destination);
  if (info.nftAuction) return { nft: info.nftAuction.nft, type: 'getgems', marketplace: info.nftAuction.marketplace };
  const item = info.nftItem;
  if (!item) return null;
  // A .ton name's auction is told apart from a plain payment to it by the outbid it answers with.
  if (isFragmentItem(item.uri) || (item.dns && node.child(MARKET_OP.teleitemOutbid))) return { nft: node.destination, type: 'fragment', marketplace: null };
  return null;
}

const bid: Matcher = (node, ctx) => {
  if (!node.free || node.isDeploy || TRADE_END_COMMENTS.includes(node.comment() ?? '')) return;
  const a = auctionOf(node, ctx);
  if (!a) return;
  const item = ctx.info(a.nft).nftItem;
  ctx.claim('auction_bid', [node], {
    source: node.source,
    destination: node.destination,
    asset: item?.collection ?? null,
    asset_secondary: a.nft,
    value: node.value,
    nft_transfer_data: { nft_item_index: item?.index ?? null, marketplace_address: a.marketplace, auction_type: a.type },
  }, node.failed);
};

/** The previous bidder's refund after a new bid: exactly one per bid, from the auction the bid went to. */
const outbid: Matcher = (node, ctx) => {
  const b = blockOf(node.parent ?? undefined, 'auction_bid');
  if (!node.free || !b || node.source !== b.fields.destination) return;
  const d = data(b);
  const getgems = d.auction_type === 'getgems';
  const isLeg = (c: Node) => c.free && c.source === node.source && (getgems ? c.isTonTransfer && (c.comment() ?? '').includes(OUTBID_COMMENT) : c.opcode === MARKET_OP.teleitemOutbid);
  if (!isLeg(node) || node.parent!.children.filter(isLeg).length !== 1) return;
  ctx.claim('auction_outbid', [node], {
    source: node.source,
    source_secondary: b.fields.source ?? null,
    destination: node.destination,
    asset: b.fields.asset ?? null,
    asset_secondary: b.fields.asset_secondary ?? null,
    amount: node.value,
    ton_transfer_data: { content: getgems ? node.comment() : null, encrypted: false },
    nft_transfer_data: { nft_item_index: d.nft_item_index ?? null, marketplace_address: d.marketplace_address ?? null, auction_type: d.auction_type ?? null },
  }, node.failed);
};

/** A Fragment item put on (or taken off) its own auction by its owner. */
const teleitemAuction: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const item = ctx.info(node.destination).nftItem;
  if (!item || !isFragmentItem(item.uri)) return;
  const ok = node.child(MARKET_OP.teleitemOk);
  const nodes = ok ? [node, ok] : [node];
  const common: Partial<Action> = { source: node.source, destination: node.destination, asset: item.collection, asset_secondary: node.destination };
  if (node.opcode === MARKET_OP.teleitemCancelAuction) {
    ctx.claim('teleitem_cancel_auction', nodes, { ...common, nft_transfer_data: nftTransferData(ctx, node.destination, { marketplace: 'fragment' }) }, node.tx.aborted);
    return;
  }
  const s = node.bodyAfterOp();
  s.skip(64);
  const config = s.loadRef().beginParse();
  const beneficiary = loadAddr(config);
  const minBid = config.loadCoins();
  const maxBid = config.loadCoins();
  ctx.claim('teleitem_start_auction', nodes, {
    ...common,
    nft_listing_data: listingData({
      nft_item_index: item.index,
      mp_fee_factor: 0n,
      mp_fee_base: 0n,
      royalty_fee_base: 0n,
      max_bid: maxBid,
      min_bid: minBid,
      marketplace_fee_address: beneficiary,
      marketplace: 'fragment',
    }),
  }, node.tx.aborted);
};

export const marketplaceMatchers = { purchase, putOnSale, cancelSale, finishAuction, cancelAuction, updateSale, bid, outbid, teleitemAuction };
