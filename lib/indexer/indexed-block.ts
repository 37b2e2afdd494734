// The parts of a block the indexer reads, loaded once per downloaded block: header, account blocks (the
// transactions), rand seed, creator and, on the masterchain, the shard hashes. lib/ton's loadBlock also
// decodes the value flow and both message descriptors, which the index never stores — about a fifth of
// the parse time of a busy block — so they stay unread cells here.
import type { Cell } from '@ton/core';
import { loadBlockInfo, loadMcBlockExtra, loadShardAccountBlocks, type BlockInfo, type McBlockExtra, type ShardAccountBlocks } from '../ton';

const BLOCK_TAG = 0x11ef55aa;
const BLOCK_EXTRA_TAG = 0x4a33f6fd;

export interface IndexedBlock {
  /** the block's root cell (its hash is the block's root hash) */
  root: Cell;
  globalId: number;
  info: BlockInfo;
  accountBlocks: ShardAccountBlocks;
  randSeed: Buffer;
  createdBy: Buffer;
  /** McBlockExtra, on masterchain blocks */
  custom: McBlockExtra | undefined;
}

/** block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra */
export function loadIndexedBlock(root: Cell): IndexedBlock {
  const s = root.beginParse();
  const tag = s.loadUint(32);
  if (tag !== BLOCK_TAG) throw new Error(`Block: bad tag 0x${tag.toString(16)}`);
  const globalId = s.loadInt(32);
  const info = loadBlockInfo(s.loadRef().beginParse());
  s.loadRef(); // value_flow
  s.loadRef(); // state_update
  // block_extra in_msg_descr:^InMsgDescr out_msg_descr:^OutMsgDescr account_blocks:^ShardAccountBlocks
  //   rand_seed:bits256 created_by:bits256 custom:(Maybe ^McBlockExtra)
  const extra = s.loadRef().beginParse();
  const extraTag = extra.loadUint(32);
  if (extraTag !== BLOCK_EXTRA_TAG) throw new Error(`BlockExtra: bad tag 0x${extraTag.toString(16)}`);
  extra.loadRef();
  extra.loadRef();
  const accountBlocks = loadShardAccountBlocks(extra.loadRef().beginParse());
  const randSeed = extra.loadBuffer(32);
  const createdBy = extra.loadBuffer(32);
  const custom = extra.loadMaybeRef();
  return { root, globalId, info, accountBlocks, randSeed, createdBy, custom: custom ? loadMcBlockExtra(custom.beginParse()) : undefined };
}
