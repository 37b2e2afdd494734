// v3 response models: Jettons (/jetton/masters, /jetton/wallets, /jetton/transfers, /jetton/burns). Conventions: ./index.ts.
import { z } from 'zod';
import { addr, AddressBook, boc, decoded, hash, int64s, Metadata } from './common';

export const JettonMaster = z.object({
  address: addr,
  total_supply: int64s,
  mintable: z.boolean(),
  admin_address: addr.nullable(),
  jetton_content: z.record(z.string(), z.string()).describe('TEP-64 content: on-chain attributes, or {uri} for off-chain content').nullable(),
  jetton_wallet_code_hash: hash.nullable(),
  code_hash: hash.nullable(),
  data_hash: hash.nullable(),
  last_transaction_lt: int64s,
});

export const JettonWallet = z.object({
  address: addr,
  balance: int64s,
  owner: addr,
  jetton: addr,
  last_transaction_lt: int64s,
  code_hash: hash.nullable(),
  data_hash: hash.nullable(),
});

export const JettonTransfer = z.object({
  query_id: int64s,
  source: addr.nullable(),
  destination: addr.nullable(),
  amount: int64s,
  source_wallet: addr,
  jetton_master: addr.nullable(),
  transaction_hash: hash,
  transaction_lt: int64s,
  transaction_now: z.number().int(),
  transaction_aborted: z.boolean(),
  response_destination: addr.nullable(),
  custom_payload: boc.nullable(),
  decoded_custom_payload: decoded.nullable(),
  forward_ton_amount: int64s,
  forward_payload: boc.nullable(),
  decoded_forward_payload: decoded.nullable(),
  trace_id: hash.nullable(),
});

export const JettonBurn = z.object({
  query_id: int64s,
  owner: addr.nullable(),
  jetton_wallet: addr,
  jetton_master: addr.nullable(),
  transaction_hash: hash,
  transaction_lt: int64s,
  transaction_now: z.number().int(),
  transaction_aborted: z.boolean(),
  amount: int64s,
  response_destination: addr.nullable(),
  custom_payload: boc.nullable(),
  decoded_custom_payload: decoded.nullable(),
  trace_id: hash.nullable(),
});

export const JettonMastersResponse = z.object({ jetton_masters: z.array(JettonMaster), address_book: AddressBook, metadata: Metadata });
export const JettonWalletsResponse = z.object({ jetton_wallets: z.array(JettonWallet), address_book: AddressBook, metadata: Metadata });
export const JettonTransfersResponse = z.object({ jetton_transfers: z.array(JettonTransfer), address_book: AddressBook, metadata: Metadata });
export const JettonBurnsResponse = z.object({ jetton_burns: z.array(JettonBurn), address_book: AddressBook, metadata: Metadata });

export type JettonMasterJson = z.infer<typeof JettonMaster>;
export type JettonWalletJson = z.infer<typeof JettonWallet>;
export type JettonTransferJson = z.infer<typeof JettonTransfer>;
export type JettonBurnJson = z.infer<typeof JettonBurn>;
