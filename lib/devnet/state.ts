/**
 * Shard states of the devnet's chains as cells: ShardStateUnsplit for each basechain shard and for
 * the masterchain (with McStateExtra: shard hashes, config, the OldMcBlocksInfo of every earlier
 * masterchain block, global balance).
 *
 * Everything that grows with the chain is kept as a dictionary root and updated in place
 * (accounts: RawShardAccounts; prev_blocks: augDictSet per block), because lib/ton's
 * storeMcStateExtra rebuilds prev_blocks from all its entries (O(blocks) per block).
 */
import {
  Builder,
  Cell,
  CurrencyCollection,
  Dictionary,
  DictionaryValue,
  ShardIdent,
  Slice,
  beginCell,
  loadCurrencyCollection,
  storeCurrencyCollection,
} from '@ton/core';
import {
  ExtBlkRef,
  ShardDescr,
  ShardHashes,
  SHARD_ALL,
  listShards,
  shardChildren,
  shardIdentOf,
  type BinTree,
  type FutureSplitMerge,
  augDictSet,
  emptyOutMsgQueueInfo,
  emptyShardHashes,
  loadAugDictRootE,
  loadExtBlkRef,
  loadShardHashes,
  oldMcBlocksInfoAug,
  storeAugDictRootE,
  storeExtBlkRef,
  storeShardHashes,
  storeShardStateUnsplit,
  type KeyExtBlkRef,
  type ShardStateUnsplitFull,
} from '../ton';

export const MASTERCHAIN = -1;
export const BASECHAIN = 0;

export function shardIdent(workchain: number, shard: bigint = SHARD_ALL): ShardIdent {
  return shardIdentOf(workchain, shard);
}

const MC_STATE_EXTRA_TAG = 0xcc26;

/** What the devnet sets of a ShardStateUnsplit (buildShardState writes the rest as zero or empty). */
export interface ShardStateInput {
  globalId: number;
  workchain: number;
  /** Basechain shard (default: the whole workchain). */
  shard?: bigint;
  seqno: number;
  genUtime: number;
  genLt: bigint;
  minRefMcSeqno: number;
  /** OutMsgQueueInfo (default: empty). */
  outMsgQueueInfo?: Cell;
  /** The state's block is the last before a split. */
  beforeSplit?: boolean;
  /** The ^ShardAccounts cell (RawShardAccounts.toCell()). */
  accounts: Cell;
  totalBalance: CurrencyCollection;
  /** Root of HashmapE 256 LibDescr, null when empty. */
  libraries: Cell | null;
  masterRef: ExtBlkRef | null;
  /** The McStateExtra cell (masterchain only). */
  custom: Cell | null;
}

/**
 * A state as lib/ton's storeShardStateUnsplit writes it. The out message queue holds the messages
 * between basechain shards (lib/devnet/shard-tip.ts); no vertical seqno, no load history; the devnet
 * keeps no validator fees: fees leave the accounts and are counted in fees_collected, nowhere else.
 */
export function buildShardState(p: ShardStateInput): Cell {
  const state: ShardStateUnsplitFull = {
    globalId: p.globalId,
    shardId: shardIdent(p.workchain, p.shard),
    seqno: p.seqno,
    vertSeqno: 0,
    genUtime: p.genUtime,
    genLt: p.genLt,
    minRefMcSeqno: p.minRefMcSeqno,
    outMsgQueueInfo: p.outMsgQueueInfo ?? emptyOutMsgQueueInfo(),
    beforeSplit: p.beforeSplit ?? false,
    accounts: p.accounts,
    overloadHistory: 0n,
    underloadHistory: 0n,
    totalBalance: p.totalBalance,
    totalValidatorFees: { coins: 0n },
    libraries: p.libraries,
    masterRef: p.masterRef,
    custom: p.custom,
  };
  return beginCell().store(storeShardStateUnsplit(state)).endCell();
}

// ---------------------------------------------------------------------------------------------
// McStateExtra
// ---------------------------------------------------------------------------------------------

export interface McStateExtraInput {
  shardHashes: ShardHashes;
  /** config_addr (ConfigParam 0). */
  configAddress: bigint;
  /** The Hashmap 32 ^Cell root (the sandbox's `blockchain.config`). */
  configRoot: Cell;
  /** Root of OldMcBlocksInfo (HashmapAug 32 KeyExtBlkRef KeyMaxLt), null when empty. */
  prevBlocksRoot: Cell | null;
  afterKeyBlock: boolean;
  lastKeyBlock: ExtBlkRef | null;
  globalBalance: CurrencyCollection;
  /** validator_info.validator_list_hash_short: the devnet has no validators and puts an id derived from its seed here. */
  validatorListHashShort: number;
}

/**
 * masterchain_state_extra#cc26 shard_hashes:ShardHashes config:ConfigParams ^[ flags:(## 16)
 *   validator_info:ValidatorInfo prev_blocks:OldMcBlocksInfo after_key_block:Bool
 *   last_key_block:(Maybe ExtBlkRef) block_create_stats:(flags . 0)?BlockCreateStats ]
 *   global_balance:CurrencyCollection = McStateExtra;
 * No validators: validator_info holds a seed-derived list hash (so that every devnet's zero state
 * differs even with identical accounts), catchain seqno 0; no block creation statistics (flags 0).
 */
export function buildMcStateExtra(p: McStateExtraInput): Cell {
  const r = beginCell()
    .storeUint(0, 16)
    .storeUint(p.validatorListHashShort, 32)
    .storeUint(0, 32)
    .storeBit(0)
    .store(storeAugDictRootE(p.prevBlocksRoot, 32, oldMcBlocksInfoAug))
    .storeBit(p.afterKeyBlock);
  if (p.lastKeyBlock) r.storeBit(1).store(storeExtBlkRef(p.lastKeyBlock));
  else r.storeBit(0);
  return beginCell()
    .storeUint(MC_STATE_EXTRA_TAG, 16)
    .store(storeShardHashes(p.shardHashes))
    .storeUint(p.configAddress, 256)
    .storeRef(p.configRoot)
    .storeRef(r)
    .store(storeCurrencyCollection(p.globalBalance))
    .endCell();
}

export function readMcStateExtra(cell: Cell): McStateExtraInput {
  const s = cell.beginParse();
  if (s.loadUint(16) !== MC_STATE_EXTRA_TAG) throw new Error('McStateExtra: bad tag');
  const shardHashes = loadShardHashes(s);
  const configAddress = s.loadUintBig(256);
  const configRoot = s.loadRef();
  const r = s.loadRef().beginParse();
  r.skip(16);
  const validatorListHashShort = r.loadUint(32);
  r.skip(32 + 1);
  const prevBlocksRoot = loadAugDictRootE(r, oldMcBlocksInfoAug);
  const afterKeyBlock = r.loadBit();
  const lastKeyBlock = r.loadBit() ? loadExtBlkRef(r) : null;
  const globalBalance = loadCurrencyCollection(s);
  return { shardHashes, configAddress, configRoot, prevBlocksRoot, afterKeyBlock, lastKeyBlock, globalBalance, validatorListHashShort };
}

/** OldMcBlocksInfo with one more masterchain block. */
export function addPrevBlock(root: Cell | null, seqno: number, ref: ExtBlkRef, keyBlock: boolean): Cell {
  const value: KeyExtBlkRef = { key: keyBlock, blkRef: ref };
  return augDictSet(root, 32, BigInt(seqno), value, oldMcBlocksInfoAug);
}

/** The basechain's single shard in ShardHashes. */
export function singleShardHashes(workchain: number, descr: ShardDescr): ShardHashes {
  return shardHashesOf(workchain, new Map([[SHARD_ALL, descr]]));
}

/** ShardHashes of a workchain from its leaves: the BinTree forks wherever a shard is split. */
export function shardHashesOf(workchain: number, leaves: ReadonlyMap<bigint, ShardDescr>): ShardHashes {
  const tree = (shard: bigint): BinTree<ShardDescr> => {
    const leaf = leaves.get(shard);
    if (leaf) return { kind: 'leaf', leaf };
    const [left, right] = shardChildren(shard);
    return { kind: 'fork', left: tree(left), right: tree(right) };
  };
  const hashes = emptyShardHashes();
  hashes.set(workchain, tree(SHARD_ALL));
  return hashes;
}

/** The leaves of one workchain of ShardHashes, by shard id. */
export function shardLeaves(hashes: ShardHashes, workchain: number): Map<bigint, ShardDescr> {
  return new Map(listShards(hashes).filter((s) => s.workchain === workchain).map((s) => [s.shard, s.descr]));
}

/** What a shard's block sets in its ShardDescr (the rest follows from the shard or has a default). */
export interface ShardDescrInput
  extends Pick<
    ShardDescr,
    'seqno' | 'regMcSeqno' | 'startLt' | 'endLt' | 'rootHash' | 'fileHash' | 'genUtime' | 'minRefMcSeqno' | 'feesCollected'
  > {
  /** Default: the whole workchain. */
  shard?: bigint;
  /** Split/merge state (default: none of it), catchain seqno (default 0). */
  beforeSplit?: boolean;
  wantSplit?: boolean;
  wantMerge?: boolean;
  ccSeqno?: number;
  splitMergeAt?: FutureSplitMerge;
}

/** shard_descr_new#a (the form mainnet writes today) of a shard's block; next_validator_shard is the shard itself. */
export function shardDescr(p: ShardDescrInput): ShardDescr {
  return {
    tag: 0xa,
    seqno: p.seqno,
    regMcSeqno: p.regMcSeqno,
    startLt: p.startLt,
    endLt: p.endLt,
    rootHash: p.rootHash,
    fileHash: p.fileHash,
    beforeSplit: p.beforeSplit ?? false,
    beforeMerge: false,
    wantSplit: p.wantSplit ?? false,
    wantMerge: p.wantMerge ?? false,
    nxCcUpdated: false,
    flags: 0,
    nextCatchainSeqno: p.ccSeqno ?? 0,
    nextValidatorShard: p.shard ?? SHARD_ALL,
    minRefMcSeqno: p.minRefMcSeqno,
    genUtime: p.genUtime,
    splitMergeAt: p.splitMergeAt ?? { kind: 'none' },
    feesCollected: p.feesCollected,
    fundsCreated: { coins: 0n },
  };
}

// ---------------------------------------------------------------------------------------------
// Libraries
// ---------------------------------------------------------------------------------------------

const trueValue: DictionaryValue<true> = {
  serialize: () => {},
  parse: () => true,
};

/** The zero account: the devnet's stand-in publisher of the sandbox's global libraries. */
const LIBRARY_PUBLISHER = 0n;

const libDescrValue: DictionaryValue<Cell> = {
  serialize: (lib: Cell, b: Builder) => {
    const publishers = Dictionary.empty(Dictionary.Keys.BigUint(256), trueValue);
    publishers.set(LIBRARY_PUBLISHER, true);
    b.storeUint(0, 2).storeRef(lib).storeDictDirect(publishers);
  },
  parse: (s: Slice) => {
    s.skip(2);
    return s.loadRef();
  },
};

/**
 * shared_lib_descr$00 lib:^Cell publishers:(Hashmap 256 True) = LibDescr; keyed by the library's
 * hash. Built from the sandbox's `libs` (Hashmap 256 ^Cell), which is where its executor finds
 * libraries; the devnet has no masterchain account publishing them.
 */
export function librariesFromSandboxLibs(libs: Cell | undefined | null): Cell | null {
  if (!libs) return null;
  const src = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell(), libs);
  if (src.size === 0) return null;
  const out = Dictionary.empty(Dictionary.Keys.BigUint(256), libDescrValue);
  for (const [k, v] of src) out.set(k, v);
  return beginCell().storeDictDirect(out).endCell();
}

/** The inverse, for a restart: the sandbox's `libs` from a state's libraries. */
export function sandboxLibsFromLibraries(libraries: Cell | null): Cell | undefined {
  if (!libraries) return undefined;
  const src = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), libDescrValue, libraries);
  const out = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  for (const [k, v] of src) out.set(k, v);
  return beginCell().storeDictDirect(out).endCell();
}

/** Every library cell of a state's libraries, by hash (liteServer.getLibraries). */
export function librariesByHash(libraries: Cell | null): Map<string, Cell> {
  const out = new Map<string, Cell>();
  if (!libraries) return out;
  const src = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), libDescrValue, libraries);
  for (const [k, v] of src) out.set(k.toString(16).padStart(64, '0'), v);
  return out;
}

/** ConfigParam 0 (the config contract's address) of a config root. */
export function configAddressOf(configRoot: Cell): bigint {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), configRoot);
  const p0 = dict.get(0);
  return p0 ? p0.beginParse().loadUintBig(256) : 0n;
}

/** ConfigParam 19 (global id), ConfigParam 8 (global version and capabilities). */
export function configIdentity(configRoot: Cell): { globalId: number; version: number; capabilities: bigint } {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), configRoot);
  const p19 = dict.get(19);
  const p8 = dict.get(8)?.beginParse();
  let version = 0;
  let capabilities = 0n;
  if (p8 && p8.loadUint(8) === 0xc4) {
    version = p8.loadUint(32);
    capabilities = p8.loadUintBig(64);
  }
  return { globalId: p19 ? p19.beginParse().loadInt(32) : -239, version, capabilities };
}
