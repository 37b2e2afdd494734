// What crosses between the TVM pool (pool.ts) and its workers (worker.ts): plain, structured-cloneable
// values only — cells travel as base64 BoCs, addresses as raw strings — since a Cell's prototype does
// not survive postMessage.
import type { ExecutorEmulationResult as EmulationResult, ExecutorGetMethodResult as GetMethodResult, ExecutorVerbosity } from '@ton/sandbox';
import type { FastTonCore } from '../ton/fast-core';

/** A get-method run (run_get_method); `stack` is the serialized input tuple, '' for none. */
export interface GetMethodJob {
  kind: 'get';
  code: string;
  data: string;
  libs?: string;
  methodId: number;
  stack: string;
  config: string;
  address: string;
  unixTime: number;
  balance: bigint;
  gasLimit: bigint;
  extraCurrency?: Record<number, bigint>;
  verbosity: ExecutorVerbosity;
}

/** A transaction emulation (emulate_with_emulator) of `message` on the ShardAccount BoC. */
export interface TransactionJob {
  kind: 'tx';
  config: string;
  libs?: string;
  shardAccount: string;
  message: string;
  now: number;
  lt: bigint;
  randomSeed: Uint8Array;
  ignoreChksig: boolean;
  verbosity: ExecutorVerbosity;
}

export type TvmJob = GetMethodJob | TransactionJob;

/** A job as posted to a worker: `sameConfig` when its config is the one the worker was sent last (then ''). */
export interface TvmRequest {
  id: number;
  job: TvmJob;
  sameConfig: boolean;
}

export type TvmReply =
  | { id: number; get: GetMethodResult }
  | { id: number; tx: EmulationResult }
  /** The run finished but its result is past the limits (result-limits.ts): the words say which. */
  | { id: number; refused: string }
  /** The emulator threw (a WebAssembly trap or abort): the worker is no longer trusted and is replaced. */
  | { id: number; crashed: string };

/** The worker's first message, once its emulator is ready. */
export interface TvmWorkerReady {
  ready: true;
  /** Which @ton/core fast paths the worker runs with (lib/ton/fast-core.ts). */
  fastTonCore: FastTonCore;
}
