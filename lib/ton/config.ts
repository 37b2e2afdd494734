/**
 * _ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams;
 *
 * Parameters stay cells keyed by their (int32) number; the dictionary is a
 * plain Hashmap, so @ton/core's Dictionary reads and writes it exactly.
 * Note the reference is to a non-empty Hashmap, not a HashmapE: there is no
 * presence bit (the bit @ton/core's loadMasterchainStateExtra wrongly reads).
 */
import { Builder, Cell, Dictionary, Slice, beginCell } from '@ton/core';

export type ConfigDict = Dictionary<number, Cell>;

export interface ConfigParams {
  configAddress: bigint;
  config: ConfigDict;
}

export function emptyConfigDict(): ConfigDict {
  return Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
}

/** Reads a Hashmap 32 ^Cell root cell (e.g. config_mainnet.boc, the `config` ref, sandbox `bc.config`). */
export function loadConfigDict(root: Cell): ConfigDict {
  return Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), root);
}

export function configDictCell(config: ConfigDict): Cell {
  if (config.size === 0) throw new Error('ConfigParams: the config dictionary cannot be empty');
  return beginCell().storeDictDirect(config, Dictionary.Keys.Int(32), Dictionary.Values.Cell()).endCell();
}

export function loadConfigParams(slice: Slice): ConfigParams {
  const configAddress = slice.loadUintBig(256);
  return { configAddress, config: loadConfigDict(slice.loadRef()) };
}

export function storeConfigParams(params: ConfigParams): (builder: Builder) => void {
  return (builder) => {
    builder.storeUint(params.configAddress, 256);
    builder.storeRef(configDictCell(params.config));
  };
}

// ---------------------------------------------------------------------------
// ConfigParam 12: workchains
// ---------------------------------------------------------------------------

/** wc_split_merge_timings#0 split_merge_delay:uint32 split_merge_interval:uint32 min_split_merge_interval:uint32 max_split_merge_delay:uint32 */
export interface SplitMergeTimings {
  splitMergeDelay: number;
  splitMergeInterval: number;
  minSplitMergeInterval: number;
  maxSplitMergeDelay: number;
}

/**
 * workchain#a6 enabled_since:uint32 monitor_min_split:(## 8) min_split:(## 8) max_split:(## 8)
 *   basic:(## 1) active:Bool accept_msgs:Bool flags:(## 13) zerostate_root_hash:bits256
 *   zerostate_file_hash:bits256 version:uint32 format:(WorkchainFormat basic) = WorkchainDescr;
 * workchain_v2#a7 (the same) split_merge_timings:WcSplitMergeTimings persistent_state_split_depth:(## 8)
 * The format (wfmt_basic#1 vm_version:int32 vm_mode:uint64, or wfmt_ext#0) is kept as its bits.
 */
export interface WorkchainDescr {
  enabledSince: number;
  monitorMinSplit: number;
  minSplit: number;
  maxSplit: number;
  basic: boolean;
  active: boolean;
  acceptMsgs: boolean;
  zerostateRootHash: Buffer;
  zerostateFileHash: Buffer;
  version: number;
  /** WorkchainFormat as written (its size depends on `basic`). */
  format: Cell;
  /** workchain_v2 only. */
  v2?: { timings: SplitMergeTimings; persistentStateSplitDepth: number };
}

export function loadWorkchainDescr(cell: Cell): WorkchainDescr {
  const s = cell.beginParse();
  const tag = s.loadUint(8);
  if (tag !== 0xa6 && tag !== 0xa7) throw new Error(`WorkchainDescr: bad tag 0x${tag.toString(16)}`);
  const head = {
    enabledSince: s.loadUint(32),
    monitorMinSplit: s.loadUint(8),
    minSplit: s.loadUint(8),
    maxSplit: s.loadUint(8),
    basic: s.loadBit(),
    active: s.loadBit(),
    acceptMsgs: s.loadBit(),
  };
  s.skip(13);
  const rest = {
    zerostateRootHash: s.loadBuffer(32),
    zerostateFileHash: s.loadBuffer(32),
    version: s.loadUint(32),
  };
  // wfmt_basic#1 vm_version:int32 vm_mode:uint64 (100 bits); wfmt_ext#0 four fields (72 bits)
  const formatBits = head.basic ? 100 : 4 + 12 + 12 + 12 + 32;
  const format = beginCell().storeBits(s.loadBits(formatBits)).endCell();
  if (tag === 0xa6) return { ...head, ...rest, format };
  if (s.loadUint(4) !== 0) throw new Error('WcSplitMergeTimings: bad tag');
  const timings = { splitMergeDelay: s.loadUint(32), splitMergeInterval: s.loadUint(32), minSplitMergeInterval: s.loadUint(32), maxSplitMergeDelay: s.loadUint(32) };
  return { ...head, ...rest, format, v2: { timings, persistentStateSplitDepth: s.loadUint(8) } };
}

export function workchainDescrCell(d: WorkchainDescr): Cell {
  const b = beginCell()
    .storeUint(d.v2 ? 0xa7 : 0xa6, 8)
    .storeUint(d.enabledSince, 32)
    .storeUint(d.monitorMinSplit, 8)
    .storeUint(d.minSplit, 8)
    .storeUint(d.maxSplit, 8)
    .storeBit(d.basic)
    .storeBit(d.active)
    .storeBit(d.acceptMsgs)
    .storeUint(0, 13)
    .storeBuffer(d.zerostateRootHash, 32)
    .storeBuffer(d.zerostateFileHash, 32)
    .storeUint(d.version, 32)
    .storeBits(d.format.bits);
  if (d.v2) {
    const t = d.v2.timings;
    b.storeUint(0, 4).storeUint(t.splitMergeDelay, 32).storeUint(t.splitMergeInterval, 32).storeUint(t.minSplitMergeInterval, 32).storeUint(t.maxSplitMergeDelay, 32);
    b.storeUint(d.v2.persistentStateSplitDepth, 8);
  }
  return b.endCell();
}

const workchainValue = {
  serialize: (src: Cell, builder: Builder) => {
    builder.storeSlice(src.beginParse());
  },
  parse: (src: Slice) => src.asCell(),
};

/** _ workchains:(HashmapE 32 WorkchainDescr) = ConfigParam 12; (each descr as its own cell) */
export function loadWorkchains(param12: Cell): Map<number, WorkchainDescr> {
  const dict = param12.beginParse().loadDict(Dictionary.Keys.Int(32), workchainValue);
  return new Map([...dict].map(([wc, cell]) => [wc, loadWorkchainDescr(cell)]));
}

export function workchainsCell(workchains: Map<number, WorkchainDescr>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Int(32), workchainValue);
  for (const [wc, d] of workchains) dict.set(wc, workchainDescrCell(d));
  return beginCell().storeDict(dict).endCell();
}
