// NFT, marketplace and .ton name actions as /api/v3's `details` (api-v3.md §3.7): per-type keys,
// addresses raw, amounts as decimal strings, absent values null.
import { cellFromBoc, readComment } from './cells';
import { data, str, type Details } from './details-common';
import type { Action, ActionData, ActionValue } from './model';

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

/** The comment a forward payload carries (text or encrypted), as the API reads it from the stored BoC. */
function payloadComment(payload: ActionValue | undefined): { comment: string | null; encrypted: boolean } {
  if (typeof payload !== 'string') return { comment: null, encrypted: false };
  try {
    return readComment(cellFromBoc(Buffer.from(payload, 'base64')).beginParse());
  } catch {
    return { comment: null, encrypted: false };
  }
}

/** A marketplace's name: what the record says, GetGems for GetGems' contracts. */
const marketplaceOf = (d: ActionData): string | null => (typeof d.marketplace === 'string' ? d.marketplace : null);

function nftTransfer(a: Action): Details {
  const d = data(a, 'nft_transfer');
  const purchase = a.type === 'nft_purchase' || d.is_purchase === true;
  const { comment, encrypted } = payloadComment(d.forward_payload);
  return {
    nft_collection: a.asset,
    nft_item: a.asset_secondary,
    nft_item_index: str(d.nft_item_index),
    old_owner: a.source ?? undefined,
    new_owner: a.destination,
    is_purchase: purchase,
    price: purchase ? str(d.price) : undefined,
    query_id: str(d.query_id),
    response_destination: orNull(d.response_destination),
    custom_payload: orNull(d.custom_payload),
    forward_payload: orNull(d.forward_payload),
    forward_amount: str(d.forward_amount),
    comment,
    is_encrypted_comment: encrypted,
    marketplace: purchase ? marketplaceOf(d) : null,
    real_old_owner: orNull(d.real_prev_owner),
    marketplace_address: orNull(d.marketplace_address),
    payout_amount: str(d.payout_amount),
    payout_address: a.type === 'nft_purchase' ? orNull(d.real_prev_owner) : orNull(d.payout_address),
    payout_comment: orNull(d.payout_comment),
    payout_comment_encrypted: orNull(d.payout_comment_encrypted),
    payout_comment_encoded: orNull(d.payout_comment_encoded),
    royalty_amount: str(d.royalty_amount),
    royalty_address: a.type === 'nft_purchase' ? null : orNull(d.royalty_address),
  };
}

function listing(a: Action): Details {
  const l = data(a, 'nft_listing');
  const common = { nft_collection: a.asset, nft_item: a.asset_secondary, nft_item_index: str(l.nft_item_index), owner: a.source, listing_address: a.source_secondary };
  const tail = { marketplace_fee_address: orNull(l.marketplace_fee_address), royalty_address: orNull(l.royalty_address), marketplace: marketplaceOf(l) };
  if (a.type === 'nft_put_on_sale') {
    return {
      ...common,
      sale_address: a.destination,
      marketplace_address: a.destination_secondary,
      full_price: str(l.full_price),
      marketplace_fee: str(l.marketplace_fee),
      royalty_amount: str(l.royalty_amount),
      ...tail,
    };
  }
  return {
    ...common,
    auction_address: a.destination,
    marketplace_address: a.destination_secondary,
    marketplace_fee_factor: str(l.mp_fee_factor),
    marketplace_fee_base: str(l.mp_fee_base),
    royalty_fee_base: str(l.royalty_fee_base),
    max_bid: str(l.max_bid),
    min_bid: str(l.min_bid),
    ...tail,
  };
}

/** Details of the NFT, marketplace and .ton name types; null for any other type. */
export function nftDetails(a: Action): Details | null {
  const d = data(a, 'nft_transfer');
  switch (a.type) {
    case 'nft_transfer':
    case 'nft_purchase':
      return nftTransfer(a);
    case 'nft_put_on_sale':
    case 'nft_put_on_auction':
    case 'teleitem_start_auction':
      return listing(a);
    case 'auction_bid':
      return { amount: str(a.value), bidder: a.source, auction: a.destination, nft_item: a.asset_secondary, nft_collection: a.asset, nft_item_index: str(d.nft_item_index) };
    case 'auction_outbid':
      return {
        auction_address: a.source,
        bidder: a.destination,
        new_bidder: a.source_secondary,
        nft_item: a.asset_secondary,
        nft_collection: a.asset,
        amount: str(a.amount),
        comment: orNull(data(a, 'ton_transfer').content),
        marketplace: d.auction_type === 'getgems' ? 'getgems' : d.auction_type === 'fragment' ? 'fragment' : null,
      };
    case 'nft_cancel_sale':
      return { owner: a.source, nft_item: a.asset_secondary, nft_collection: a.asset, sale_address: a.destination, marketplace_address: orNull(d.marketplace_address), marketplace: marketplaceOf(d) };
    case 'nft_cancel_auction':
    case 'nft_finish_auction':
    case 'teleitem_cancel_auction':
      return { owner: a.source, nft_item: a.asset_secondary, nft_collection: a.asset, auction_address: a.destination, marketplace_address: orNull(d.marketplace_address), marketplace: marketplaceOf(d) };
    case 'nft_update_sale': {
      const l = data(a, 'nft_listing');
      return {
        source: a.source,
        sale_contract: a.destination,
        nft_address: a.asset_secondary,
        marketplace_address: orNull(d.marketplace_address),
        marketplace: marketplaceOf(d),
        full_price: str(l.full_price),
        marketplace_fee: str(l.marketplace_fee),
        royalty_amount: str(l.royalty_amount),
      };
    }
    case 'nft_discovery':
      return { source: a.source, nft_item: a.asset_secondary, nft_collection: a.asset, nft_item_index: str(d.nft_item_index) };
    case 'dns_purchase':
      return { nft_collection: a.asset, nft_item: a.asset_secondary, nft_item_index: str(d.nft_item_index), new_owner: a.destination, price: str(d.price), query_id: str(d.query_id), payout_amount: str(d.payout_amount) };
    case 'dns_release':
      return { query_id: str(d.query_id), source: a.source, nft_item: a.destination, nft_collection: a.asset, nft_item_index: str(d.nft_item_index), value: str(a.value) };
  }
  return null;
}
