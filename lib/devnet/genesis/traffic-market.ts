/**
 * The marketplace part of the background traffic: one move of a GetGems-style trade at a time, chosen
 * from what the chain holds now (so it needs no memory and survives a restart). A card a wallet owns may
 * be listed through the genesis marketplace's deployer on a fixed-price sale or an auction; an open sale
 * may be bought (by another wallet) or cancelled (op 3, by the seller); an open auction may get a bid (the
 * first, or one that outbids the last: the previous bidder is refunded), be cancelled while nobody has bid
 * or be finished by its seller (the last bid wins). Every listing's fees go to the marketplace's owner.
 */
import { Address, toNano, type Cell } from '@ton/core';
import type { Blockchain } from '@ton/sandbox';
import { compileAuctionContract, nftAuctionInit } from '../contracts/auction';
import { textCommentBody } from '../contracts/common';
import { listingPayload, saleCancelBody } from '../contracts/marketplace';
import { nftSaleInit, nftTransferBody } from '../contracts/nft';
import { readAuctionData, readNftData, readSaleData, type AuctionData, type SaleData } from '../../ton/nft-getters';
import type { SeededRandom } from './keys';
import type { OutgoingMessage, WalletHandle } from './wallet-handle';

export type MarketMove = 'list_sale' | 'list_auction' | 'buy' | 'cancel_sale' | 'bid' | 'cancel_auction' | 'finish_auction';
export const MARKET_MOVES: readonly MarketMove[] = ['list_sale', 'list_auction', 'buy', 'cancel_sale', 'bid', 'cancel_auction', 'finish_auction'];

/** Listings open at once, at most; and a listing always leaves a card with the wallets, for plain transfers. */
const MAX_OPEN = 2;

export interface MarketContext {
  bc: Blockchain;
  rng: SeededRandom;
  /** The wallets that trade (any of them may sell, buy or bid). */
  senders: WalletHandle[];
  /** The cards (transferable NFT items) that may be listed. */
  items: Address[];
  /** The marketplace's deployer (genesis `nft_marketplace`) and the address its fees go to. */
  deployer: Address;
  feeTo: Address;
  send(h: WalletHandle, messages: OutgoingMessage[]): Promise<boolean>;
}

type Listing = { item: Address; contract: Address } & ({ kind: 'sale'; sale: SaleData } | { kind: 'auction'; auction: AuctionData });

interface MarketState {
  /** Cards a trading wallet holds. */
  held: { item: Address; owner: WalletHandle }[];
  /** Open sales and auctions of the marketplace. */
  open: Listing[];
}

async function getter(bc: Blockchain, address: Address, method: string) {
  const c = await bc.getContract(address);
  if (c.accountState?.type !== 'active') return null;
  try {
    return (await bc.runGetMethod(address, method)).stack;
  } catch {
    return null;
  }
}

async function readState(ctx: MarketContext): Promise<MarketState> {
  const held: MarketState['held'] = [];
  const open: Listing[] = [];
  for (const item of ctx.items) {
    const data = await getter(ctx.bc, item, 'get_nft_data');
    const owner = data ? readNftData(data).owner : null;
    if (!owner) continue;
    const wallet = ctx.senders.find((h) => h.address.equals(owner));
    if (wallet) {
      held.push({ item, owner: wallet });
      continue;
    }
    const stack = await getter(ctx.bc, owner, 'get_sale_data');
    if (!stack) continue;
    try {
      const sale = readSaleData(stack);
      if (!sale.isComplete && sale.marketplace?.equals(ctx.deployer)) open.push({ item, contract: owner, kind: 'sale', sale });
      continue;
    } catch {
      // not a fixed-price sale
    }
    try {
      const auction = readAuctionData(stack);
      if (!auction.end && auction.marketplace?.equals(ctx.deployer)) open.push({ item, contract: owner, kind: 'auction', auction });
    } catch {
      // neither
    }
  }
  return { held, open };
}

const wallet = (ctx: MarketContext, a: Address | null) => (a ? ctx.senders.find((h) => h.address.equals(a)) : undefined);
const others = (ctx: MarketContext, ...not: (Address | null)[]) => ctx.senders.filter((h) => !not.some((a) => a && h.address.equals(a)));

/** The seller transfers the card to the deployer, naming the contract it opens. */
function listing(ctx: MarketContext, item: Address, seller: WalletHandle, init: { code: Cell; data: Cell }, body?: Cell): OutgoingMessage {
  return {
    to: item,
    value: toNano('0.25'),
    bounce: true,
    body: nftTransferBody({
      newOwner: ctx.deployer,
      responseDestination: seller.address,
      forwardAmount: toNano('0.15'),
      forwardPayload: listingPayload(init, body),
      queryId: BigInt(ctx.rng.int(1_000_000)),
    }),
  };
}

const tons = (ctx: MarketContext, min: number, max: number) => toNano(String(min + ctx.rng.int((max - min) * 10 + 1) / 10));

/** The moves the chain's state allows now, each with what it sends. */
async function possibleMoves(ctx: MarketContext): Promise<Map<MarketMove, () => Promise<boolean>>> {
  const state = await readState(ctx);
  const moves = new Map<MarketMove, () => Promise<boolean>>();
  const createdAt = () => 1_767_225_600 + ctx.rng.int(1_000_000_000);
  if (state.open.length < MAX_OPEN && state.held.length > 1) {
    moves.set('list_sale', () => {
      const { item, owner } = ctx.rng.pick(state.held);
      const price = tons(ctx, 1, 5);
      const sale = nftSaleInit({
        marketplace: ctx.deployer,
        nft: item,
        fullPrice: price,
        marketplaceFeeTo: ctx.feeTo,
        marketplaceFee: price / 20n,
        royaltyTo: ctx.feeTo,
        royalty: price / 20n,
        createdAt: createdAt(),
        nftOwner: owner.address,
      });
      return ctx.send(owner, [listing(ctx, item, owner, sale.init)]);
    });
    moves.set('list_auction', async () => {
      const { item, owner } = ctx.rng.pick(state.held);
      const auction = nftAuctionInit(await compileAuctionContract(), {
        marketplace: ctx.deployer,
        nft: item,
        createdAt: createdAt(),
        duration: 3600,
        minBid: tons(ctx, 1, 2),
        maxBid: ctx.rng.next() < 0.5 ? 0n : tons(ctx, 8, 10),
        minStep: 10,
        marketplaceFee: { address: ctx.feeTo, factor: 5, base: 100 },
        royalty: { address: ctx.feeTo, factor: 5, base: 100 },
        nftOwner: owner.address,
      });
      return ctx.send(owner, [listing(ctx, item, owner, auction.init, textCommentBody('deploy'))]);
    });
  }
  const sales = state.open.filter((l): l is Listing & { kind: 'sale' } => l.kind === 'sale');
  const auctions = state.open.filter((l): l is Listing & { kind: 'auction' } => l.kind === 'auction');
  if (sales.length > 0) {
    moves.set('buy', () => {
      const l = ctx.rng.pick(sales);
      const buyer = ctx.rng.pick(others(ctx, l.sale.nftOwner));
      // The price and GetGems' 1 TON allowance for the sale's gas (the rest comes back with the item).
      return ctx.send(buyer, [{ to: l.contract, value: l.sale.fullPrice + toNano('1'), bounce: true }]);
    });
    const cancellable = sales.filter((l) => wallet(ctx, l.sale.nftOwner));
    if (cancellable.length > 0) {
      moves.set('cancel_sale', () => {
        const l = ctx.rng.pick(cancellable);
        return ctx.send(wallet(ctx, l.sale.nftOwner)!, [{ to: l.contract, value: toNano('1'), bounce: true, body: saleCancelBody(BigInt(ctx.rng.int(1_000_000))) }]);
      });
    }
  }
  if (auctions.length > 0) {
    moves.set('bid', () => {
      const l = ctx.rng.pick(auctions);
      const a = l.auction;
      const bidder = ctx.rng.pick(others(ctx, a.nftOwner, a.lastMember));
      const least = a.lastMember ? a.lastBid + (a.lastBid * a.minStep + 99n) / 100n : a.minBid;
      const bid = least + toNano('0.1') * BigInt(ctx.rng.int(5));
      return ctx.send(bidder, [{ to: l.contract, value: a.maxBid > 0n && bid > a.maxBid ? a.maxBid : bid, bounce: true }]);
    });
    const bySeller = auctions.filter((l) => wallet(ctx, l.auction.nftOwner));
    const unbid = bySeller.filter((l) => !l.auction.lastMember);
    if (unbid.length > 0) {
      moves.set('cancel_auction', () => {
        const l = ctx.rng.pick(unbid);
        return ctx.send(wallet(ctx, l.auction.nftOwner)!, [{ to: l.contract, value: toNano('0.2'), bounce: true, body: textCommentBody('cancel') }]);
      });
    }
    const bid = bySeller.filter((l) => l.auction.lastMember);
    if (bid.length > 0) {
      moves.set('finish_auction', () => {
        const l = ctx.rng.pick(bid);
        return ctx.send(wallet(ctx, l.auction.nftOwner)!, [{ to: l.contract, value: toNano('0.2'), bounce: true, body: textCommentBody('finish') }]);
      });
    }
  }
  return moves;
}

/**
 * One marketplace move: `wanted` if the chain's state allows it now, else (with `wanted` unset) any
 * allowed one at random. False when there is none or the wallet's external was refused.
 */
export async function marketMove(ctx: MarketContext, wanted?: MarketMove): Promise<{ move: MarketMove | null; sent: boolean }> {
  const moves = await possibleMoves(ctx);
  const move = wanted ?? (moves.size > 0 ? ctx.rng.pick([...moves.keys()]) : undefined);
  const run = move ? moves.get(move) : undefined;
  if (!move || !run) return { move: null, sent: false };
  return { move, sent: await run() };
}
