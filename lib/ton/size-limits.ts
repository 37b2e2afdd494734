// ConfigParam 43, the chain's size limits (block.tlb):
//   size_limits_config#01 max_msg_bits:uint32 max_msg_cells:uint32 max_library_cells:uint32
//     max_vm_data_depth:uint16 max_ext_msg_size:uint32 max_ext_msg_depth:uint16 = SizeLimitsConfig;
//   size_limits_config_v2#02 (the same six) max_acc_state_cells:uint32 … = SizeLimitsConfig;
// Only the fields this project checks are read; without the parameter the node's defaults apply.
import type { Cell } from '@ton/core';
import { loadConfigDict } from './config';

export interface SizeLimits {
  /** Bits of a message, its root cell's not counted. */
  maxMsgBits: number;
  /** Distinct cells of a message, its root not counted. */
  maxMsgCells: number;
  maxVmDataDepth: number;
  /** Bytes of an external message's bag of cells. */
  maxExtMsgSize: number;
  /** An external message's root must be less deep than this. */
  maxExtMsgDepth: number;
}

/** The node's defaults (block::SizeLimitsConfig), in force when ConfigParam 43 is absent. */
export const DEFAULT_SIZE_LIMITS: SizeLimits = { maxMsgBits: 1 << 21, maxMsgCells: 1 << 13, maxVmDataDepth: 512, maxExtMsgSize: 65535, maxExtMsgDepth: 512 };

/** The size limits of the configuration dictionary `configRoot` (a Hashmap 32 ^Cell). */
export function readSizeLimits(configRoot: Cell): SizeLimits {
  const param = loadConfigDict(configRoot).get(43);
  if (!param) return DEFAULT_SIZE_LIMITS;
  const s = param.beginParse();
  const tag = s.loadUint(8);
  if (tag !== 0x01 && tag !== 0x02) throw new Error(`ConfigParam 43: unknown size_limits_config tag ${tag}`);
  const maxMsgBits = s.loadUint(32);
  const maxMsgCells = s.loadUint(32);
  s.loadUint(32); // max_library_cells
  const maxVmDataDepth = s.loadUint(16);
  const maxExtMsgSize = s.loadUint(32);
  const maxExtMsgDepth = s.loadUint(16);
  return { maxMsgBits, maxMsgCells, maxVmDataDepth, maxExtMsgSize, maxExtMsgDepth };
}
