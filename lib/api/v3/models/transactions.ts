// v3 response models: Transactions (/transactions, /transactionsByMessage, /pendingTransactions …). Conventions: ./index.ts.
import { z } from 'zod';
import { BlockId } from './blocks';
import { addr, AddressBook, amounts, hash, int64s } from './common';
import { Message } from './messages';

export const AccountState = z.object({
  hash,
  balance: int64s.nullable(),
  extra_currencies: amounts.nullable(),
  account_status: z.string().nullable(),
  frozen_hash: hash.nullable(),
  data_hash: hash.nullable(),
  code_hash: hash.nullable(),
});

const MsgSize = z.object({ cells: int64s, bits: int64s });

export const TransactionDescr = z.object({
  type: z.enum(['ord', 'storage', 'tick_tock', 'split_prepare', 'split_install', 'merge_prepare', 'merge_install']),
  aborted: z.boolean().optional(),
  destroyed: z.boolean().optional(),
  credit_first: z.boolean().optional(),
  is_tock: z.boolean().optional(),
  installed: z.boolean().optional(),
  storage_ph: z
    .object({
      storage_fees_collected: int64s.optional(),
      storage_fees_due: int64s.optional(),
      status_change: z.string().optional(),
    })
    .optional(),
  credit_ph: z
    .object({
      due_fees_collected: int64s.optional(),
      credit: int64s.optional(),
      credit_extra_currencies: amounts.optional(),
    })
    .optional(),
  compute_ph: z
    .object({
      skipped: z.boolean().optional(),
      reason: z.string().optional(),
      success: z.boolean().optional(),
      msg_state_used: z.boolean().optional(),
      account_activated: z.boolean().optional(),
      gas_fees: int64s.optional(),
      gas_used: int64s.optional(),
      gas_limit: int64s.optional(),
      gas_credit: int64s.optional(),
      mode: z.number().int().optional(),
      exit_code: z.number().int().optional(),
      exit_arg: z.number().int().optional(),
      vm_steps: z.number().int().optional(),
      vm_init_state_hash: hash.optional(),
      vm_final_state_hash: hash.optional(),
    })
    .optional(),
  action: z
    .object({
      success: z.boolean().optional(),
      valid: z.boolean().optional(),
      no_funds: z.boolean().optional(),
      status_change: z.string().optional(),
      total_fwd_fees: int64s.optional(),
      total_action_fees: int64s.optional(),
      result_code: z.number().int().optional(),
      result_arg: z.number().int().optional(),
      tot_actions: z.number().int().optional(),
      spec_actions: z.number().int().optional(),
      skipped_actions: z.number().int().optional(),
      msgs_created: z.number().int().optional(),
      action_list_hash: hash.optional(),
      tot_msg_size: MsgSize.optional(),
    })
    .optional(),
  bounce: z
    .object({
      type: z.enum(['negfunds', 'nofunds', 'ok']),
      msg_size: MsgSize.optional(),
      req_fwd_fees: int64s.optional(),
      msg_fees: int64s.optional(),
      fwd_fees: int64s.optional(),
    })
    .optional(),
  split_info: z
    .object({
      cur_shard_pfx_len: z.number().int().optional(),
      acc_split_depth: z.number().int().optional(),
      this_addr: z.string().optional(),
      sibling_addr: z.string().optional(),
    })
    .optional(),
});

export const Transaction = z.object({
  account: addr,
  hash,
  lt: int64s,
  now: z.number().int(),
  mc_block_seqno: z.number().int().nullable(),
  trace_id: hash.optional(),
  trace_external_hash: hash.optional(),
  prev_trans_hash: hash,
  prev_trans_lt: int64s,
  orig_status: z.enum(['uninit', 'frozen', 'active', 'nonexist']),
  end_status: z.enum(['uninit', 'frozen', 'active', 'nonexist']),
  total_fees: int64s,
  total_fees_extra_currencies: amounts.nullable(),
  description: TransactionDescr,
  block_ref: BlockId,
  in_msg: Message.nullable(),
  out_msgs: z.array(Message),
  account_state_before: AccountState,
  account_state_after: AccountState,
  emulated: z.boolean(),
  finality: z.enum(['pending', 'confirmed', 'finalized']),
});

export const TransactionsResponse = z.object({ transactions: z.array(Transaction), address_book: AddressBook });

export const PendingTransactionsResponse = z.object({
  transactions: z.array(Transaction).nullable().describe('null when every pending transaction is already indexed [toncenter quirk]'),
  address_book: AddressBook,
});

export type AccountStateJson = z.infer<typeof AccountState>;
export type TransactionDescrJson = z.infer<typeof TransactionDescr>;
export type TransactionJson = z.infer<typeof Transaction>;
