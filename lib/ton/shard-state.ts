/**
 * Shard state (block.tlb): ShardAccounts, McStateExtra and a full
 * ShardStateUnsplit reader and writer. @ton/core reads ShardStateUnsplit only
 * partially and its storeShardAccounts writes a plain dictionary without the
 * DepthBalanceInfo extras; these writers produce the node's layout.
 */
import {
  Account,
  Builder,
  Cell,
  CurrencyCollection,
  DepthBalanceInfo,
  Dictionary,
  DictionaryValue,
  ShardAccount,
  ShardIdent,
  Slice,
  beginCell,
  loadCurrencyCollection,
  loadDepthBalanceInfo,
  loadShardAccount,
  loadShardIdent,
  storeCurrencyCollection,
  storeDepthBalanceInfo,
  storeShardAccount,
  storeShardIdent,
} from '@ton/core';
import { ExtBlkRef, loadExtBlkRef, storeExtBlkRef } from './block-info';
import { ConfigParams, loadConfigParams, storeConfigParams } from './config';
import { addDepthBalanceInfo, zeroDepthBalanceInfo } from './currency';
import {
  AugDict,
  AugDictCodec,
  AugEntriesInput,
  augDictDelete,
  augDictRootExtra,
  augDictGet,
  augDictSet,
  buildAugDictRoot,
  loadAugDictRoot,
  loadAugDictRootE,
  loadHashmapAugE,
  storeAugDictRootE,
  storeHashmapAugE,
} from './hashmap-aug';
import { ShardHashes, loadShardHashes, storeShardHashes } from './shard-hashes';

// ---------------------------------------------------------------------------
// ShardAccounts: HashmapAugE 256 ShardAccount DepthBalanceInfo
// ---------------------------------------------------------------------------

/** DepthBalanceInfo of an account (the node's Account::skip_copy_depth_balance). */
export function accountDepthBalance(account: Account | undefined | null): DepthBalanceInfo {
  if (!account) return zeroDepthBalanceInfo();
  const state = account.storage.state;
  const splitDepth = state.type === 'active' ? (state.state.splitDepth ?? 0) : 0;
  return { splitDepth, balance: account.storage.balance };
}

export const shardAccountsAug: AugDictCodec<ShardAccount, DepthBalanceInfo> = {
  loadValue: loadShardAccount,
  storeValue: storeShardAccount,
  loadExtra: loadDepthBalanceInfo,
  storeExtra: storeDepthBalanceInfo,
  combine: addDepthBalanceInfo,
  empty: zeroDepthBalanceInfo,
  leafExtra: (sa) => accountDepthBalance(sa.account),
};

/**
 * ShardAccounts kept as a dictionary root cell, updated in place per account.
 * Keys are the 256-bit account ids of the shard's workchain.
 */
export class ShardAccountsDict {
  constructor(public root: Cell | null = null) {}

  static fromEntries(entries: Iterable<readonly [bigint, ShardAccount]>): ShardAccountsDict {
    const input = Array.from(entries, ([k, v]) => [k, { value: v }] as const);
    return new ShardAccountsDict(buildAugDictRoot(input, 256, shardAccountsAug).root);
  }

  /** Reads the ^ShardAccounts cell of a state. */
  static fromCell(cell: Cell): ShardAccountsDict {
    return new ShardAccountsDict(loadAugDictRootE(cell.beginParse(), shardAccountsAug));
  }

  get(addr: bigint): ShardAccount | undefined {
    return augDictGet(this.root, 256, addr, shardAccountsAug)?.value;
  }

  set(addr: bigint, account: ShardAccount): void {
    this.root = augDictSet(this.root, 256, addr, account, shardAccountsAug);
  }

  delete(addr: bigint): void {
    this.root = augDictDelete(this.root, 256, addr, shardAccountsAug);
  }

  /** Split depth and total balance of all accounts. */
  total(): DepthBalanceInfo {
    return augDictRootExtra(this.root, 256, shardAccountsAug);
  }

  entries(): AugDict<ShardAccount, DepthBalanceInfo> {
    return loadAugDictRoot(this.root, 256, shardAccountsAug);
  }

  /** The ^ShardAccounts cell for ShardStateUnsplit.accounts. */
  toCell(): Cell {
    return beginCell().store(storeAugDictRootE(this.root, 256, shardAccountsAug)).endCell();
  }
}

export function loadShardAccountsAug(slice: Slice): AugDict<ShardAccount, DepthBalanceInfo> {
  return loadHashmapAugE(slice, 256, shardAccountsAug);
}

export function storeShardAccountsAug(entries: AugEntriesInput<ShardAccount, DepthBalanceInfo>): (builder: Builder) => void {
  return storeHashmapAugE(entries, 256, shardAccountsAug);
}

// ---------------------------------------------------------------------------
// McStateExtra
// ---------------------------------------------------------------------------

/** validator_info$_ validator_list_hash_short:uint32 catchain_seqno:uint32 nx_cc_updated:Bool = ValidatorInfo; */
export interface ValidatorInfo {
  validatorListHashShort: number;
  catchainSeqno: number;
  nxCcUpdated: boolean;
}

/** _ key:Bool blk_ref:ExtBlkRef = KeyExtBlkRef; */
export interface KeyExtBlkRef {
  key: boolean;
  blkRef: ExtBlkRef;
}

/** _ key:Bool max_end_lt:uint64 = KeyMaxLt; */
export interface KeyMaxLt {
  key: boolean;
  maxEndLt: bigint;
}

/** _ (HashmapAugE 32 KeyExtBlkRef KeyMaxLt) = OldMcBlocksInfo; keyed by masterchain seqno. */
export const oldMcBlocksInfoAug: AugDictCodec<KeyExtBlkRef, KeyMaxLt> = {
  loadValue: (s) => ({ key: s.loadBit(), blkRef: loadExtBlkRef(s) }),
  storeValue: (v) => (b) => {
    b.storeBit(v.key).store(storeExtBlkRef(v.blkRef));
  },
  loadExtra: (s) => ({ key: s.loadBit(), maxEndLt: s.loadUintBig(64) }),
  storeExtra: (e) => (b) => {
    b.storeBit(e.key).storeUint(e.maxEndLt, 64);
  },
  combine: (a, b) => ({ key: a.key || b.key, maxEndLt: a.maxEndLt > b.maxEndLt ? a.maxEndLt : b.maxEndLt }),
  empty: () => ({ key: false, maxEndLt: 0n }),
  leafExtra: (v) => ({ key: v.key, maxEndLt: v.blkRef.endLt }),
};

/** counters#_ last_updated:uint32 total:uint64 cnt2048:uint64 cnt65536:uint64 = Counters; */
export interface Counters {
  lastUpdated: number;
  total: bigint;
  cnt2048: bigint;
  cnt65536: bigint;
}

/** creator_info#4 mc_blocks:Counters shard_blocks:Counters = CreatorStats; */
export interface CreatorStats {
  mcBlocks: Counters;
  shardBlocks: Counters;
}

function loadCounters(s: Slice): Counters {
  return { lastUpdated: s.loadUint(32), total: s.loadUintBig(64), cnt2048: s.loadUintBig(64), cnt65536: s.loadUintBig(64) };
}

function storeCounters(c: Counters, b: Builder): void {
  b.storeUint(c.lastUpdated, 32).storeUint(c.total, 64).storeUint(c.cnt2048, 64).storeUint(c.cnt65536, 64);
}

export function loadCreatorStats(s: Slice): CreatorStats {
  if (s.loadUint(4) !== 4) throw new Error('CreatorStats: bad tag');
  return { mcBlocks: loadCounters(s), shardBlocks: loadCounters(s) };
}

export function storeCreatorStats(c: CreatorStats): (builder: Builder) => void {
  return (b) => {
    b.storeUint(4, 4);
    storeCounters(c.mcBlocks, b);
    storeCounters(c.shardBlocks, b);
  };
}

export const creatorStatsValue: DictionaryValue<CreatorStats> = {
  parse: loadCreatorStats,
  serialize: (v, b) => {
    b.store(storeCreatorStats(v));
  },
};

/** The uint32 extra of block_create_stats_ext sums at forks (generic add_values of uint32). */
export const creatorStatsAug: AugDictCodec<CreatorStats, number> = {
  loadValue: loadCreatorStats,
  storeValue: storeCreatorStats,
  loadExtra: (s) => s.loadUint(32),
  storeExtra: (e) => (b) => {
    b.storeUint(e, 32);
  },
  combine: (a, b) => a + b,
  empty: () => 0,
};

/**
 * block_create_stats#17 counters:(HashmapE 256 CreatorStats) = BlockCreateStats;
 * block_create_stats_ext#34 counters:(HashmapAugE 256 CreatorStats uint32) = BlockCreateStats;
 */
export type BlockCreateStats =
  | { kind: 'plain'; counters: Dictionary<bigint, CreatorStats> }
  | { kind: 'ext'; counters: AugDict<CreatorStats, number> };

export function loadBlockCreateStats(s: Slice): BlockCreateStats {
  const tag = s.loadUint(8);
  if (tag === 0x17) return { kind: 'plain', counters: Dictionary.load(Dictionary.Keys.BigUint(256), creatorStatsValue, s) };
  if (tag === 0x34) return { kind: 'ext', counters: loadHashmapAugE(s, 256, creatorStatsAug) };
  throw new Error(`BlockCreateStats: bad tag 0x${tag.toString(16)}`);
}

export function storeBlockCreateStats(x: BlockCreateStats): (builder: Builder) => void {
  return (b) => {
    if (x.kind === 'plain') b.storeUint(0x17, 8).storeDict(x.counters, Dictionary.Keys.BigUint(256), creatorStatsValue);
    else b.storeUint(0x34, 8).store(storeHashmapAugE(x.counters.entries, 256, creatorStatsAug));
  };
}

/**
 * masterchain_state_extra#cc26 shard_hashes:ShardHashes config:ConfigParams
 *   ^[ flags:(## 16) validator_info:ValidatorInfo prev_blocks:OldMcBlocksInfo
 *      after_key_block:Bool last_key_block:(Maybe ExtBlkRef)
 *      block_create_stats:(flags . 0)?BlockCreateStats ]
 *   global_balance:CurrencyCollection = McStateExtra;
 *
 * @ton/core 0.63.1's loadMasterchainStateExtra reads a phantom presence bit
 * before the config reference, which only lines up when the first bit of
 * global_balance's Grams length is 1, i.e. for a balance in [2^56, 2^64)
 * nanoton with the following fields happening to parse (in practice about
 * 72M-144M TON). Use loadMcStateExtra here instead.
 */
export interface McStateExtra {
  shardHashes: ShardHashes;
  config: ConfigParams;
  /** Bit 0 set exactly when blockCreateStats is present. */
  flags: number;
  validatorInfo: ValidatorInfo;
  prevBlocks: AugDict<KeyExtBlkRef, KeyMaxLt>;
  afterKeyBlock: boolean;
  lastKeyBlock: ExtBlkRef | null;
  blockCreateStats: BlockCreateStats | null;
  globalBalance: CurrencyCollection;
}

export function loadMcStateExtra(slice: Slice): McStateExtra {
  const tag = slice.loadUint(16);
  if (tag !== 0xcc26) throw new Error(`McStateExtra: bad tag 0x${tag.toString(16)}`);
  const shardHashes = loadShardHashes(slice);
  const config = loadConfigParams(slice);
  const r = slice.loadRef().beginParse();
  const flags = r.loadUint(16);
  if (flags > 1) throw new Error(`McStateExtra: flags ${flags} > 1`);
  const validatorInfo = { validatorListHashShort: r.loadUint(32), catchainSeqno: r.loadUint(32), nxCcUpdated: r.loadBit() };
  const prevBlocks = loadHashmapAugE(r, 32, oldMcBlocksInfoAug);
  const afterKeyBlock = r.loadBit();
  const lastKeyBlock = r.loadBit() ? loadExtBlkRef(r) : null;
  const blockCreateStats = flags & 1 ? loadBlockCreateStats(r) : null;
  const globalBalance = loadCurrencyCollection(slice);
  return { shardHashes, config, flags, validatorInfo, prevBlocks, afterKeyBlock, lastKeyBlock, blockCreateStats, globalBalance };
}

export function storeMcStateExtra(x: McStateExtra): (builder: Builder) => void {
  return (b) => {
    if (((x.flags & 1) === 1) !== (x.blockCreateStats !== null)) {
      throw new Error('McStateExtra: flags bit 0 disagrees with blockCreateStats');
    }
    b.storeUint(0xcc26, 16);
    b.store(storeShardHashes(x.shardHashes));
    b.store(storeConfigParams(x.config));
    const r = beginCell();
    r.storeUint(x.flags, 16);
    r.storeUint(x.validatorInfo.validatorListHashShort, 32).storeUint(x.validatorInfo.catchainSeqno, 32);
    r.storeBit(x.validatorInfo.nxCcUpdated);
    r.store(storeHashmapAugE(x.prevBlocks.entries, 32, oldMcBlocksInfoAug));
    r.storeBit(x.afterKeyBlock);
    if (x.lastKeyBlock) r.storeBit(1).store(storeExtBlkRef(x.lastKeyBlock));
    else r.storeBit(0);
    if (x.blockCreateStats) r.store(storeBlockCreateStats(x.blockCreateStats));
    b.storeRef(r);
    b.store(storeCurrencyCollection(x.globalBalance));
  };
}

// ---------------------------------------------------------------------------
// OutMsgQueueInfo
// ---------------------------------------------------------------------------

/**
 * An empty OutMsgQueueInfo: empty OutMsgQueue (HashmapAugE 352 with a zero
 * uint64 extra), empty ProcessedInfo, and no OutMsgQueueExtra (which has the
 * same bits as the older empty IhrPendingInfo).
 */
export function emptyOutMsgQueueInfo(): Cell {
  return beginCell().storeBit(0).storeUint(0, 64).storeBit(0).storeBit(0).endCell();
}

// ---------------------------------------------------------------------------
// ShardStateUnsplit
// ---------------------------------------------------------------------------

/**
 * shard_state#9023afe2 global_id:int32 shard_id:ShardIdent seq_no:uint32
 *   vert_seq_no:# gen_utime:uint32 gen_lt:uint64 min_ref_mc_seqno:uint32
 *   out_msg_queue_info:^OutMsgQueueInfo before_split:(## 1) accounts:^ShardAccounts
 *   ^[ overload_history:uint64 underload_history:uint64
 *      total_balance:CurrencyCollection total_validator_fees:CurrencyCollection
 *      libraries:(HashmapE 256 LibDescr) master_ref:(Maybe BlkMasterInfo) ]
 *   custom:(Maybe ^McStateExtra) = ShardStateUnsplit;
 *
 * Large parts stay cells: `accounts` is the ^ShardAccounts cell (see
 * ShardAccountsDict), `outMsgQueueInfo`, the library dictionary root and the
 * McStateExtra are passed through.
 */
export interface ShardStateUnsplitFull {
  globalId: number;
  shardId: ShardIdent;
  seqno: number;
  vertSeqno: number;
  genUtime: number;
  genLt: bigint;
  minRefMcSeqno: number;
  outMsgQueueInfo: Cell;
  beforeSplit: boolean;
  accounts: Cell;
  overloadHistory: bigint;
  underloadHistory: bigint;
  totalBalance: CurrencyCollection;
  totalValidatorFees: CurrencyCollection;
  /** Root of HashmapE 256 LibDescr, null when empty. */
  libraries: Cell | null;
  masterRef: ExtBlkRef | null;
  /**
   * The ^McStateExtra cell (masterchain only), read with loadMcStateExtra when wanted: the devnet
   * reads only its dictionary roots (to update them in place), and reading all of it walks the
   * config and every earlier masterchain block.
   */
  custom: Cell | null;
}

export function loadShardStateUnsplitFull(slice: Slice): ShardStateUnsplitFull {
  const tag = slice.loadUint(32);
  if (tag !== 0x9023afe2) throw new Error(`ShardStateUnsplit: bad tag 0x${tag.toString(16)}`);
  const globalId = slice.loadInt(32);
  const shardId = loadShardIdent(slice);
  const seqno = slice.loadUint(32);
  const vertSeqno = slice.loadUint(32);
  const genUtime = slice.loadUint(32);
  const genLt = slice.loadUintBig(64);
  const minRefMcSeqno = slice.loadUint(32);
  const outMsgQueueInfo = slice.loadRef();
  const beforeSplit = slice.loadBit();
  const accounts = slice.loadRef();
  const r = slice.loadRef().beginParse();
  const overloadHistory = r.loadUintBig(64);
  const underloadHistory = r.loadUintBig(64);
  const totalBalance = loadCurrencyCollection(r);
  const totalValidatorFees = loadCurrencyCollection(r);
  const libraries = r.loadMaybeRef();
  const masterRef = r.loadBit() ? loadExtBlkRef(r) : null;
  const custom = slice.loadMaybeRef();
  return {
    globalId,
    shardId,
    seqno,
    vertSeqno,
    genUtime,
    genLt,
    minRefMcSeqno,
    outMsgQueueInfo,
    beforeSplit,
    accounts,
    overloadHistory,
    underloadHistory,
    totalBalance,
    totalValidatorFees,
    libraries,
    masterRef,
    custom,
  };
}

export function storeShardStateUnsplit(st: ShardStateUnsplitFull): (builder: Builder) => void {
  return (b) => {
    b.storeUint(0x9023afe2, 32);
    b.storeInt(st.globalId, 32);
    b.store(storeShardIdent(st.shardId));
    b.storeUint(st.seqno, 32).storeUint(st.vertSeqno, 32).storeUint(st.genUtime, 32);
    b.storeUint(st.genLt, 64).storeUint(st.minRefMcSeqno, 32);
    b.storeRef(st.outMsgQueueInfo);
    b.storeBit(st.beforeSplit);
    b.storeRef(st.accounts);
    const r = beginCell();
    r.storeUint(st.overloadHistory, 64).storeUint(st.underloadHistory, 64);
    r.store(storeCurrencyCollection(st.totalBalance)).store(storeCurrencyCollection(st.totalValidatorFees));
    r.storeMaybeRef(st.libraries);
    if (st.masterRef) r.storeBit(1).store(storeExtBlkRef(st.masterRef));
    else r.storeBit(0);
    b.storeRef(r);
    b.storeMaybeRef(st.custom);
  };
}

// ---------------------------------------------------------------------------
// split_state
// ---------------------------------------------------------------------------

const SPLIT_STATE_TAG = 0x5f327da5;

/**
 * split_state#5f327da5 left:^ShardStateUnsplit right:^ShardStateUnsplit = ShardState; the state a
 * block right after a merge starts from (its MERKLE_UPDATE's old side): the two merged shards' states.
 */
export function splitStateCell(left: Cell, right: Cell): Cell {
  return beginCell().storeUint(SPLIT_STATE_TAG, 32).storeRef(left).storeRef(right).endCell();
}
