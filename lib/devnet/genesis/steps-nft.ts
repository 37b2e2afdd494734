/** Genesis steps: NFT cards with a transfer and an open sale, a soulbound badge, an auction and a bought sale, the marketplace. */
import { toNano } from '@ton/core';
import { nftAuctionInit } from '../contracts/auction';
import { onchainContent, textCommentBody } from '../contracts/common';
import { nftDeployerInit } from '../contracts/marketplace';
import { nftCollectionInit, nftItemAddress, nftMintBody, nftSaleInit, nftTransferBody, sbtItemCode } from '../contracts/nft';
import type { GenesisContext } from './context';
import { GENESIS_AUCTION, GENESIS_SOLD_SALE, GENESIS_TEXTS } from './scenario';

/** Fixed times stored in contract data (they are part of addresses, so they cannot follow the clock). */
const SALE_CREATED_AT = 1_767_225_600; // 2026-01-01T00:00:00Z

/** The NFT collection, items 0..2, a transfer and a sale. */
export async function nftCards(g: GenesisContext): Promise<void> {
  const { driver, add, W, admin } = g;
  const collection = nftCollectionInit({
    owner: admin.address,
    collectionContent: onchainContent({
      name: 'Atlas Devnet Cards',
      description: 'NFTs minted at genesis of the Atlas devnet',
      image: 'https://atlas.devnet/static/cards.png',
    }),
    commonContent: 'https://atlas.devnet/nft/',
    royalty: { numerator: 5, denominator: 100, recipient: admin.address },
  });
  g.remember('nftCollection', collection.address);
  add('nft_collection', 'nft_collection', collection.address);
  const items = [0, 1, 2].map((i) => nftItemAddress(collection.address, i));
  items.forEach((a, i) => add(`nft_item_${i}`, 'nft_item', a));
  const itemOwners = [W('alice'), W('alice'), W('bob')];
  await admin.send(driver, [
    {
      to: collection.address,
      value: toNano('0.2'),
      bounce: false,
      init: collection.init,
      body: nftMintBody({ index: 0, owner: itemOwners[0].address, individualContent: '0.json', itemValue: toNano('0.05') }),
    },
  ]);
  await admin.send(driver, [
    { to: collection.address, value: toNano('0.1'), bounce: true, body: nftMintBody({ index: 1, owner: itemOwners[1].address, individualContent: '1.json', itemValue: toNano('0.05'), queryId: 1n }) },
    { to: collection.address, value: toNano('0.1'), bounce: true, body: nftMintBody({ index: 2, owner: itemOwners[2].address, individualContent: '2.json', itemValue: toNano('0.05'), queryId: 2n }) },
  ]);
  await W('alice').send(driver, [
    {
      to: items[0],
      value: toNano('0.1'),
      bounce: true,
      body: nftTransferBody({ newOwner: W('carol').address, responseDestination: W('alice').address, forwardAmount: toNano('0.01'), forwardPayload: textCommentBody(GENESIS_TEXTS.nftGift) }),
    },
  ]);
  const sale = nftSaleInit({
    marketplace: W('alice').address,
    nft: items[1],
    fullPrice: toNano('100'),
    marketplaceFeeTo: admin.address,
    marketplaceFee: toNano('2.5'),
    royaltyTo: admin.address,
    royalty: toNano('5'),
    createdAt: SALE_CREATED_AT,
  });
  add('nft_sale', 'nft_sale', sale.address);
  await W('alice').send(driver, [{ to: sale.address, value: toNano('0.1'), bounce: false, init: sale.init }]);
  await W('alice').send(driver, [
    {
      to: items[1],
      value: toNano('0.2'),
      bounce: true,
      body: nftTransferBody({ newOwner: sale.address, responseDestination: W('alice').address, forwardAmount: toNano('0.05') }),
    },
  ]);
}

/** A soulbound badge (TEP-85): bob's, revocable by the admin; his attempt to give it away bounces. */
export async function soulboundBadge(g: GenesisContext): Promise<void> {
  const { driver, add, W, admin } = g;
  const badges = nftCollectionInit({
    owner: admin.address,
    collectionContent: onchainContent({ name: 'Atlas Devnet Badges', description: 'Soulbound badges of the Atlas devnet' }),
    commonContent: 'https://atlas.devnet/sbt/',
    itemCode: sbtItemCode(),
  });
  add('sbt_collection', 'nft_collection', badges.address);
  add('sbt_item_0', 'sbt_item', nftItemAddress(badges.address, 0, sbtItemCode()));
  await admin.send(driver, [
    {
      to: badges.address,
      value: toNano('0.2'),
      bounce: false,
      init: badges.init,
      body: nftMintBody({ index: 0, owner: W('bob').address, individualContent: 'badge-0.json', itemValue: toNano('0.05'), authority: admin.address }),
    },
  ]);
  // A badge cannot be given away: bob's transfer request aborts on the item and bounces back to him.
  await W('bob').send(driver, [
    {
      to: nftItemAddress(badges.address, 0, sbtItemCode()),
      value: toNano('0.05'),
      bounce: true,
      body: nftTransferBody({ newOwner: W('alice').address, responseDestination: W('bob').address, queryId: 85n }),
    },
  ]);
}

/** Two more cards: one goes on auction (two bids), one is sold at a fixed price and bought. */
export async function auctionAndBoughtSale(g: GenesisContext): Promise<void> {
  const { driver, add, W, admin } = g;
  const collection = g.made('nftCollection');
  const item3 = nftItemAddress(collection, 3);
  const item4 = nftItemAddress(collection, 4);
  add('nft_item_3', 'nft_item', item3);
  add('nft_item_4', 'nft_item', item4);
  await admin.send(driver, [
    { to: collection, value: toNano('0.1'), bounce: true, body: nftMintBody({ index: 3, owner: W('bob').address, individualContent: '3.json', itemValue: toNano('0.05'), queryId: 3n }) },
    { to: collection, value: toNano('0.1'), bounce: true, body: nftMintBody({ index: 4, owner: W('carol').address, individualContent: '4.json', itemValue: toNano('0.05'), queryId: 4n }) },
  ]);
  const auction = nftAuctionInit(await g.code.auction, {
    marketplace: admin.address,
    nft: item3,
    createdAt: SALE_CREATED_AT,
    duration: GENESIS_AUCTION.duration,
    minBid: GENESIS_AUCTION.minBid,
    maxBid: GENESIS_AUCTION.maxBid,
    minStep: GENESIS_AUCTION.minStep,
    marketplaceFee: { address: admin.address, factor: 5, base: 100 },
    royalty: { address: admin.address, factor: 5, base: 100 },
  });
  add('nft_auction', 'nft_auction', auction.address);
  await W('bob').send(driver, [{ to: auction.address, value: toNano('0.1'), bounce: false, init: auction.init }]);
  await W('bob').send(driver, [
    { to: item3, value: toNano('0.2'), bounce: true, body: nftTransferBody({ newOwner: auction.address, responseDestination: W('bob').address, forwardAmount: toNano('0.05') }) },
  ]);
  for (const bid of GENESIS_AUCTION.bids) {
    await W(bid.bidder).send(driver, [{ to: auction.address, value: bid.amount, bounce: true }]);
  }
  const soldSale = nftSaleInit({
    marketplace: admin.address,
    nft: item4,
    fullPrice: GENESIS_SOLD_SALE.price,
    marketplaceFeeTo: admin.address,
    marketplaceFee: GENESIS_SOLD_SALE.marketplaceFee,
    royaltyTo: admin.address,
    royalty: GENESIS_SOLD_SALE.royalty,
    createdAt: SALE_CREATED_AT + 1,
  });
  add('nft_sale_sold', 'nft_sale', soldSale.address);
  // The marketplace deploys the sale (the sale contract takes its deployment from the marketplace only).
  await admin.send(driver, [{ to: soldSale.address, value: toNano('0.1'), bounce: false, init: soldSale.init }]);
  await W('carol').send(driver, [
    { to: item4, value: toNano('0.2'), bounce: true, body: nftTransferBody({ newOwner: soldSale.address, responseDestination: W('carol').address, forwardAmount: toNano('0.05') }) },
  ]);
  // bob buys it: the price plus the sale's gas allowance; the sale hands the item over and pays out.
  await W('bob').send(driver, [{ to: soldSale.address, value: GENESIS_SOLD_SALE.price + toNano('1'), bounce: true }]);
}

/**
 * The NFT marketplace: a GetGems-style deployer owned by the admin, that the background traffic lists
 * cards through (sales and auctions it then buys, bids on, cancels and finishes: traffic.ts).
 */
export async function nftMarketplace(g: GenesisContext): Promise<void> {
  const { driver, add, admin } = g;
  const deployer = nftDeployerInit(await g.code.deployer, { owner: admin.address });
  add('nft_marketplace', 'nft_marketplace', deployer.address);
  await admin.send(driver, [{ to: deployer.address, value: toNano('1'), bounce: false, init: deployer.init }]);
}
