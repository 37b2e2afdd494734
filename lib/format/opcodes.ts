// Names for opcodes the API's decoder has no schema for (decoded_opcode is null): a bounce and the
// wallet v5 message kinds. Every other name comes from decoded_opcode (lib/actions/bodies.ts).
import { opcodeHex } from '../ton/opcode-hex';
import { WALLET_V5_OP } from '../ton/wallet-v5-ops';

const OPCODES: Record<string, string> = {
  [opcodeHex(0xffffffff)]: 'bounced message',
  [opcodeHex(WALLET_V5_OP.extensionAction)]: 'wallet v5 extension action',
  [opcodeHex(WALLET_V5_OP.signedInternal)]: 'wallet v5 signed internal',
  [opcodeHex(WALLET_V5_OP.signedExternal)]: 'wallet v5 signed external',
};

export const opcodeName = (opcode: string | null | undefined): string | undefined => (opcode ? OPCODES[opcode.toLowerCase()] : undefined);
