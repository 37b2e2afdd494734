/**
 * block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow
 *   state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra = Block;
 * block_extra#4a33f6fd in_msg_descr:^InMsgDescr out_msg_descr:^OutMsgDescr
 *   account_blocks:^ShardAccountBlocks rand_seed:bits256 created_by:bits256
 *   custom:(Maybe ^McBlockExtra) = BlockExtra;
 */
import { Builder, Cell, CurrencyCollection, Slice, beginCell } from '@ton/core';
import { AccountBlock, loadShardAccountBlocks, storeShardAccountBlocks } from './account-blocks';
import { BlockInfo, loadBlockInfo, storeBlockInfo } from './block-info';
import { AugDict } from './hashmap-aug';
import { McBlockExtra, loadMcBlockExtra, storeMcBlockExtra } from './mc-block-extra';
import {
  InMsgDescr,
  MsgValueOptions,
  OutMsgDescr,
  loadInMsgDescr,
  loadOutMsgDescr,
  storeInMsgDescr,
  storeOutMsgDescr,
} from './msg-descr';
import { ValueFlow, loadValueFlow, storeValueFlow } from './value-flow';

export interface BlockExtra {
  inMsgDescr: InMsgDescr;
  outMsgDescr: OutMsgDescr;
  accountBlocks: AugDict<AccountBlock, CurrencyCollection>;
  randSeed: Buffer;
  createdBy: Buffer;
  custom?: McBlockExtra;
}

const BLOCK_EXTRA_TAG = 0x4a33f6fd;

export function loadBlockExtra(slice: Slice): BlockExtra {
  const tag = slice.loadUint(32);
  if (tag !== BLOCK_EXTRA_TAG) throw new Error(`BlockExtra: bad tag 0x${tag.toString(16)}`);
  const inMsgDescr = loadInMsgDescr(slice.loadRef().beginParse());
  const outMsgDescr = loadOutMsgDescr(slice.loadRef().beginParse());
  const accountBlocks = loadShardAccountBlocks(slice.loadRef().beginParse());
  const randSeed = slice.loadBuffer(32);
  const createdBy = slice.loadBuffer(32);
  const custom = slice.loadMaybeRef();
  return {
    inMsgDescr,
    outMsgDescr,
    accountBlocks,
    randSeed,
    createdBy,
    custom: custom ? loadMcBlockExtra(custom.beginParse()) : undefined,
  };
}

/**
 * Rebuilds every dictionary from its entries: entry extras are written as
 * given, fork extras and totals are recomputed.
 */
export function storeBlockExtra(extra: BlockExtra, opts: MsgValueOptions = {}): (builder: Builder) => void {
  return (b) => {
    b.storeUint(BLOCK_EXTRA_TAG, 32);
    b.storeRef(beginCell().store(storeInMsgDescr(extra.inMsgDescr.entries, opts)));
    b.storeRef(beginCell().store(storeOutMsgDescr(extra.outMsgDescr.entries, opts)));
    b.storeRef(beginCell().store(storeShardAccountBlocks(extra.accountBlocks.entries)));
    b.storeBuffer(extra.randSeed, 32);
    b.storeBuffer(extra.createdBy, 32);
    b.storeMaybeRef(extra.custom ? beginCell().store(storeMcBlockExtra(extra.custom)) : null);
  };
}

export interface Block {
  globalId: number;
  info: BlockInfo;
  valueFlow: ValueFlow;
  /** MERKLE_UPDATE ShardState exotic cell, kept as is. */
  stateUpdate: Cell;
  extra: BlockExtra;
}

export function loadBlock(slice: Slice): Block {
  const tag = slice.loadUint(32);
  if (tag !== 0x11ef55aa) throw new Error(`Block: bad tag 0x${tag.toString(16)}`);
  const globalId = slice.loadInt(32);
  const info = loadBlockInfo(slice.loadRef().beginParse());
  const valueFlow = loadValueFlow(slice.loadRef().beginParse());
  const stateUpdate = slice.loadRef();
  const extra = loadBlockExtra(slice.loadRef().beginParse());
  return { globalId, info, valueFlow, stateUpdate, extra };
}

export function storeBlock(block: Block, opts: MsgValueOptions = {}): (builder: Builder) => void {
  return (b) => {
    b.storeUint(0x11ef55aa, 32);
    b.storeInt(block.globalId, 32);
    b.storeRef(beginCell().store(storeBlockInfo(block.info)));
    b.storeRef(beginCell().store(storeValueFlow(block.valueFlow)));
    b.storeRef(block.stateUpdate);
    b.storeRef(beginCell().store(storeBlockExtra(block.extra, opts)));
  };
}

/** Block header only (id, info, value flow), without decoding the extra. */
export function loadBlockHeader(root: Cell): { globalId: number; info: BlockInfo; valueFlow: ValueFlow } {
  const s = root.beginParse();
  const tag = s.loadUint(32);
  if (tag !== 0x11ef55aa) throw new Error(`Block: bad tag 0x${tag.toString(16)}`);
  const globalId = s.loadInt(32);
  const info = loadBlockInfo(s.loadRef().beginParse());
  const valueFlow = loadValueFlow(s.loadRef().beginParse());
  return { globalId, info, valueFlow };
}

/** old_hash / new_hash of a MERKLE_UPDATE cell (the state hashes before and after the block). */
export function merkleUpdateHashes(update: Cell): { oldHash: Buffer; newHash: Buffer; oldDepth: number; newDepth: number } {
  const s = update.beginParse(true);
  if (s.loadUint(8) !== 4) throw new Error('MERKLE_UPDATE: bad type');
  return { oldHash: s.loadBuffer(32), newHash: s.loadBuffer(32), oldDepth: s.loadUint(16), newDepth: s.loadUint(16) };
}
