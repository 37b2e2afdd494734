// TEP-74 get-method answers read from a TVM stack: get_jetton_data of a master and get_wallet_data of a
// wallet. The v2 getTokenData route and the indexer's derive stage both read them here.
import type { Address, Cell, TupleItem } from '@ton/core';

export function stackInt(item: TupleItem | undefined): bigint {
  if (item?.type !== 'int') throw new Error('expected an integer');
  return item.value;
}

export function stackCell(item: TupleItem | undefined): Cell {
  if (item?.type === 'cell' || item?.type === 'slice' || item?.type === 'builder') return item.cell;
  throw new Error('expected a cell');
}

/** A MsgAddress on the stack: null (or addr_none) → null. */
export function stackAddress(item: TupleItem | undefined): Address | null {
  if (item?.type === 'null') return null;
  return stackCell(item).beginParse().loadMaybeAddress();
}

export interface JettonData {
  totalSupply: bigint;
  mintable: boolean;
  admin: Address | null;
  content: Cell;
  walletCode: Cell;
}

/** get_jetton_data: (total_supply, mintable, admin_address, jetton_content, jetton_wallet_code). Throws when it is not one. */
export function readJettonData(s: TupleItem[]): JettonData {
  return { totalSupply: stackInt(s[0]), mintable: stackInt(s[1]) !== 0n, admin: stackAddress(s[2]), content: stackCell(s[3]), walletCode: stackCell(s[4]) };
}

export interface WalletData {
  balance: bigint;
  owner: Address;
  jetton: Address;
  walletCode: Cell;
}

/**
 * get_wallet_data: (balance, owner, jetton, jetton_wallet_code). Variants answer more: governed
 * (stablecoin) wallets keep a status and some return it first, mintless wallets append fields; the
 * TEP-74 four are found either way. Throws when the stack is not a wallet's.
 */
export function readWalletData(s: TupleItem[]): WalletData {
  const at = s[0]?.type === 'int' && s[1]?.type === 'int' ? 1 : 0; // a leading status
  const owner = stackAddress(s[at + 1]);
  const jetton = stackAddress(s[at + 2]);
  if (!owner || !jetton) throw new Error('a jetton wallet has an owner and a jetton');
  return { balance: stackInt(s[at]), owner, jetton, walletCode: stackCell(s[at + 3]) };
}
