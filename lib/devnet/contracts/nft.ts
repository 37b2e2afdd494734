/**
 * TEP-62 NFTs: the editable collection, the item and the fixed-price sale, all code from
 * @ton-community/assets-sdk (its compiled nft-collection-editable / nft-item, and NftSale.code).
 *
 * collection data: owner:MsgAddress next_item_index:uint64 ^[collection_content:^Cell common_content:^Cell]
 *                  nft_item_code:^Cell ^[royalty_factor:uint16 royalty_base:uint16 royalty_address:MsgAddress]
 * item (initial) data: index:uint64 collection:MsgAddress
 * sale data: is_complete:Bool created_at:uint32 marketplace:MsgAddress nft:MsgAddress nft_owner:MsgAddress
 *            full_price:Coins ^[marketplace_fee_to marketplace_fee royalty_to royalty] can_deploy_by_external:Bool
 */
import { nftCollectionEditableCode as collectionBuild } from '@ton-community/assets-sdk/dist/nft/contracts/build/nft-collection-editable.js';
import { nftItemCode as itemBuild } from '@ton-community/assets-sdk/dist/nft/contracts/build/nft-item.js';
import { sbtItemCode as sbtItemBuild } from '@ton-community/assets-sdk/dist/nft/contracts/build/sbt-item.js';
import { NftSale } from '@ton-community/assets-sdk/dist/nft/NftSale.js';
import { Address, beginCell, Cell, contractAddress, StateInit } from '@ton/core';
import { storeSnakeBytes } from './common';

export const OP_NFT_MINT = 1;
export const OP_NFT_TRANSFER = 0x5fcc3d14;
export const OP_NFT_OWNERSHIP_ASSIGNED = 0x05138d91;
export const OP_NFT_GET_STATIC_DATA = 0x2fcb26a2;

type Init = StateInit & { code: Cell; data: Cell };

let collectionCode: Cell | null = null;
let itemCode: Cell | null = null;

export function nftCollectionCode(): Cell {
  collectionCode ??= Cell.fromBase64(collectionBuild.codeBoc);
  return collectionCode;
}

export function nftItemCode(): Cell {
  itemCode ??= Cell.fromBase64(itemBuild.codeBoc);
  return itemCode;
}

let sbtCode: Cell | null = null;

/** TEP-85 soulbound item: an NFT item that refuses transfers, with an authority that may revoke it. */
export function sbtItemCode(): Cell {
  sbtCode ??= Cell.fromBase64(sbtItemBuild.codeBoc);
  return sbtCode;
}

export function nftSaleCode(): Cell {
  return NftSale.code;
}

export function nftCollectionInit(args: {
  owner: Address;
  /** TEP-64 content of the collection itself. */
  collectionContent: Cell;
  /** Prefix the collection puts before each item's individual content (off-chain URI base). */
  commonContent: string;
  royalty?: { numerator: number; denominator: number; recipient: Address };
  /** The items' code: nftItemCode() (default) or sbtItemCode() for a soulbound collection. */
  itemCode?: Cell;
  workchain?: number;
}): { address: Address; init: Init } {
  const royalty = args.royalty ?? { numerator: 0, denominator: 1, recipient: args.owner };
  const data = beginCell()
    .storeAddress(args.owner)
    .storeUint(0, 64)
    .storeRef(
      beginCell()
        .storeRef(args.collectionContent)
        .storeRef(storeSnakeBytes(beginCell(), Buffer.from(args.commonContent, 'utf8')).endCell()),
    )
    .storeRef(args.itemCode ?? nftItemCode())
    .storeRef(beginCell().storeUint(royalty.numerator, 16).storeUint(royalty.denominator, 16).storeAddress(royalty.recipient))
    .endCell();
  const init = { code: nftCollectionCode(), data };
  return { address: contractAddress(args.workchain ?? 0, init), init };
}

/** The address of item `index` (what get_nft_address_by_index answers). */
export function nftItemAddress(collection: Address, index: number | bigint, itemCode: Cell = nftItemCode()): Address {
  const data = beginCell().storeUint(index, 64).storeAddress(collection).endCell();
  return contractAddress(collection.workChain, { code: itemCode, data });
}

/**
 * owner → collection: deploy item `index` for `owner`; `itemValue` goes to the item. An SBT also
 * takes its `authority` (who may revoke it).
 */
export function nftMintBody(args: { index: number | bigint; owner: Address; individualContent: string; itemValue: bigint; queryId?: bigint; authority?: Address }): Cell {
  const params = beginCell()
    .storeAddress(args.owner)
    .storeRef(storeSnakeBytes(beginCell(), Buffer.from(args.individualContent, 'utf8')).endCell());
  if (args.authority) params.storeAddress(args.authority);
  return beginCell()
    .storeUint(OP_NFT_MINT, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeUint(args.index, 64)
    .storeCoins(args.itemValue)
    .storeRef(params)
    .endCell();
}

/** owner → item: TEP-62 transfer; the forward payload (if any) is stored by ref. */
export function nftTransferBody(args: {
  newOwner: Address;
  responseDestination: Address | null;
  forwardAmount?: bigint;
  forwardPayload?: Cell | null;
  queryId?: bigint;
}): Cell {
  return beginCell()
    .storeUint(OP_NFT_TRANSFER, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeAddress(args.newOwner)
    .storeAddress(args.responseDestination)
    .storeMaybeRef(null) // custom_payload
    .storeCoins(args.forwardAmount ?? 0n)
    .storeMaybeRef(args.forwardPayload ?? null)
    .endCell();
}

/** A fixed-price sale of `nft`; it becomes active once the NFT is transferred to it. */
export function nftSaleInit(args: {
  marketplace: Address;
  nft: Address;
  fullPrice: bigint;
  marketplaceFeeTo: Address;
  marketplaceFee: bigint;
  royaltyTo: Address;
  royalty: bigint;
  /** Part of the data, so part of the address: pass a fixed value for a deterministic address. */
  createdAt: number;
  /** The seller, when the sale is listed through the marketplace's deployer; else the NFT's previous owner when it arrives. */
  nftOwner?: Address;
  workchain?: number;
}): { address: Address; init: Init } {
  const data = beginCell()
    .storeBit(false)
    .storeUint(args.createdAt, 32)
    .storeAddress(args.marketplace)
    .storeAddress(args.nft)
    .storeAddress(args.nftOwner ?? null)
    .storeCoins(args.fullPrice)
    .storeRef(
      beginCell()
        .storeAddress(args.marketplaceFeeTo)
        .storeCoins(args.marketplaceFee)
        .storeAddress(args.royaltyTo)
        .storeCoins(args.royalty),
    )
    .storeBit(false) // can_deploy_by_external
    .endCell();
  const init = { code: nftSaleCode(), data };
  return { address: contractAddress(args.workchain ?? 0, init), init };
}
