// The rows one block contributes to the index, shaped like the Prisma models (lib/db/generated) so the
// store can write them as they are. JSON columns hold toncenter's shapes (amounts as decimal strings).

export interface BlockRef {
  workchain: number;
  shard: bigint; // signed, as toncenter stores it
  seqno: number;
  root_hash?: string;
  file_hash?: string;
}

export interface BlockRecord {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
  mcBlockSeqno: number | null;
  globalId: number;
  version: number;
  afterMerge: boolean;
  beforeSplit: boolean;
  afterSplit: boolean;
  wantMerge: boolean;
  wantSplit: boolean;
  keyBlock: boolean;
  vertSeqnoIncr: boolean;
  flags: number;
  genUtime: bigint;
  startLt: bigint;
  endLt: bigint;
  validatorListHashShort: bigint;
  genCatchainSeqno: number;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  vertSeqno: number;
  masterRefSeqno: number;
  randSeed: Buffer;
  createdBy: Buffer;
  txCount: number;
  prevBlocks: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string }[];
}

type BlockHeaderFlags = Pick<
  BlockRecord,
  'globalId' | 'version' | 'afterMerge' | 'beforeSplit' | 'afterSplit' | 'wantMerge' | 'wantSplit' | 'keyBlock' | 'vertSeqnoIncr' | 'flags'
>;

/** A block's header fields that the blocks table and v3's Block JSON both keep as they are, under toncenter's names. */
export function blockHeaderColumns(b: BlockHeaderFlags) {
  return {
    global_id: b.globalId,
    version: b.version,
    after_merge: b.afterMerge,
    before_split: b.beforeSplit,
    after_split: b.afterSplit,
    want_merge: b.wantMerge,
    want_split: b.wantSplit,
    key_block: b.keyBlock,
    vert_seqno_incr: b.vertSeqnoIncr,
    flags: b.flags,
  };
}

export interface TransactionRecord {
  hash: Buffer;
  account: string;
  lt: bigint;
  now: number;
  blockWorkchain: number;
  blockShard: bigint;
  blockSeqno: number;
  mcBlockSeqno: number | null;
  prevTransHash: Buffer;
  prevTransLt: bigint;
  origStatus: AccountStatusName;
  endStatus: AccountStatusName;
  totalFees: bigint;
  totalFeesExtraCurrencies: Record<string, string> | null;
  description: TransactionDescrJson;
  accountStateHashBefore: Buffer;
  accountStateHashAfter: Buffer;
  /** The transaction cell as a BoC (transaction_bocs: v2 serves pruned history from it). */
  boc: Buffer;
}

export type AccountStatusName = 'uninit' | 'frozen' | 'active' | 'nonexist';

export interface MessageRecord {
  txHash: Buffer;
  txLt: bigint;
  msgHash: Buffer;
  direction: 'in' | 'out';
  source: string | null;
  destination: string | null;
  value: bigint | null;
  valueExtraCurrencies: Record<string, string> | null;
  fwdFee: bigint | null;
  ihrFee: bigint | null;
  extraFlags: bigint | null;
  createdLt: bigint | null;
  createdAt: bigint | null;
  opcode: number | null;
  ihrDisabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  importFee: bigint | null;
  bodyHash: Buffer;
  initStateHash: Buffer | null;
  msgHashNorm: Buffer | null;
}

export interface MessageContentRecord {
  hash: Buffer;
  boc: Buffer;
}

/** toncenter's TransactionDescr (api-v3.md §3.2); absent keys are phases that did not happen. */
export interface TransactionDescrJson {
  type: 'ord' | 'storage' | 'tick_tock' | 'split_prepare' | 'split_install' | 'merge_prepare' | 'merge_install';
  aborted?: boolean;
  destroyed?: boolean;
  credit_first?: boolean;
  is_tock?: boolean;
  installed?: boolean;
  storage_ph?: { storage_fees_collected: string; storage_fees_due?: string; status_change: string };
  credit_ph?: { due_fees_collected?: string; credit: string; credit_extra_currencies?: Record<string, string> };
  compute_ph?:
    | { skipped: true; reason: string }
    | {
        skipped: false;
        success: boolean;
        msg_state_used: boolean;
        account_activated: boolean;
        gas_fees: string;
        gas_used: string;
        gas_limit: string;
        gas_credit?: string;
        mode: number;
        exit_code: number;
        exit_arg?: number;
        vm_steps: number;
        vm_init_state_hash: string;
        vm_final_state_hash: string;
      };
  action?: {
    success: boolean;
    valid: boolean;
    no_funds: boolean;
    status_change: string;
    total_fwd_fees?: string;
    total_action_fees?: string;
    result_code: number;
    result_arg?: number;
    tot_actions: number;
    spec_actions: number;
    skipped_actions: number;
    msgs_created: number;
    action_list_hash: string;
    tot_msg_size: { cells: string; bits: string };
  };
  bounce?: {
    type: 'negfunds' | 'nofunds' | 'ok';
    msg_size?: { cells: string; bits: string };
    req_fwd_fees?: string;
    msg_fees?: string;
    fwd_fees?: string;
  };
  split_info?: { cur_shard_pfx_len: number; acc_split_depth: number; this_addr: string; sibling_addr: string };
}

export interface ParsedBlock {
  block: BlockRecord;
  transactions: TransactionRecord[];
  messages: MessageRecord[];
  contents: MessageContentRecord[];
}
