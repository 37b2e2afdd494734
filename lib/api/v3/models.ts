// Response models of the v3 routes, in toncenter's field order (ton-index-go index/models, Go struct
// order = JSON key order). The mappers build objects in exactly this order (PostgreSQL jsonb does not
// keep key order, so nothing is passed through as stored); tests check every answer against these
// schemas, key order included. The same schemas become components of /api/v3/openapi.json.
// `.optional()` = Go omitempty (key absent when null); `.nullable()` = key present with null.
import { z } from 'zod';

const hash = z.string().describe('32-byte hash, standard base64 with padding');
const addr = z.string().describe('raw address `wc:HEX` (upper case)');
const int64s = z.string().describe('64-bit integer as a decimal string');
const amounts = z.record(z.string(), z.string()).describe('extra currency id → amount (decimal string)');

export const BlockId = z.object({
  workchain: z.number().int(),
  shard: z.string().describe('16 upper-case hex digits'),
  seqno: z.number().int(),
});

export const Block = z.object({
  workchain: z.number().int(),
  shard: z.string().describe('16 upper-case hex digits'),
  seqno: z.number().int(),
  root_hash: hash,
  file_hash: hash,
  global_id: z.number().int(),
  version: z.number().int(),
  after_merge: z.boolean(),
  before_split: z.boolean(),
  after_split: z.boolean(),
  want_merge: z.boolean(),
  want_split: z.boolean(),
  key_block: z.boolean(),
  vert_seqno_incr: z.boolean(),
  flags: z.number().int(),
  gen_utime: int64s,
  start_lt: int64s,
  end_lt: int64s,
  validator_list_hash_short: z.number().int(),
  gen_catchain_seqno: z.number().int(),
  min_ref_mc_seqno: z.number().int(),
  prev_key_block_seqno: z.number().int(),
  vert_seqno: z.number().int(),
  master_ref_seqno: z.number().int(),
  rand_seed: hash,
  created_by: hash,
  tx_count: z.number().int(),
  masterchain_block_ref: BlockId.nullable(),
  prev_blocks: z.array(BlockId),
});

export const AccountState = z.object({
  hash,
  balance: int64s.nullable(),
  extra_currencies: amounts.nullable(),
  account_status: z.string().nullable(),
  frozen_hash: hash.nullable(),
  data_hash: hash.nullable(),
  code_hash: hash.nullable(),
});

export const MessageContent = z.object({
  hash,
  body: z.string().describe('bag of cells, standard base64'),
  decoded: z.record(z.string(), z.unknown()).nullable(),
});

export const Message = z.object({
  hash,
  source: addr.nullable(),
  destination: addr.nullable(),
  value: int64s.nullable(),
  value_extra_currencies: amounts.nullable(),
  fwd_fee: int64s.nullable(),
  ihr_fee: int64s.nullable(),
  extra_flags: z.string().nullable(),
  created_lt: int64s.nullable(),
  created_at: int64s.nullable(),
  opcode: z.string().describe('0x + 8 lower-case hex digits').nullable(),
  decoded_opcode: z.string().nullable(),
  ihr_disabled: z.boolean().nullable(),
  bounce: z.boolean().nullable(),
  bounced: z.boolean().nullable(),
  import_fee: int64s.nullable(),
  in_msg_tx_hash: hash.optional(),
  out_msg_tx_hash: hash.optional(),
  message_content: MessageContent.nullable(),
  init_state: MessageContent.nullable(),
  hash_norm: hash.optional(),
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

export const AddressBookEntry = z.object({
  user_friendly: z.string().nullable(),
  domain: z.string().nullable(),
  interfaces: z.array(z.string()).nullable(),
});
export const AddressBook = z.record(z.string(), AddressBookEntry).describe('keyed by raw address');

export const TokenInfo = z.object({
  valid: z.boolean().optional(),
  type: z.enum(['nft_items', 'nft_collections', 'jetton_masters', 'jetton_wallets']).optional(),
  name: z.string().optional(),
  symbol: z.string().optional(),
  description: z.string().optional(),
  image: z.string().optional(),
  nft_index: int64s.optional(),
  is_nsfw: z.boolean().optional(),
  is_scam: z.boolean().optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
});
export const MetadataEntry = z.object({ is_indexed: z.boolean(), token_info: z.array(TokenInfo) });
export const Metadata = z.record(z.string(), MetadataEntry).describe('keyed by raw address; token contracts only');

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

export const Action = z.object({
  trace_id: hash.nullable(),
  action_id: hash,
  start_lt: int64s,
  end_lt: int64s,
  start_utime: z.number().int(),
  end_utime: z.number().int(),
  trace_end_lt: int64s,
  trace_end_utime: z.number().int(),
  trace_mc_seqno_end: z.number().int(),
  transactions: z.array(hash),
  success: z.boolean().nullable(),
  type: z.string(),
  details: z.record(z.string(), z.unknown()).describe('per-type object (api-v3.md §3.7)'),
  raw_action: z.record(z.string(), z.unknown()).optional().describe('the stored record, only for types without a details mapping'),
  trace_external_hash: hash.optional(),
  trace_external_hash_norm: hash.optional(),
  accounts: z.array(addr).optional(),
  transactions_full: z.array(Transaction).optional(),
  finality: z.enum(['pending', 'confirmed', 'finalized']),
});

export interface TraceNodeJson {
  tx_hash: string;
  in_msg_hash?: string;
  children: TraceNodeJson[] | null;
}
export const TraceNode: z.ZodType<TraceNodeJson> = z.lazy(() =>
  z.object({ tx_hash: hash, in_msg_hash: hash.optional(), children: z.array(TraceNode).nullable().describe('null when the transaction sent messages none of which led to a transaction of the trace') }),
);

export const TraceInfo = z.object({
  trace_state: z.enum(['complete', 'pending', 'broken']),
  messages: z.number().int(),
  transactions: z.number().int(),
  pending_messages: z.number().int(),
  classification_state: z.enum(['unclassified', 'failed', 'ok', 'broken']),
});

export const Trace = z.object({
  trace_id: hash.nullable(),
  external_hash: hash.nullable(),
  mc_seqno_start: int64s,
  mc_seqno_end: int64s,
  start_lt: int64s,
  start_utime: z.number().int(),
  end_lt: int64s.nullable(),
  end_utime: z.number().int().nullable(),
  trace_info: TraceInfo,
  is_incomplete: z.boolean(),
  warning: z.string().optional(),
  actions: z.array(Action).optional(),
  trace: TraceNode.optional(),
  transactions_order: z.array(hash).optional(),
  transactions: z.record(z.string(), Transaction).optional(),
});

export const TracesResponse = z.object({ traces: z.array(Trace), address_book: AddressBook, metadata: Metadata });
/** An external message the emulator found the chain will refuse (Atlas extension of /pendingTraces). */
export const RejectedMessage = z.object({
  external_hash: hash,
  external_hash_norm: hash,
  reason: z.string().describe('the executor\'s reason, e.g. a failed signature check (exit code 35)'),
});
export const PendingTracesResponse = z.object({
  traces: z.array(Trace).nullable().describe('null when there are none [toncenter quirk]'),
  address_book: AddressBook,
  metadata: Metadata,
  rejected: z.array(RejectedMessage).optional().describe('Atlas extension: asked-for messages the chain will refuse (no trace is kept for them)'),
});
/** POST /emulate (Atlas extension): what an external message would do, emulated and never sent. */
export const EmulateResponse = z.object({
  external_hash: hash,
  external_hash_norm: hash,
  destination: addr.describe('the account the external message is addressed to'),
  mc_seqno: z.number().int().describe('masterchain block whose account states the emulation started from'),
  trace: Trace.nullable().describe('the emulated trace (trace_id null, trace_state pending) with its actions; null when the chain would refuse the message'),
  rejected: z
    .object({ reason: z.string().describe("the executor's reason"), exit_code: z.number().int().nullable().describe('the exit code the receiving contract refused it with, when it ran') })
    .nullable()
    .describe('why the chain would refuse the message (no transaction at all); null when it would accept it'),
  truncated: z.boolean().describe('the emulation stopped at its bounds (transactions or time): later hops are missing'),
  total_fees: z.string().describe('nanotons: the fees of every emulated transaction together'),
  address_book: AddressBook,
  metadata: Metadata,
});
export const PendingTransactionsResponse = z.object({
  transactions: z.array(Transaction).nullable().describe('null when every pending transaction is already indexed [toncenter quirk]'),
  address_book: AddressBook,
});
export const EventsResponse = z.object({ events: z.array(Trace), address_book: AddressBook, metadata: Metadata });
export const ActionsResponse = z.object({ actions: z.array(Action), address_book: AddressBook, metadata: Metadata });
export const BalanceChanges = z.object({
  changes: z.record(z.string(), z.number()).nullable().describe('account → TON value delta minus fees (nanoton)'),
  fees: z.record(z.string(), z.number()).nullable().describe('account → fees paid (nanoton)'),
  jettons: z.record(z.string(), z.record(z.string(), z.string())).nullable().describe('owner → jetton master → signed amount'),
});

export const MasterchainInfo = z.object({ last: Block, first: Block });
export const BlocksResponse = z.object({ blocks: z.array(Block) });
export const TransactionsResponse = z.object({ transactions: z.array(Transaction), address_book: AddressBook });
export const MessagesResponse = z.object({ messages: z.array(Message), address_book: AddressBook, metadata: Metadata });
export const AccountStatesResponse = z.object({ accounts: z.array(AccountStateFull), address_book: AddressBook, metadata: Metadata });
export const WalletStatesResponse = z.object({ wallets: z.array(WalletState), address_book: AddressBook, metadata: Metadata });
export const AccountBalances = z.array(AccountBalance);
export const RequestError = z.object({ error: z.string() });
export const DecodeResponse = z.object({
  opcodes: z.array(z.string()).describe('constructor name of each opcode, or "unknown"'),
  bodies: z
    .array(z.record(z.string(), z.unknown()))
    .describe('each body as {"@type": constructor, …fields} (nested bodies decoded), {"@type":"empty_cell"}, or {"error": why}'),
});

// v2-style answers (api-v3.md §2.5, §3.24).
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

const boc = z.string().describe('bag of cells, standard base64');
const decoded = z.record(z.string(), z.unknown());

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

const content = z.record(z.string(), z.string()).describe('TEP-64 content: on-chain attributes, or {uri} for off-chain content');

export const NftCollection = z.object({
  address: addr,
  owner_address: addr.nullable(),
  last_transaction_lt: int64s,
  next_item_index: int64s,
  collection_content: content.nullable(),
  data_hash: hash.nullable(),
  code_hash: hash.nullable(),
});

export const NftItem = z.object({
  address: addr,
  init: z.boolean(),
  index: int64s,
  collection_address: addr.nullable(),
  owner_address: addr.nullable(),
  content: content.nullable(),
  last_transaction_lt: int64s,
  code_hash: hash.nullable(),
  data_hash: hash.nullable(),
  collection: NftCollection.nullable(),
  on_sale: z.boolean().describe('the owner is a GetGems sale or auction contract of this item'),
  sale_contract_address: addr.optional(),
  auction_contract_address: addr.optional(),
  real_owner: addr.optional().describe('the seller behind the sale or auction'),
});

export const NftTransfer = z.object({
  query_id: int64s,
  nft_address: addr,
  nft_collection: addr.nullable(),
  transaction_hash: hash,
  transaction_lt: int64s,
  transaction_now: z.number().int(),
  transaction_aborted: z.boolean(),
  old_owner: addr.nullable(),
  new_owner: addr.nullable(),
  response_destination: addr.nullable(),
  custom_payload: boc.nullable(),
  decoded_custom_payload: decoded.nullable(),
  forward_amount: int64s,
  forward_payload: boc.nullable(),
  decoded_forward_payload: decoded.nullable(),
  trace_id: hash.nullable(),
});

export const NftSale = z.object({
  type: z.enum(['getgems_sale', 'getgems_auction', 'telemint']),
  address: addr,
  nft_address: addr.optional(),
  nft_owner_address: addr.optional(),
  marketplace_address: addr.optional(),
  created_at: z.number().int().optional(),
  last_transaction_lt: int64s.optional(),
  code_hash: hash.optional(),
  data_hash: hash.optional(),
  details: z.record(z.string(), z.unknown()).describe('getgems_sale or getgems_auction fields (api-v3.md NFTSale)'),
  nft_item: NftItem.optional(),
});

export const DnsRecord = z.object({
  nft_item_address: addr,
  nft_item_owner: addr.nullable(),
  domain: z.string(),
  dns_next_resolver: addr.nullable(),
  dns_wallet: addr.nullable(),
  dns_site_adnl: z.string().describe('ADNL address, 64 hex digits').nullable(),
  dns_storage_bag_id: z.string().describe('TON Storage bag id, 64 hex digits').nullable(),
});

export const VestingInfo = z.object({
  address: addr,
  start_time: z.number().int().describe('unix time vesting starts'),
  total_duration: z.number().int().describe('seconds from start_time until everything is unlocked'),
  unlock_period: z.number().int().describe('seconds between unlocks'),
  cliff_duration: z.number().int().describe('seconds from start_time before the first unlock'),
  sender_address: addr.nullable(),
  owner_address: addr.nullable(),
  total_amount: z.string().describe('nanotons vested, a decimal string'),
  whitelist: z.array(addr).describe('addresses the wallet may send locked coins to'),
});

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

export const TokenHit = z.object({
  type: z.enum(['jetton', 'nft_collection', 'nft_item']),
  address: addr,
  name: z.string().nullable(),
  symbol: z.string().nullable().describe('jettons only'),
});
export const TokenSearchResponse = z.object({ tokens: z.array(TokenHit), address_book: AddressBook });

export const NftCollectionsResponse = z.object({ nft_collections: z.array(NftCollection), address_book: AddressBook, metadata: Metadata });
export const NftItemsResponse = z.object({ nft_items: z.array(NftItem), address_book: AddressBook, metadata: Metadata });
export const NftTransfersResponse = z.object({ nft_transfers: z.array(NftTransfer), address_book: AddressBook, metadata: Metadata });
export const NftSalesResponse = z.object({ nft_sales: z.array(NftSale), address_book: AddressBook, metadata: Metadata });
export const DnsRecordsResponse = z.object({ records: z.array(DnsRecord), address_book: AddressBook });
export const VestingResponse = z.object({ vesting_contracts: z.array(VestingInfo), address_book: AddressBook });

export type NftCollectionJson = z.infer<typeof NftCollection>;
export type MultisigJson = z.infer<typeof Multisig>;
export type MultisigOrderJson = z.infer<typeof MultisigOrder>;
export type MultisigOrderActionJson = z.infer<typeof MultisigOrderAction>;
export type NftItemJson = z.infer<typeof NftItem>;
export type NftTransferJson = z.infer<typeof NftTransfer>;
export type NftSaleJson = z.infer<typeof NftSale>;
export type DnsRecordJson = z.infer<typeof DnsRecord>;
export type VestingInfoJson = z.infer<typeof VestingInfo>;
export type TokenHitJson = z.infer<typeof TokenHit>;
export type TokenSearchResponseJson = z.infer<typeof TokenSearchResponse>;

export type BlockJson = z.infer<typeof Block>;
export type JettonMasterJson = z.infer<typeof JettonMaster>;
export type JettonWalletJson = z.infer<typeof JettonWallet>;
export type JettonTransferJson = z.infer<typeof JettonTransfer>;
export type JettonBurnJson = z.infer<typeof JettonBurn>;
export type BlockIdJson = z.infer<typeof BlockId>;
export type TransactionJson = z.infer<typeof Transaction>;
export type TransactionDescrJson = z.infer<typeof TransactionDescr>;
export type MessageJson = z.infer<typeof Message>;
export type MessageContentJson = z.infer<typeof MessageContent>;
export type AccountStateJson = z.infer<typeof AccountState>;
export type AddressBookJson = z.infer<typeof AddressBook>;
export type AddressBookEntryJson = z.infer<typeof AddressBookEntry>;
export type MetadataJson = z.infer<typeof Metadata>;
export type AccountStateFullJson = z.infer<typeof AccountStateFull>;
export type WalletStateJson = z.infer<typeof WalletState>;
export type ActionJson = z.infer<typeof Action>;
export type TraceJson = z.infer<typeof Trace>;
export type EmulateResponseJson = z.infer<typeof EmulateResponse>;

/** Named schemas: the components of the OpenAPI document. */
export const MODELS = {
  BlockId,
  Block,
  AccountState,
  MessageContent,
  Message,
  TransactionDescr,
  Transaction,
  AddressBookEntry,
  AddressBook,
  TokenInfo,
  MetadataEntry,
  Metadata,
  AccountStateFull,
  WalletState,
  AccountBalance,
  MasterchainInfo,
  BlocksResponse,
  TransactionsResponse,
  MessagesResponse,
  AccountStatesResponse,
  WalletStatesResponse,
  AccountBalances,
  RequestError,
  V2AddressInformation,
  V2WalletInformation,
  RunGetMethodResponse,
  Fee,
  EstimateFeeResponse,
  SentMessage,
  DecodeResponse,
  Action,
  TraceNode,
  TraceInfo,
  Trace,
  TracesResponse,
  EventsResponse,
  ActionsResponse,
  RejectedMessage,
  PendingTracesResponse,
  EmulateResponse,
  PendingTransactionsResponse,
  BalanceChanges,
  JettonMaster,
  JettonWallet,
  JettonTransfer,
  JettonBurn,
  JettonMastersResponse,
  JettonWalletsResponse,
  JettonTransfersResponse,
  JettonBurnsResponse,
  NftCollection,
  NftItem,
  NftTransfer,
  NftSale,
  DnsRecord,
  NftCollectionsResponse,
  NftItemsResponse,
  NftTransfersResponse,
  NftSalesResponse,
  DnsRecordsResponse,
  VestingInfo,
  VestingResponse,
  MultisigOrderAction,
  MultisigOrder,
  Multisig,
  MultisigWalletsResponse,
  MultisigOrdersResponse,
  TokenHit,
  TokenSearchResponse,
} as const;
