// Get-method ids of a contract: the id a method name has (crc16 | 0x10000, as FunC and Tolk compute
// it) and the ids a code declares. FunC/Tolk code starts with SETCP0 and DICTPUSHCONST <n> over the
// method dictionary, whose keys are the ids. Interface detection (the v3 address book and the indexer's
// derive stage) reads contracts with these.
import { Dictionary, type Cell, type DictionaryValue } from '@ton/core';

/** CRC-16/XMODEM, the checksum behind TVM method ids. */
function crc16(data: Buffer): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The id a get-method `name` has in the code (FunC's method_id without argument). */
export const methodId = (name: string): number => (crc16(Buffer.from(name, 'utf8')) & 0xffff) | 0x10000;

const ignoreValue: DictionaryValue<null> = {
  serialize: () => {
    throw new Error('read only');
  },
  parse: () => null,
};

/**
 * Method ids of a contract's code, deduplicated, in dictionary order (ids as unsigned keys, so
 * recv_external's -1 reads 524287 as toncenter stores it); null when the code has no method dictionary.
 */
export function contractMethods(code: Cell): number[] | null {
  try {
    const s = code.beginParse();
    if (s.remainingBits < 40 || s.remainingRefs < 1) return null;
    if (s.loadUint(8) !== 0xff || s.loadUint(8) !== 0) return null; // SETCP0
    if (s.loadUint(13) !== 0b1111010010100 || s.loadUint(1) !== 1) return null; // DICTPUSHCONST
    const keyLen = s.loadUint(10);
    if (keyLen < 1 || keyLen > 32) return null;
    const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(keyLen), ignoreValue, s.loadRef());
    return [...new Set(dict.keys())];
  } catch {
    return null;
  }
}

