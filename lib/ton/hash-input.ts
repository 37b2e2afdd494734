// 32-byte hashes as users type them. One lenient rule for every API: 64 hex digits (optionally 0x),
// 44-character base64 (standard alphabet first, then url-safe), or 43-character unpadded url-safe base64.

const HEX = /^(?:0x)?([0-9a-fA-F]{64})$/;
const B64_STD = /^[A-Za-z0-9+/]{43}=$/;
const B64_URL = /^[A-Za-z0-9_-]{43}=?$/;

export function parseHash(text: string): Buffer | null {
  const hex = HEX.exec(text);
  if (hex) return Buffer.from(hex[1]!, 'hex');
  if (text.length === 44 && B64_STD.test(text)) return Buffer.from(text, 'base64');
  if (B64_URL.test(text)) return Buffer.from(text.replace(/=$/, ''), 'base64url');
  return null;
}

export const hashToBase64 = (h: Buffer) => h.toString('base64');
export const hashToBase64Url = (h: Buffer) => h.toString('base64url');
export const hashToHex = (h: Buffer) => h.toString('hex');
