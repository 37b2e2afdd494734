// ActionLine's words for the marketplace types, rendered as the pages render them: every party a link
// (by its address book name), the amounts in TON.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ActionJson } from '@/lib/api/v3/models/actions';
import type { AddressBookJson } from '@/lib/api/v3/models/common';
import { ACTIVITY_FILTERS } from '@/lib/format/action';
import { ActionLine } from './ActionLine';

const addr = (n: number) => `0:${n.toString(16).toUpperCase().padStart(64, '0')}`;
const [SELLER, ITEM, SALE, BUYER, AUCTION, BIDDER] = [1, 2, 3, 4, 5, 6].map(addr);
const book: AddressBookJson = Object.fromEntries([SELLER, ITEM, SALE, BUYER, AUCTION, BIDDER].map((a, i) => [a, { user_friendly: `friendly${i}`, domain: null }])) as AddressBookJson;

function line(type: string, details: Record<string, unknown>, success = true): string {
  const action = { type, success, details } as unknown as ActionJson;
  return renderToStaticMarkup(createElement(ActionLine, { action, book, masters: new Map() })).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

describe('ActionLine: marketplace actions in words', () => {
  it('a listing, a purchase, a cancellation', () => {
    expect(line('nft_put_on_sale', { owner: SELLER, nft_item: ITEM, sale_address: SALE, full_price: '5000000000' })).toMatch(/NFT listed for sale .*friendly0.* put NFT .*friendly1.* on sale for 5 TON .*friendly2/);
    expect(line('nft_purchase', { new_owner: BUYER, nft_item: ITEM, is_purchase: true, price: '5000000000' })).toMatch(/friendly3.* bought NFT .*friendly1.* for 5 TON/);
    expect(line('nft_cancel_sale', { owner: SELLER, nft_item: ITEM, sale_address: SALE })).toMatch(/Sale cancelled .*friendly0.* cancelled the sale of NFT .*friendly1/);
  });

  it('an auction: listed, bid on, outbid, finished or cancelled', () => {
    expect(line('nft_put_on_auction', { owner: SELLER, nft_item: ITEM, auction_address: AUCTION, min_bid: '1000000000' })).toMatch(/put NFT .*friendly1.* on auction .*friendly4.*bids from 1 TON/);
    expect(line('auction_bid', { bidder: BIDDER, amount: '1500000000', nft_item: ITEM, auction: AUCTION })).toMatch(/friendly5.* bid 1\.5 TON for NFT .*friendly1.* at .*friendly4/);
    expect(line('auction_outbid', { bidder: BIDDER, new_bidder: BUYER, amount: '1500000000', nft_item: ITEM, auction_address: AUCTION })).toMatch(/friendly5.* was outbid by .*friendly3.*1\.5 TON back from .*friendly4/);
    expect(line('nft_finish_auction', { owner: SELLER, nft_item: ITEM, auction_address: AUCTION })).toMatch(/Auction finished .*friendly0.* finished the auction of NFT/);
    expect(line('nft_cancel_auction', { owner: SELLER, nft_item: ITEM, auction_address: AUCTION }, false)).toMatch(/Auction cancelled .*Failed .*friendly0.* cancelled the auction/);
  });

  it('every marketplace type is in the NFTs filter', () => {
    const nft = ACTIVITY_FILTERS.find((f) => f.id === 'nft')!.types!;
    for (const t of ['nft_put_on_sale', 'nft_put_on_auction', 'nft_purchase', 'nft_cancel_sale', 'nft_update_sale', 'auction_bid', 'auction_outbid', 'nft_cancel_auction', 'nft_finish_auction', 'teleitem_start_auction', 'teleitem_cancel_auction']) {
      expect(nft, t).toContain(t);
    }
  });
});
