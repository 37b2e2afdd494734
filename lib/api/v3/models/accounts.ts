// v3 response models: Accounts and wallets (/accountStates, /walletStates, /topAccountsByBalance). Conventions: ./index.ts.
import { z } from 'zod';
import { addr, AddressBook, amounts, hash, int64s, Metadata } from './common';

export const AccountStateFull = z.object({
  address: addr,
  account_state_hash: hash,
  balance: int64s.nullable(),
  extra_currencies: amounts.nullable(),
  status: z.string().nullable(),
  frozen_hash: hash.optional(),
  last_transaction_hash: hash.nullable(),
  last_transaction_lt: int64s.nullable(),
  data_hash: hash.optional(),
  code_hash: hash.optional(),
  data_boc: z.string().optional(),
  code_boc: z.string().optional(),
  contract_methods: z.array(z.number().int()).nullable(),
  interfaces: z.array(z.string()).nullable(),
});

export const WalletState = z.object({
  address: addr,
  is_wallet: z.boolean(),
  wallet_type: z.string().optional(),
  seqno: z.number().int().optional(),
  wallet_id: z.number().int().optional(),
  balance: int64s.optional(),
  extra_currencies: amounts.optional(),
  is_signature_allowed: z.boolean().optional(),
  status: z.string().optional(),
  code_hash: hash.optional(),
  last_transaction_hash: hash.nullable(),
  last_transaction_lt: int64s.nullable(),
});

export const AccountBalance = z.object({ account: addr, balance: int64s });
export const AccountStatesResponse = z.object({ accounts: z.array(AccountStateFull), address_book: AddressBook, metadata: Metadata });
export const WalletStatesResponse = z.object({ wallets: z.array(WalletState), address_book: AddressBook, metadata: Metadata });
export const AccountBalances = z.array(AccountBalance);

export type AccountStateFullJson = z.infer<typeof AccountStateFull>;
export type WalletStateJson = z.infer<typeof WalletState>;
