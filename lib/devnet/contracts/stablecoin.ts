/**
 * The devnet's governed ("stablecoin") jetton, in the manner of USDT's stablecoin-contract: Tolk sources
 * in ./stablecoin, compiled at run time (tolk.ts). Transfers and burns use the TEP-74 bodies of jetton.ts.
 *
 * minter data: total_supply:Coins admin:MsgAddress next_admin:MsgAddress wallet_code:^Cell metadata_uri:^Cell
 * wallet data: status:uint4 balance:Coins owner:MsgAddress minter:MsgAddress (no code: the account's own)
 * get_jetton_data content: TEP-64 on-chain { uri, decimals: "6" } (USDT's layout)
 */
import { Address, beginCell, Cell, contractAddress, StateInit } from '@ton/core';
import { storeSnakeBytes } from './common';
import { mintRequestBody, type JettonMintArgs } from './jetton';
import { STABLECOIN_OP } from '../../ton/owner-ops';
import { cachedCompilation, compileTolk, tolkSourceDir } from './tolk';

/** Exit codes of the wallet (stablecoin-contract's numbering). */
export const STABLECOIN_EXIT = { contractLocked: 45, balance: 47, notOwner: 73, notValidWallet: 74 } as const;

/** Wallet status bits. */
export const STABLECOIN_STATUS = { unlocked: 0, outLocked: 1, inLocked: 2, locked: 3 } as const;

/** The decimals get_jetton_data's content states. */
export const STABLECOIN_DECIMALS = 6;

export interface StablecoinCode {
  minter: Cell;
  wallet: Cell;
  /** Milliseconds the compilation took (0 when served from the cache). */
  compileMs: number;
}

/** Compile stablecoin-minter.tolk and stablecoin-wallet.tolk (once per process). */
export const compileStablecoinContracts = cachedCompilation<StablecoinCode>(async () => {
  const dir = tolkSourceDir('stablecoin', 'stablecoin-minter.tolk');
  return { minter: await compileTolk(dir, 'stablecoin-minter.tolk'), wallet: await compileTolk(dir, 'stablecoin-wallet.tolk') };
});

export function stablecoinMinterInit(code: StablecoinCode, args: { admin: Address; metadataUri: string; workchain?: number }): {
  address: Address;
  init: StateInit & { code: Cell; data: Cell };
} {
  const data = beginCell()
    .storeCoins(0)
    .storeAddress(args.admin)
    .storeAddress(null) // next admin
    .storeRef(code.wallet)
    .storeRef(storeSnakeBytes(beginCell(), Buffer.from(args.metadataUri, 'utf8')).endCell())
    .endCell();
  const init = { code: code.minter, data };
  return { address: contractAddress(args.workchain ?? 0, init), init };
}

/** The wallet of `owner` (what the minter's get_wallet_address answers). */
export function stablecoinWalletAddress(code: StablecoinCode, minter: Address, owner: Address): Address {
  const data = beginCell().storeUint(0, 4).storeCoins(0).storeAddress(owner).storeAddress(minter).endCell();
  return contractAddress(minter.workChain, { code: code.wallet, data });
}

/** admin → stablecoin minter: mint `amount` to `to` (the standard minter's mint request layout). */
export const stablecoinMintBody = (args: JettonMintArgs): Cell => mintRequestBody(STABLECOIN_OP.mint, args);

/** admin → minter: set the status of `owner`'s wallet (STABLECOIN_STATUS), delivered by call_to. */
export function stablecoinSetStatusBody(args: { owner: Address; status: number; tonAmount: bigint; queryId?: bigint }): Cell {
  const setStatus = beginCell().storeUint(STABLECOIN_OP.setStatus, 32).storeUint(args.queryId ?? 0n, 64).storeUint(args.status, 4).endCell();
  return beginCell()
    .storeUint(STABLECOIN_OP.callTo, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeAddress(args.owner)
    .storeCoins(args.tonAmount)
    .storeRef(setStatus)
    .endCell();
}

/** admin → minter: the first step of handing the admin role over (the new admin then claims it). */
export function stablecoinChangeAdminBody(newAdmin: Address, queryId = 0n): Cell {
  return beginCell().storeUint(STABLECOIN_OP.changeAdmin, 32).storeUint(queryId, 64).storeAddress(newAdmin).endCell();
}

/** next admin → minter: take the admin role. */
export function stablecoinClaimAdminBody(queryId = 0n): Cell {
  return beginCell().storeUint(STABLECOIN_OP.claimAdmin, 32).storeUint(queryId, 64).endCell();
}

/** admin → minter: a new metadata URI (its bytes follow the query id). */
export function stablecoinChangeMetadataUriBody(uri: string, queryId = 0n): Cell {
  return storeSnakeBytes(beginCell().storeUint(STABLECOIN_OP.changeMetadataUri, 32).storeUint(queryId, 64), Buffer.from(uri, 'utf8')).endCell();
}
