// How every answer writes a message opcode: `0x` and 8 lower-case hex digits (toncenter's form), for the
// v3 messages, the actions' call_contract/contract_deploy details and the multisig order decoder alike.

/** A 32-bit opcode, signed (as stored) or unsigned → `0x0f8a7ea5` (a negative one prints as its unsigned form). */
export const opcodeHex = (op: number): string => `0x${(op >>> 0).toString(16).padStart(8, '0')}`;
