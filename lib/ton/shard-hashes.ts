/**
 * Shard configuration as recorded by the masterchain (block.tlb):
 * ShardHashes (HashmapE 32 ^(BinTree ShardDescr)), ShardDescr, ShardFees.
 */
import {
  Builder,
  CurrencyCollection,
  Dictionary,
  DictionaryValue,
  Slice,
  beginCell,
  loadCurrencyCollection,
  storeCurrencyCollection,
} from '@ton/core';
import { addCurrencyCollections, zeroCurrencyCollection } from './currency';
import { AugDict, AugDictCodec, AugEntriesInput, loadHashmapAugE, storeHashmapAugE } from './hashmap-aug';

// ---------------------------------------------------------------------------
// BinTree
// ---------------------------------------------------------------------------

/** bt_leaf$0 leaf:X = BinTree X; bt_fork$1 left:^(BinTree X) right:^(BinTree X) = BinTree X; */
export type BinTree<X> = { kind: 'leaf'; leaf: X } | { kind: 'fork'; left: BinTree<X>; right: BinTree<X> };

export function loadBinTree<X>(slice: Slice, loadLeaf: (s: Slice) => X): BinTree<X> {
  if (!slice.loadBit()) return { kind: 'leaf', leaf: loadLeaf(slice) };
  const left = loadBinTree(slice.loadRef().beginParse(), loadLeaf);
  const right = loadBinTree(slice.loadRef().beginParse(), loadLeaf);
  return { kind: 'fork', left, right };
}

export function storeBinTree<X>(tree: BinTree<X>, storeLeaf: (x: X) => (b: Builder) => void): (builder: Builder) => void {
  return (builder) => {
    if (tree.kind === 'leaf') {
      builder.storeBit(0).store(storeLeaf(tree.leaf));
    } else {
      builder.storeBit(1);
      builder.storeRef(beginCell().store(storeBinTree(tree.left, storeLeaf)));
      builder.storeRef(beginCell().store(storeBinTree(tree.right, storeLeaf)));
    }
  };
}

// ---------------------------------------------------------------------------
// ShardDescr
// ---------------------------------------------------------------------------

/**
 * fsm_none$0 = FutureSplitMerge;
 * fsm_split$10 split_utime:uint32 interval:uint32 = FutureSplitMerge;
 * fsm_merge$11 merge_utime:uint32 interval:uint32 = FutureSplitMerge;
 */
export type FutureSplitMerge =
  | { kind: 'none' }
  | { kind: 'split'; splitUtime: number; interval: number }
  | { kind: 'merge'; mergeUtime: number; interval: number };

export function loadFutureSplitMerge(slice: Slice): FutureSplitMerge {
  if (!slice.loadBit()) return { kind: 'none' };
  if (!slice.loadBit()) return { kind: 'split', splitUtime: slice.loadUint(32), interval: slice.loadUint(32) };
  return { kind: 'merge', mergeUtime: slice.loadUint(32), interval: slice.loadUint(32) };
}

export function storeFutureSplitMerge(f: FutureSplitMerge): (builder: Builder) => void {
  return (builder) => {
    if (f.kind === 'none') builder.storeBit(0);
    else if (f.kind === 'split') builder.storeUint(0b10, 2).storeUint(f.splitUtime, 32).storeUint(f.interval, 32);
    else builder.storeUint(0b11, 2).storeUint(f.mergeUtime, 32).storeUint(f.interval, 32);
  };
}

/**
 * shard_descr#b / shard_descr_new#a seq_no:uint32 reg_mc_seqno:uint32
 *   start_lt:uint64 end_lt:uint64 root_hash:bits256 file_hash:bits256
 *   before_split:Bool before_merge:Bool want_split:Bool want_merge:Bool
 *   nx_cc_updated:Bool flags:(## 3) next_catchain_seqno:uint32
 *   next_validator_shard:uint64 min_ref_mc_seqno:uint32 gen_utime:uint32
 *   split_merge_at:FutureSplitMerge
 *   fees_collected:CurrencyCollection funds_created:CurrencyCollection
 * (#a keeps the two CurrencyCollections in a referenced cell.)
 */
export interface ShardDescr {
  /** 0xb: fees inline; 0xa (shard_descr_new): fees in a child cell. */
  tag: 0xa | 0xb;
  seqno: number;
  regMcSeqno: number;
  startLt: bigint;
  endLt: bigint;
  rootHash: Buffer;
  fileHash: Buffer;
  beforeSplit: boolean;
  beforeMerge: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  nxCcUpdated: boolean;
  flags: number;
  nextCatchainSeqno: number;
  nextValidatorShard: bigint;
  minRefMcSeqno: number;
  genUtime: number;
  splitMergeAt: FutureSplitMerge;
  feesCollected: CurrencyCollection;
  fundsCreated: CurrencyCollection;
}

export function loadShardDescr(slice: Slice): ShardDescr {
  const tag = slice.loadUint(4);
  if (tag !== 0xa && tag !== 0xb) throw new Error(`ShardDescr: bad tag 0x${tag.toString(16)}`);
  const d = {
    tag: tag as 0xa | 0xb,
    seqno: slice.loadUint(32),
    regMcSeqno: slice.loadUint(32),
    startLt: slice.loadUintBig(64),
    endLt: slice.loadUintBig(64),
    rootHash: slice.loadBuffer(32),
    fileHash: slice.loadBuffer(32),
    beforeSplit: slice.loadBit(),
    beforeMerge: slice.loadBit(),
    wantSplit: slice.loadBit(),
    wantMerge: slice.loadBit(),
    nxCcUpdated: slice.loadBit(),
    flags: slice.loadUint(3),
    nextCatchainSeqno: slice.loadUint(32),
    nextValidatorShard: slice.loadUintBig(64),
    minRefMcSeqno: slice.loadUint(32),
    genUtime: slice.loadUint(32),
    splitMergeAt: loadFutureSplitMerge(slice),
  };
  const fees = tag === 0xa ? slice.loadRef().beginParse() : slice;
  const feesCollected = loadCurrencyCollection(fees);
  const fundsCreated = loadCurrencyCollection(fees);
  return { ...d, feesCollected, fundsCreated };
}

export function storeShardDescr(d: ShardDescr): (builder: Builder) => void {
  return (b) => {
    b.storeUint(d.tag, 4);
    b.storeUint(d.seqno, 32).storeUint(d.regMcSeqno, 32);
    b.storeUint(d.startLt, 64).storeUint(d.endLt, 64);
    b.storeBuffer(d.rootHash, 32).storeBuffer(d.fileHash, 32);
    b.storeBit(d.beforeSplit).storeBit(d.beforeMerge).storeBit(d.wantSplit).storeBit(d.wantMerge).storeBit(d.nxCcUpdated);
    b.storeUint(d.flags, 3);
    b.storeUint(d.nextCatchainSeqno, 32).storeUint(d.nextValidatorShard, 64);
    b.storeUint(d.minRefMcSeqno, 32).storeUint(d.genUtime, 32);
    b.store(storeFutureSplitMerge(d.splitMergeAt));
    const fees = beginCell().store(storeCurrencyCollection(d.feesCollected)).store(storeCurrencyCollection(d.fundsCreated));
    if (d.tag === 0xa) b.storeRef(fees);
    else b.storeBuilder(fees);
  };
}

// ---------------------------------------------------------------------------
// ShardHashes
// ---------------------------------------------------------------------------

/** _ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes; keyed by workchain id. */
export type ShardHashes = Dictionary<number, BinTree<ShardDescr>>;

export const shardDescrTreeValue: DictionaryValue<BinTree<ShardDescr>> = {
  parse: (s) => loadBinTree(s.loadRef().beginParse(), loadShardDescr),
  serialize: (tree, b) => {
    b.storeRef(beginCell().store(storeBinTree(tree, storeShardDescr)));
  },
};

export function emptyShardHashes(): ShardHashes {
  return Dictionary.empty(Dictionary.Keys.Int(32), shardDescrTreeValue);
}

export function loadShardHashes(slice: Slice): ShardHashes {
  return Dictionary.load(Dictionary.Keys.Int(32), shardDescrTreeValue, slice);
}

export function storeShardHashes(hashes: ShardHashes): (builder: Builder) => void {
  return (builder) => {
    builder.storeDict(hashes, Dictionary.Keys.Int(32), shardDescrTreeValue);
  };
}

export interface ShardInfo {
  workchain: number;
  /** Shard id with its tag bit, as in block ids (0x8000000000000000 = whole workchain). */
  shard: bigint;
  descr: ShardDescr;
}

/** Flattens ShardHashes into the list of current shards, left to right. */
export function listShards(hashes: ShardHashes): ShardInfo[] {
  const out: ShardInfo[] = [];
  const walk = (wc: number, tree: BinTree<ShardDescr>, prefix: bigint, depth: number) => {
    if (tree.kind === 'leaf') {
      const tagBit = 1n << BigInt(63 - depth);
      out.push({ workchain: wc, shard: (prefix << BigInt(64 - depth)) | tagBit, descr: tree.leaf });
    } else {
      walk(wc, tree.left, prefix << 1n, depth + 1);
      walk(wc, tree.right, (prefix << 1n) | 1n, depth + 1);
    }
  };
  for (const [wc, tree] of hashes) walk(wc, tree, 0n, 0);
  return out;
}

// ---------------------------------------------------------------------------
// ShardFees
// ---------------------------------------------------------------------------

/** _ fees:CurrencyCollection create:CurrencyCollection = ShardFeeCreated; */
export interface ShardFeeCreated {
  fees: CurrencyCollection;
  create: CurrencyCollection;
}

export function loadShardFeeCreated(slice: Slice): ShardFeeCreated {
  const fees = loadCurrencyCollection(slice);
  return { fees, create: loadCurrencyCollection(slice) };
}

export function storeShardFeeCreated(x: ShardFeeCreated): (builder: Builder) => void {
  return (builder) => {
    builder.store(storeCurrencyCollection(x.fees)).store(storeCurrencyCollection(x.create));
  };
}

/** _ (HashmapAugE 96 ShardFeeCreated ShardFeeCreated) = ShardFees; key = workchain:int32 ‖ shard:uint64. */
export const shardFeesAug: AugDictCodec<ShardFeeCreated, ShardFeeCreated> = {
  loadValue: loadShardFeeCreated,
  storeValue: storeShardFeeCreated,
  loadExtra: loadShardFeeCreated,
  storeExtra: storeShardFeeCreated,
  combine: (a, b) => ({ fees: addCurrencyCollections(a.fees, b.fees), create: addCurrencyCollections(a.create, b.create) }),
  empty: () => ({ fees: zeroCurrencyCollection(), create: zeroCurrencyCollection() }),
  leafExtra: (v) => v,
};

export type ShardFees = AugDict<ShardFeeCreated, ShardFeeCreated>;

export function shardFeesKey(workchain: number, shard: bigint): bigint {
  return (BigInt.asUintN(32, BigInt(workchain)) << 64n) | shard;
}

export function loadShardFees(slice: Slice): ShardFees {
  return loadHashmapAugE(slice, 96, shardFeesAug);
}

export function storeShardFees(entries: AugEntriesInput<ShardFeeCreated, ShardFeeCreated>): (builder: Builder) => void {
  return storeHashmapAugE(entries, 96, shardFeesAug);
}
