// v3 response models: Multisig wallets and orders (/multisig/wallets, /multisig/orders). Conventions: ./index.ts.
import { z } from 'zod';
import { addr, AddressBook, boc, hash, int64s } from './common';

const OrderActionBody = z.record(z.string(), z.unknown()).describe('the decoded body: query_id/opcode numbers, coins as decimal strings, cells as base64 BoCs');

export const MultisigOrderAction = z.object({
  destination: addr.nullable(),
  value: z.string().describe('nanotons, a decimal string').nullable(),
  body_raw: boc.nullable(),
  parsed: z.boolean(),
  error: z.string().nullable(),
  parsed_body: OrderActionBody.nullable(),
  parsed_body_type: z
    .string()
    .nullable()
    .describe(
      'ton_transfer, jetton_transfer, jetton_burn, jetton_mint, nft_transfer, jetton_top_up, jetton_change_admin, jetton_claim_admin, ' +
        'jetton_change_content, jetton_call_to, jetton_set_status, single_nominator_withdraw, single_nominator_change_validator, ' +
        'vesting_internal_transfer, multisig_update_params or unknown; null when a known body does not decode',
    ),
  send_mode: z.number().int().nullable(),
});

export const MultisigOrder = z.object({
  address: addr,
  multisig_address: addr,
  order_seqno: z.string().describe('a decimal string'),
  threshold: z.number().int(),
  sent_for_execution: z.boolean(),
  approvals_mask: z.string().describe('bit i set: signer i approved; a decimal string'),
  approvals_num: z.number().int(),
  expiration_date: z.number().int().describe('unix time'),
  order_boc: boc,
  signers: z.array(addr),
  last_transaction_lt: int64s,
  code_hash: hash.nullable(),
  data_hash: hash.nullable(),
  actions: z.array(MultisigOrderAction).nullable().describe('with parse_actions; null otherwise'),
});

export const Multisig = z.object({
  address: addr,
  next_order_seqno: z.string().describe('a decimal string; -1 when any seqno is accepted'),
  threshold: z.number().int(),
  signers: z.array(addr),
  proposers: z.array(addr),
  last_transaction_lt: int64s,
  code_hash: hash.nullable(),
  data_hash: hash.nullable(),
  orders: z.array(MultisigOrder).nullable().describe('[] with include_orders=false; null when included but none exist'),
});

export const MultisigWalletsResponse = z.object({ multisigs: z.array(Multisig), address_book: AddressBook });
export const MultisigOrdersResponse = z.object({ orders: z.array(MultisigOrder), address_book: AddressBook });

export type MultisigOrderActionJson = z.infer<typeof MultisigOrderAction>;
export type MultisigOrderJson = z.infer<typeof MultisigOrder>;
export type MultisigJson = z.infer<typeof Multisig>;
