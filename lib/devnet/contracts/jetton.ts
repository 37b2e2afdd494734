/**
 * TEP-74 jetton: minter and wallet code from @ton-community/assets-sdk (its compiled jetton-minter and
 * jetton-wallet), with TEP-64 on-chain metadata. Data layouts and message bodies are built here.
 *
 * minter data: total_supply:Coins admin:MsgAddress content:^Cell wallet_code:^Cell
 * wallet data: balance:Coins owner:MsgAddress master:MsgAddress wallet_code:^Cell
 */
import { jettonMinterCode as minterBuild } from '@ton-community/assets-sdk/dist/jetton/contracts/build/jetton-minter.js';
import { jettonWalletCode as walletBuild } from '@ton-community/assets-sdk/dist/jetton/contracts/build/jetton-wallet.js';
import { Address, beginCell, Cell, contractAddress, StateInit } from '@ton/core';
import { onchainContent, readOnchainContent } from './common';

export const OP_JETTON_MINT = 21;
export const OP_JETTON_TRANSFER = 0x0f8a7ea5;
export const OP_JETTON_INTERNAL_TRANSFER = 0x178d4519;
export const OP_JETTON_TRANSFER_NOTIFICATION = 0x7362d09c;
export const OP_JETTON_BURN = 0x595f07bc;
export const OP_JETTON_BURN_NOTIFICATION = 0x7bdd97de;
export const OP_EXCESSES = 0xd53276db;

/** Exit code the minter throws for an op it does not know. */
export const JETTON_MINTER_UNKNOWN_OP_EXIT = 0xffff;

let minterCode: Cell | null = null;
let walletCode: Cell | null = null;

export function jettonMinterCode(): Cell {
  minterCode ??= Cell.fromBase64(minterBuild.codeBoc);
  return minterCode;
}

export function jettonWalletCode(): Cell {
  walletCode ??= Cell.fromBase64(walletBuild.codeBoc);
  return walletCode;
}

/** TEP-64 fields of the metadata (all stored on-chain). */
export interface JettonMetadata {
  name: string;
  symbol: string;
  decimals: number;
  description: string;
  image: string;
}

export const JETTON_METADATA_FIELDS = ['name', 'symbol', 'decimals', 'description', 'image'] as const;

export function jettonContent(meta: JettonMetadata): Cell {
  return onchainContent({
    name: meta.name,
    symbol: meta.symbol,
    decimals: String(meta.decimals),
    description: meta.description,
    image: meta.image,
  });
}

/** Decode the on-chain metadata cell of get_jetton_data. */
export function readJettonContent(content: Cell): Partial<JettonMetadata> {
  const f = readOnchainContent(content, JETTON_METADATA_FIELDS);
  return { ...f, decimals: f.decimals === undefined ? undefined : Number(f.decimals) } as Partial<JettonMetadata>;
}

/** A minter of `admin` with on-chain metadata, or with a given TEP-64 content cell (e.g. offchainContent(uri)). */
export function jettonMinterInit(admin: Address, meta: JettonMetadata | Cell, workchain = 0): { address: Address; init: StateInit & { code: Cell; data: Cell } } {
  const data = beginCell()
    .storeCoins(0)
    .storeAddress(admin)
    .storeRef(meta instanceof Cell ? meta : jettonContent(meta))
    .storeRef(jettonWalletCode())
    .endCell();
  const init = { code: jettonMinterCode(), data };
  return { address: contractAddress(workchain, init), init };
}

/** The jetton wallet address of `owner` for `minter` (what get_wallet_address answers). */
export function jettonWalletAddress(minter: Address, owner: Address): Address {
  const data = beginCell().storeCoins(0).storeAddress(owner).storeAddress(minter).storeRef(jettonWalletCode()).endCell();
  return contractAddress(minter.workChain, { code: jettonWalletCode(), data });
}

/**
 * The internal_transfer a minter sends a wallet when minting (`from` is the minter): the message that
 * carries the new tokens, also inside the mint requests of both minters.
 */
function jettonInternalTransferBody(args: {
  amount: bigint;
  from: Address;
  responseAddress?: Address | null;
  forwardTonAmount?: bigint;
  forwardPayload?: Cell | null;
  queryId?: bigint;
}): Cell {
  return beginCell()
    .storeUint(OP_JETTON_INTERNAL_TRANSFER, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeCoins(args.amount)
    .storeAddress(args.from)
    .storeAddress(args.responseAddress ?? null)
    .storeCoins(args.forwardTonAmount ?? 0n)
    .storeMaybeRef(args.forwardPayload ?? null)
    .endCell();
}

/** What a mint request says: `amount` to `to`; `tonToWallet` pays the new wallet's gas and the forward. */
export interface JettonMintArgs {
  to: Address;
  amount: bigint;
  tonToWallet: bigint;
  minter: Address;
  responseAddress?: Address | null;
  forwardTonAmount?: bigint;
  forwardPayload?: Cell | null;
  queryId?: bigint;
}

/**
 * admin → minter: a mint request under the minter's own opcode (op query_id to ton_amount ^internal_transfer,
 * the layout the assets-sdk minter and the stablecoin minter share).
 */
export function mintRequestBody(op: number, args: JettonMintArgs): Cell {
  return beginCell()
    .storeUint(op, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeAddress(args.to)
    .storeCoins(args.tonToWallet)
    .storeRef(jettonInternalTransferBody({ ...args, from: args.minter }))
    .endCell();
}

/** admin → assets-sdk minter: mint `amount` to `to`. */
export const jettonMintBody = (args: JettonMintArgs): Cell => mintRequestBody(OP_JETTON_MINT, args);

/** owner → own jetton wallet: TEP-74 transfer; the forward payload is stored by ref. */
export function jettonTransferBody(args: {
  amount: bigint;
  destination: Address;
  responseDestination: Address | null;
  forwardTonAmount?: bigint;
  forwardPayload?: Cell | null;
  queryId?: bigint;
}): Cell {
  return beginCell()
    .storeUint(OP_JETTON_TRANSFER, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeCoins(args.amount)
    .storeAddress(args.destination)
    .storeAddress(args.responseDestination)
    .storeMaybeRef(null) // custom_payload
    .storeCoins(args.forwardTonAmount ?? 0n)
    .storeMaybeRef(args.forwardPayload ?? null)
    .endCell();
}

/** owner → own jetton wallet: TEP-74 burn. */
export function jettonBurnBody(args: { amount: bigint; responseDestination: Address | null; queryId?: bigint }): Cell {
  return beginCell()
    .storeUint(OP_JETTON_BURN, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeCoins(args.amount)
    .storeAddress(args.responseDestination)
    .storeMaybeRef(null)
    .endCell();
}
