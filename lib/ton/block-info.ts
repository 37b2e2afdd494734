/**
 * BlockInfo and the block references it carries (block.tlb). ShardIdent comes
 * from @ton/core.
 */
import { Builder, ShardIdent, Slice, beginCell, loadShardIdent, storeShardIdent } from '@ton/core';

/** ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256 = ExtBlkRef; */
export interface ExtBlkRef {
  endLt: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export function loadExtBlkRef(slice: Slice): ExtBlkRef {
  return {
    endLt: slice.loadUintBig(64),
    seqno: slice.loadUint(32),
    rootHash: slice.loadBuffer(32),
    fileHash: slice.loadBuffer(32),
  };
}

export function storeExtBlkRef(ref: ExtBlkRef): (builder: Builder) => void {
  return (builder) => {
    builder.storeUint(ref.endLt, 64);
    builder.storeUint(ref.seqno, 32);
    builder.storeBuffer(ref.rootHash, 32);
    builder.storeBuffer(ref.fileHash, 32);
  };
}

/** block_id_ext$_ shard_id:ShardIdent seq_no:uint32 root_hash:bits256 file_hash:bits256 = BlockIdExt; */
export interface BlockIdExt {
  shard: ShardIdent;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export function loadBlockIdExt(slice: Slice): BlockIdExt {
  return {
    shard: loadShardIdent(slice),
    seqno: slice.loadUint(32),
    rootHash: slice.loadBuffer(32),
    fileHash: slice.loadBuffer(32),
  };
}

export function storeBlockIdExt(id: BlockIdExt): (builder: Builder) => void {
  return (builder) => {
    builder.store(storeShardIdent(id.shard));
    builder.storeUint(id.seqno, 32);
    builder.storeBuffer(id.rootHash, 32);
    builder.storeBuffer(id.fileHash, 32);
  };
}

/**
 * prev_blk_info$_ prev:ExtBlkRef = BlkPrevInfo 0;
 * prev_blks_info$_ prev1:^ExtBlkRef prev2:^ExtBlkRef = BlkPrevInfo 1;
 */
export type BlkPrevInfo = { kind: 'single'; prev: ExtBlkRef } | { kind: 'merged'; prev1: ExtBlkRef; prev2: ExtBlkRef };

export function loadBlkPrevInfo(slice: Slice, afterMerge: boolean): BlkPrevInfo {
  if (!afterMerge) return { kind: 'single', prev: loadExtBlkRef(slice) };
  return {
    kind: 'merged',
    prev1: loadExtBlkRef(slice.loadRef().beginParse()),
    prev2: loadExtBlkRef(slice.loadRef().beginParse()),
  };
}

export function storeBlkPrevInfo(info: BlkPrevInfo): (builder: Builder) => void {
  return (builder) => {
    if (info.kind === 'single') {
      builder.store(storeExtBlkRef(info.prev));
    } else {
      builder.storeRef(beginCell().store(storeExtBlkRef(info.prev1)));
      builder.storeRef(beginCell().store(storeExtBlkRef(info.prev2)));
    }
  };
}

/** capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion; */
export interface GlobalVersion {
  version: number;
  capabilities: bigint;
}

export function loadGlobalVersion(slice: Slice): GlobalVersion {
  const tag = slice.loadUint(8);
  if (tag !== 0xc4) throw new Error(`GlobalVersion: bad tag 0x${tag.toString(16)}`);
  return { version: slice.loadUint(32), capabilities: slice.loadUintBig(64) };
}

export function storeGlobalVersion(v: GlobalVersion): (builder: Builder) => void {
  return (builder) => {
    builder.storeUint(0xc4, 8);
    builder.storeUint(v.version, 32);
    builder.storeUint(v.capabilities, 64);
  };
}

/**
 * block_info#9bc7a987 version:uint32 not_master:(## 1) after_merge:(## 1)
 *   before_split:(## 1) after_split:(## 1) want_split:Bool want_merge:Bool
 *   key_block:Bool vert_seqno_incr:(## 1) flags:(## 8) seq_no:# vert_seq_no:#
 *   shard:ShardIdent gen_utime:uint32 start_lt:uint64 end_lt:uint64
 *   gen_validator_list_hash_short:uint32 gen_catchain_seqno:uint32
 *   min_ref_mc_seqno:uint32 prev_key_block_seqno:uint32
 *   gen_software:flags . 0?GlobalVersion master_ref:not_master?^BlkMasterInfo
 *   prev_ref:^(BlkPrevInfo after_merge) prev_vert_ref:vert_seqno_incr?^(BlkPrevInfo 0)
 *   = BlockInfo;
 *
 * The presence bits are derived from the optional fields on store
 * (not_master from masterRef, after_merge from prevRef, vert_seqno_incr from
 * prevVertRef, flags bit 0 from genSoftware) so they cannot disagree.
 */
export interface BlockInfo {
  version: number;
  notMaster: boolean;
  afterMerge: boolean;
  beforeSplit: boolean;
  afterSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  keyBlock: boolean;
  vertSeqnoIncr: boolean;
  flags: number;
  seqno: number;
  vertSeqno: number;
  shard: ShardIdent;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  genValidatorListHashShort: number;
  genCatchainSeqno: number;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  genSoftware?: GlobalVersion;
  /** master_ref: BlkMasterInfo (master_info$_ master:ExtBlkRef), present in shardchain blocks. */
  masterRef?: ExtBlkRef;
  prevRef: BlkPrevInfo;
  prevVertRef?: BlkPrevInfo;
}

export function loadBlockInfo(slice: Slice): BlockInfo {
  const tag = slice.loadUint(32);
  if (tag !== 0x9bc7a987) throw new Error(`BlockInfo: bad tag 0x${tag.toString(16)}`);
  const version = slice.loadUint(32);
  const notMaster = slice.loadBit();
  const afterMerge = slice.loadBit();
  const beforeSplit = slice.loadBit();
  const afterSplit = slice.loadBit();
  const wantSplit = slice.loadBit();
  const wantMerge = slice.loadBit();
  const keyBlock = slice.loadBit();
  const vertSeqnoIncr = slice.loadBit();
  const flags = slice.loadUint(8);
  if (flags > 1) throw new Error(`BlockInfo: flags ${flags} > 1`);
  const seqno = slice.loadUint(32);
  const vertSeqno = slice.loadUint(32);
  const shard = loadShardIdent(slice);
  const genUtime = slice.loadUint(32);
  const startLt = slice.loadUintBig(64);
  const endLt = slice.loadUintBig(64);
  const genValidatorListHashShort = slice.loadUint(32);
  const genCatchainSeqno = slice.loadUint(32);
  const minRefMcSeqno = slice.loadUint(32);
  const prevKeyBlockSeqno = slice.loadUint(32);
  const genSoftware = flags & 1 ? loadGlobalVersion(slice) : undefined;
  const masterRef = notMaster ? loadExtBlkRef(slice.loadRef().beginParse()) : undefined;
  const prevRef = loadBlkPrevInfo(slice.loadRef().beginParse(), afterMerge);
  const prevVertRef = vertSeqnoIncr ? loadBlkPrevInfo(slice.loadRef().beginParse(), false) : undefined;
  return {
    version,
    notMaster,
    afterMerge,
    beforeSplit,
    afterSplit,
    wantSplit,
    wantMerge,
    keyBlock,
    vertSeqnoIncr,
    flags,
    seqno,
    vertSeqno,
    shard,
    genUtime,
    startLt,
    endLt,
    genValidatorListHashShort,
    genCatchainSeqno,
    minRefMcSeqno,
    prevKeyBlockSeqno,
    genSoftware,
    masterRef,
    prevRef,
    prevVertRef,
  };
}

export function storeBlockInfo(info: BlockInfo): (builder: Builder) => void {
  return (builder) => {
    if (info.notMaster !== (info.masterRef !== undefined)) throw new Error('BlockInfo: notMaster disagrees with masterRef');
    if (info.afterMerge !== (info.prevRef.kind === 'merged')) throw new Error('BlockInfo: afterMerge disagrees with prevRef');
    if (info.vertSeqnoIncr !== (info.prevVertRef !== undefined)) {
      throw new Error('BlockInfo: vertSeqnoIncr disagrees with prevVertRef');
    }
    if (((info.flags & 1) === 1) !== (info.genSoftware !== undefined)) {
      throw new Error('BlockInfo: flags bit 0 disagrees with genSoftware');
    }
    if (info.prevVertRef && info.prevVertRef.kind !== 'single') throw new Error('BlockInfo: prevVertRef must be BlkPrevInfo 0');
    builder.storeUint(0x9bc7a987, 32);
    builder.storeUint(info.version, 32);
    builder.storeBit(info.notMaster);
    builder.storeBit(info.afterMerge);
    builder.storeBit(info.beforeSplit);
    builder.storeBit(info.afterSplit);
    builder.storeBit(info.wantSplit);
    builder.storeBit(info.wantMerge);
    builder.storeBit(info.keyBlock);
    builder.storeBit(info.vertSeqnoIncr);
    builder.storeUint(info.flags, 8);
    builder.storeUint(info.seqno, 32);
    builder.storeUint(info.vertSeqno, 32);
    builder.store(storeShardIdent(info.shard));
    builder.storeUint(info.genUtime, 32);
    builder.storeUint(info.startLt, 64);
    builder.storeUint(info.endLt, 64);
    builder.storeUint(info.genValidatorListHashShort, 32);
    builder.storeUint(info.genCatchainSeqno, 32);
    builder.storeUint(info.minRefMcSeqno, 32);
    builder.storeUint(info.prevKeyBlockSeqno, 32);
    if (info.genSoftware) builder.store(storeGlobalVersion(info.genSoftware));
    if (info.masterRef) builder.storeRef(beginCell().store(storeExtBlkRef(info.masterRef)));
    builder.storeRef(beginCell().store(storeBlkPrevInfo(info.prevRef)));
    if (info.prevVertRef) builder.storeRef(beginCell().store(storeBlkPrevInfo(info.prevVertRef)));
  };
}

/** Shard id as used in block ids: the prefix bits followed by a tag bit (0x8000000000000000 = whole workchain). */
export function shardIdOf(shard: ShardIdent): bigint {
  const tag = 1n << BigInt(63 - shard.shardPrefixBits);
  return (shard.shardPrefix & ~(tag * 2n - 1n)) | tag;
}
