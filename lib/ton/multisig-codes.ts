// Multisig v2 opcodes, exit codes (multisig-contract-v2's numbering) and the approvals mask, with no imports but the interface names, so the
// explorer's components can name them without pulling in the cell library; lib/ton/multisig.ts
// re-exports them with the TL-B.
export { MULTISIG_ORDER_V2, MULTISIG_V2 } from './interface-names';

export const MULTISIG_OP = {
  newOrder: 0xf718510f,
  execute: 0x75097f5d,
  executeInternal: 0xa32c59bf,
  init: 0x9c73fba2,
  approve: 0xa762230f,
  approveAccepted: 0x82609bf6,
  approveRejected: 0xafaf283e,
} as const;

export const MULTISIG_ACTION_OP = { sendMessage: 0xf1381e5b, updateParams: 0x1d0cfbd3 } as const;

/** Exit codes (multisig-contract-v2's numbering). */
export const MULTISIG_EXIT = {
  notEnoughTon: 100,
  unauthorizedExecute: 101,
  signersOutdated: 102,
  invalidDictionarySequence: 103,
  unauthorizedInit: 104,
  alreadyInited: 105,
  unauthorizedSign: 106,
  alreadyApproved: 107,
  expired: 111,
  alreadyExecuted: 112,
  unauthorizedNewOrder: 1007,
  invalidNewOrder: 1008,
} as const;

/** The signer indexes whose bit is set in an approvals mask. */
export function approvedIndexes(mask: bigint, signers: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < signers; i++) if ((mask >> BigInt(i)) & 1n) out.push(i);
  return out;
}
