// Every @ton/core speed-up of lib/ton at once, for the processes that parse many cells (the indexer
// and its parse worker). Each is the same function with the same results, tested against @ton/core's.
import { installFastBitBuilder } from './fast-bit-builder';
import { installFastBitReader } from './fast-bit-reader';
import { installFastCellHash } from './fast-hash';
import { installFastPaddedBits } from './fast-padded-bits';

export function installFastTonCore(): void {
  installFastPaddedBits(); // a cell's bits padded to bytes: a byte copy, not a bit at a time
  installFastCellHash(); // cell hashes: native SHA-256, one buffer per ordinary cell
  installFastBitReader(); // integers read a byte, not a BigInt per bit, at a time
  installFastBitBuilder(); // bit strings copied into builders (Slice.asCell) by bytes
}
