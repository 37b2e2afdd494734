/**
 * The devnet's GetGems-style NFT auction: Tolk source in ./auction, compiled at run time (tolk.ts).
 * get_sale_data answers nft-auction-v2's layout (lib/ton/nft-getters.ts readAuctionData).
 *
 * data: end:Bool is_canceled:Bool created_at:uint32 duration:uint32 end_time:uint32 last_bid_at:uint32
 *       min_step:uint32 last_bid:Coins min_bid:Coins max_bid:Coins last_member:MsgAddress
 *       ^[marketplace:MsgAddress nft:MsgAddress nft_owner:MsgAddress]
 *       ^[mp_fee_address mp_fee_factor:uint32 mp_fee_base:uint32 royalty_address royalty_factor:uint32 royalty_base:uint32]
 * The auction opens when the NFT arrives (ownership_assigned): end_time = arrival + duration. A plain
 * message is a bid (the previous bidder is refunded with GetGems' outbid comment); the seller or the
 * marketplace may "cancel" it before any bid, or "finish"/"stop" it (the last bid wins).
 */
import { Address, beginCell, Cell, contractAddress, StateInit } from '@ton/core';
import { cachedCompilation, compileTolk, tolkSourceDir } from './tolk';

export interface AuctionCode {
  auction: Cell;
  compileMs: number;
}

/** Compile nft-auction.tolk (once per process). */
export const compileAuctionContract = cachedCompilation<AuctionCode>(async () => ({
  auction: await compileTolk(tolkSourceDir('auction', 'nft-auction.tolk'), 'nft-auction.tolk'),
}));

/** Exit codes the auction throws. */
export const AUCTION_EXIT = { notOpen: 1001, lowBid: 1002, notAllowed: 1003 } as const;

export interface AuctionFee {
  address: Address;
  factor: number;
  base: number;
}

export function nftAuctionInit(
  code: AuctionCode,
  args: {
    marketplace: Address;
    nft: Address;
    /** Part of the data, so part of the address: a fixed value gives a deterministic address. */
    createdAt: number;
    /** Seconds from the NFT's arrival to the end. */
    duration: number;
    minBid: bigint;
    /** 0: no buy-out price. */
    maxBid: bigint;
    /** Percent a bid must add to the last one. */
    minStep: number;
    marketplaceFee: AuctionFee;
    royalty: AuctionFee;
    /** The seller, when the auction is listed through the marketplace's deployer; else the NFT's previous owner when it arrives. */
    nftOwner?: Address;
    workchain?: number;
  },
): { address: Address; init: StateInit & { code: Cell; data: Cell } } {
  const parties = beginCell().storeAddress(args.marketplace).storeAddress(args.nft).storeAddress(args.nftOwner ?? null).endCell();
  const fees = beginCell()
    .storeAddress(args.marketplaceFee.address)
    .storeUint(args.marketplaceFee.factor, 32)
    .storeUint(args.marketplaceFee.base, 32)
    .storeAddress(args.royalty.address)
    .storeUint(args.royalty.factor, 32)
    .storeUint(args.royalty.base, 32)
    .endCell();
  const data = beginCell()
    .storeBit(false) // end
    .storeBit(false) // is_canceled
    .storeUint(args.createdAt, 32)
    .storeUint(args.duration, 32)
    .storeUint(0, 32) // end_time: set when the NFT arrives
    .storeUint(0, 32) // last_bid_at
    .storeUint(args.minStep, 32)
    .storeCoins(0) // last_bid
    .storeCoins(args.minBid)
    .storeCoins(args.maxBid)
    .storeAddress(null) // last_member
    .storeRef(parties)
    .storeRef(fees)
    .endCell();
  const init = { code: code.auction, data };
  return { address: contractAddress(args.workchain ?? 0, init), init };
}
