// The classifier's input (a trace as Atlas's index stores it: transactions, their messages with body
// BoCs, and what the index knows about each address) and its output (toncenter's action record: the
// columns of ton-indexer's `actions` table with its per-type `*_data` objects). Addresses are raw
// `WC:HEX64` upper case, hashes standard base64, amounts bigint.

/** Bump when the output for some stored trace changes: the indexer re-classifies stored traces then. */
// v2: .ton record changes (protocols/dns.ts); interfaces from the derived token tables (trace-input.ts);
// tgBTC, EVAA, JVault unstakes, TONCO and coffee liquidity, LayerZero. v3: multisig v2 (protocols/multisig.ts).
// v4: a multisig approval by "approve" comment has its signer_index (the sender among the order's signers).
// v5: every matcher rebuilt from its protocol's flow (jettons, NFT and marketplaces, staking, DEXes, EVAA,
// JVault, vesting, LayerZero): failures and refunds as success false, marketplace types, nft_transfer's
// payout_* and royalty_*.
// v6: bemo and TON Whales staking (stake_deposit / stake_withdrawal_request / stake_withdrawal), STON.fi v2's
// two sides of one provision as one dex_deposit_liquidity, EVAA supply asset_id and supplied amount, EVAA
// liquidations refused at once, a refused payout named master_not_enough_liquidity, DeDust v2 swaps, deposits and withdrawals
// (protocols/dedust-v2.ts, dedust-v2-liquidity.ts).
export const CLASSIFIER_VERSION = 6;

export interface TraceMessage {
  hash: string;
  /** null for external-in messages. */
  source: string | null;
  /** null for external-out messages (logs). */
  destination: string | null;
  value: bigint | null;
  fwdFee: bigint | null;
  bounce: boolean | null;
  bounced: boolean | null;
  createdLt: bigint | null;
  /** First 32 bits of the body, unsigned; null when the body is shorter. */
  opcode: number | null;
  /** Bag of cells of the body cell alone; null when unknown. */
  body: Buffer | null;
}

export interface TraceTransaction {
  hash: string;
  account: string;
  lt: bigint;
  now: number;
  mcSeqno: number | null;
  origStatus: string;
  endStatus: string;
  aborted: boolean;
  /** null when the compute phase was skipped. */
  computeExitCode: number | null;
  /** Tick-tock transaction (no in-message). */
  tickTock: boolean;
  inMsg: TraceMessage | null;
  outMsgs: TraceMessage[];
}

export interface Trace {
  traceId: string;
  externalHash: string | null;
  mcSeqnoEnd: number;
  endLt: bigint;
  endUtime: number;
  /** Any order; the classifier sorts by lt. */
  transactions: TraceTransaction[];
}

/** What the index knows about one address (all optional: nothing detected is `{}`). */
export interface AccountInterfaces {
  jettonWallet?: { owner: string; jetton: string; balance: bigint | null };
  nftItem?: NftItemInfo;
  /** DeDust pool assets, null for TON. */
  dedustPool?: { assets: (string | null)[] };
  /** A GetGems fixed-price sale (get_sale_data). */
  nftSale?: NftSaleInfo;
  /** A GetGems auction (get_sale_data). */
  nftAuction?: NftAuctionInfo;
  /** TON's nominator pool contract (get_pool_data, list_nominators). */
  nominatorPool?: boolean;
  /** A TON Whales nominator pool (get_staking_status, get_pool_status, get_member, …). */
  whalesPool?: boolean;
  /** A multisig v2 order the derive stage accepted: its wallet and signers (index order), which never change once initialised. */
  multisigOrder?: { multisig: string; signers: string[] };
  /** The account's data cell (BoC), for contracts whose roles are read from their state (jvault). */
  dataBoc?: Buffer;
}

export type Interfaces = ReadonlyMap<string, AccountInterfaces>;

export interface NftItemInfo {
  collection: string | null;
  index: bigint | null;
  owner: string | null;
  init: boolean;
  /** The metadata URI (Fragment's items: https://nft.fragment.com/…), when the index knows it. */
  uri?: string | null;
  /** A TON DNS (.ton) item: its own auction and balance release. */
  dns?: boolean;
}

export interface NftSaleInfo {
  marketplace: string | null;
  nft: string | null;
  owner: string | null;
  price: bigint | null;
  marketplaceFeeAddress?: string | null;
  marketplaceFee?: bigint | null;
  royaltyAddress?: string | null;
  royaltyAmount?: bigint | null;
}

export interface NftAuctionInfo {
  marketplace: string | null;
  nft: string | null;
  owner: string | null;
  lastBid: bigint | null;
  mpFeeAddress?: string | null;
  mpFeeFactor?: bigint | null;
  mpFeeBase?: bigint | null;
  royaltyAddress?: string | null;
  royaltyBase?: bigint | null;
  maxBid?: bigint | null;
  minBid?: bigint | null;
}

/** One leg of a swap as the dex saw it. */
export interface DexTransfer {
  amount: bigint | null;
  asset: string | null;
  source: string | null;
  source_jetton_wallet: string | null;
  destination: string | null;
  destination_jetton_wallet: string | null;
}

export interface PeerSwap {
  amount_in: bigint | null;
  asset_in: string | null;
  amount_out: bigint | null;
  asset_out: string | null;
}

/** A per-type data object: field names and values as toncenter stores them. */
export type ActionData = { [key: string]: ActionValue };
export type ActionValue = string | number | bigint | boolean | null | ActionValue[] | ActionData | DexTransfer | PeerSwap;

export interface Action {
  type: string;
  action_id: string;
  trace_id: string;
  tx_hashes: string[];
  accounts: string[];
  start_lt: bigint;
  end_lt: bigint;
  start_utime: number;
  end_utime: number;
  trace_end_lt: bigint;
  trace_end_utime: number;
  trace_mc_seqno_end: number;
  mc_seqno_end: number;
  source: string | null;
  source_secondary: string | null;
  destination: string | null;
  destination_secondary: string | null;
  asset: string | null;
  asset_secondary: string | null;
  asset2: string | null;
  asset2_secondary: string | null;
  value: bigint | null;
  amount: bigint | null;
  opcode: number | null;
  success: boolean;
  parent_action_id: string | null;
  /** Types of the enclosing actions; null at the top level. */
  ancestor_type: string[] | null;
  /** The per-type objects (`ton_transfer_data`, `jetton_swap_data`, …), present for their types. */
  [data: `${string}_data`]: ActionData | undefined;
}
