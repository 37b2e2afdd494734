// Names for opcodes the API's decoder has no schema for (decoded_opcode is null): a bounce and the
// wallet v5 message kinds. Every other name comes from decoded_opcode (lib/actions/bodies.ts).
const OPCODES: Record<string, string> = {
  '0xffffffff': 'bounced message',
  '0x6578746e': 'wallet v5 extension action',
  '0x73696e74': 'wallet v5 signed internal',
  '0x7369676e': 'wallet v5 signed external',
};

export const opcodeName = (opcode: string | null | undefined): string | undefined => (opcode ? OPCODES[opcode.toLowerCase()] : undefined);
