// Every @ton/core speed-up of lib/ton at once, for the processes that parse many cells (the indexer, its
// parse worker, the devnet, the APIs). Each is the same function with the same results, tested against
// @ton/core's own (lib/ton/fast-*.test.ts). They replace @ton/core internals, so @ton/core is pinned to
// an exact version in package.json, and they are never installed as a side effect of importing a module
// or constructing an object: each process entry point calls installFastTonCore() once at start and logs
// what it returns, so a process says which fast paths it runs with. The entry points: scripts/start.ts,
// scripts/devnet.ts, scripts/indexer.ts, scripts/index-verify.ts, scripts/classify.ts,
// scripts/reclassify.ts, lib/boot.ts (Next's instrumentation), lib/indexer/parse-worker.ts and
// lib/tvm/worker.ts (worker threads), bench/run.ts, bench/stream-server.ts, lib/testing/api-process.ts and the vitest setup
// (lib/testing/vitest-setup.ts).
import { installFastBitBuilder } from './fast-bit-builder';
import { installFastBitReader } from './fast-bit-reader';
import { installFastBocWriter } from './fast-boc-writer';
import { installFastCellHash } from './fast-hash';
import { installFastPaddedBits } from './fast-padded-bits';

/** Which fast paths are active (false: @ton/core's own code stays, e.g. after an @ton/core upgrade moved it). */
export interface FastTonCore {
  /** A cell's bits padded to bytes: a byte copy, not a bit at a time. */
  paddedBits: boolean;
  /** Cell hashes: native SHA-256, one buffer per ordinary cell. */
  cellHash: boolean;
  /** Integers read a byte, not a BigInt per bit, at a time. */
  bitReader: boolean;
  /** Bit strings copied into builders (Slice.asCell) by bytes. */
  bitBuilder: boolean;
  /** Cell.toBoc's bytes written into one buffer, and CRC32-C from a table, not a bit at a time. */
  bocWriter: boolean;
}

/** Installs them all (idempotent) and says which are active. */
export function installFastTonCore(): FastTonCore {
  return { paddedBits: installFastPaddedBits(), cellHash: installFastCellHash(), bitReader: installFastBitReader(), bitBuilder: installFastBitBuilder(), bocWriter: installFastBocWriter() };
}
