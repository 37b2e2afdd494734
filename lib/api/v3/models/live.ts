// v3 response models: v2-style answers of the live routes (api-v3.md §2.5, §3.24): account, wallet, get-method, fees, send. Conventions: ./index.ts.
import { z } from 'zod';
import { hash, int64s } from './common';

export const V2AddressInformation = z.object({
  balance: int64s,
  code: z.string().nullable().describe('base64 BoC'),
  data: z.string().nullable().describe('base64 BoC'),
  last_transaction_lt: int64s.nullable(),
  last_transaction_hash: hash.nullable(),
  frozen_hash: hash.nullable(),
  status: z.string().describe('active, uninit, frozen or nonexist'),
});

export const V2WalletInformation = z.object({
  balance: int64s,
  wallet_type: z.string().optional(),
  seqno: z.number().int().optional(),
  wallet_id: z.number().int().optional(),
  last_transaction_lt: int64s,
  last_transaction_hash: hash,
  status: z.string(),
});

const StackEntry: z.ZodType<{ type: string; value: unknown }> = z.lazy(() =>
  z.object({ type: z.string().describe('num, cell, slice, tuple or list'), value: z.union([z.string(), z.array(StackEntry)]) }),
);

export const RunGetMethodResponse = z.object({ gas_used: z.number().int(), exit_code: z.number().int(), stack: z.array(StackEntry) });
export const Fee = z.object({ in_fwd_fee: z.number().int(), storage_fee: z.number().int(), gas_fee: z.number().int(), fwd_fee: z.number().int() });
export const EstimateFeeResponse = z.object({ source_fees: Fee, destination_fees: z.array(Fee) });
export const SentMessage = z.object({ message_hash: hash, message_hash_norm: hash });
