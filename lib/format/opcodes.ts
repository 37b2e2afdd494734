// Well-known message opcodes (first 32 bits of a body), for naming operations the API leaves undecoded.
const OPCODES: Record<string, string> = {
  '0x00000000': 'text comment',
  '0x2167da4b': 'encrypted comment',
  '0xffffffff': 'bounced message',
  '0x0f8a7ea5': 'jetton transfer',
  '0x178d4519': 'jetton internal transfer',
  '0x7362d09c': 'jetton transfer notification',
  '0xd53276db': 'excesses',
  '0x595f07bc': 'jetton burn',
  '0x7bdd97de': 'jetton burn notification',
  '0x642b7d07': 'jetton mint',
  '0x2c76b973': 'provide wallet address',
  '0xd1735400': 'take wallet address',
  '0x5fcc3d14': 'NFT transfer',
  '0x05138d91': 'NFT ownership assigned',
  '0x2fcb26a2': 'get static data',
  '0x8b771735': 'report static data',
  '0x4eb1f0f9': 'DNS change record',
  '0x6578746e': 'wallet v5 extension action',
  '0x73696e74': 'wallet v5 signed internal',
  '0x7369676e': 'wallet v5 signed external',
};

export const opcodeName = (opcode: string | null | undefined): string | undefined => (opcode ? OPCODES[opcode.toLowerCase()] : undefined);
