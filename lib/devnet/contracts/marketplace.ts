/**
 * The devnet's NFT marketplace: a GetGems-style deployer (Tolk source in ./marketplace, compiled at run
 * time) that items are listed through. A seller transfers the item to the deployer with a listing
 * payload — do_sale#0fe0ede ^StateInit ^body — naming the sale or auction contract to open; the deployer
 * deploys it and transfers the item on. Sales (nft.ts nftSaleInit) and auctions (auction.ts) listed this
 * way have the deployer as their marketplace and the seller in their data from the start.
 *
 * data: owner:MsgAddress
 */
import { Address, beginCell, Cell, contractAddress, storeStateInit, type StateInit } from '@ton/core';
import { cachedCompilation, compileTolk, tolkSourceDir } from './tolk';

export const OP_DEPLOYER_DO_SALE = 0x0fe0ede;
/** The body a listed sale is deployed with (the sale's "accept coins"). */
export const OP_SALE_ACCEPT_DEPLOY = 1;
/** A fixed-price sale's cancellation, from the seller or the marketplace. */
export const OP_SALE_CANCEL = 3;

export interface DeployerCode {
  deployer: Cell;
  compileMs: number;
}

/** Compile nft-deployer.tolk (once per process). */
export const compileDeployerContract = cachedCompilation<DeployerCode>(async () => ({
  deployer: await compileTolk(tolkSourceDir('marketplace', 'nft-deployer.tolk'), 'nft-deployer.tolk'),
}));

export function nftDeployerInit(code: DeployerCode, args: { owner: Address; workchain?: number }): { address: Address; init: StateInit & { code: Cell; data: Cell } } {
  const init = { code: code.deployer, data: beginCell().storeAddress(args.owner).endCell() };
  return { address: contractAddress(args.workchain ?? 0, init), init };
}

/** The forward payload of the item's transfer to the deployer: open the contract `init` with `body`. */
export function listingPayload(init: StateInit, body: Cell = beginCell().storeUint(OP_SALE_ACCEPT_DEPLOY, 32).storeUint(0, 64).endCell()): Cell {
  return beginCell().storeUint(OP_DEPLOYER_DO_SALE, 32).storeRef(beginCell().store(storeStateInit(init)).endCell()).storeRef(body).endCell();
}

/** seller → fixed-price sale: take the item back (op 3). */
export function saleCancelBody(queryId = 0n): Cell {
  return beginCell().storeUint(OP_SALE_CANCEL, 32).storeUint(queryId, 64).endCell();
}
