// One message run on one account in the TVM pool (the executor the chain runs): what estimateFee
// (lib/chain/fees.ts) and the pending-trace emulator (lib/pending/emulate.ts) share. The caller
// resolves the account and the libraries; this builds the job and reads the outcome.
import { randomBytes } from 'node:crypto';
import { Cell, loadTransaction, type Transaction } from '@ton/core';
import type { TvmPool } from './pool';

export interface MessageRun {
  /** The configuration dictionary as a base64 BoC (lib/chain/tvm.ts configAt). */
  config: string;
  libs?: Cell;
  /** ShardAccount: ^Account, last_trans_hash, last_trans_lt. */
  shardAccount: Cell;
  message: Cell;
  now: number;
  lt: bigint;
  ignoreChksig: boolean;
}

export type MessageOutcome =
  | { tx: Transaction; cell: Cell; /** The ShardAccount after the transaction. */ shardAccount: Cell }
  /** The executor did not accept the message (an external the account refused: no transaction). */
  | { error: string };

/** Runs `message`; TvmRefused (deadline, full queue, crash) propagates. */
export async function runMessage(tvm: TvmPool, run: MessageRun): Promise<MessageOutcome> {
  const res = await tvm.transaction({
    config: run.config,
    libs: run.libs?.toBoc().toString('base64'),
    verbosity: 'short',
    shardAccount: run.shardAccount.toBoc().toString('base64'),
    message: run.message.toBoc().toString('base64'),
    now: run.now,
    lt: run.lt,
    randomSeed: randomBytes(32),
    ignoreChksig: run.ignoreChksig,
  });
  if (!res.result.success) {
    const exit = res.result.vmResults ? ` (exit code ${res.result.vmResults.vmExitCode})` : '';
    return { error: `${res.result.error}${exit}` };
  }
  const cell = Cell.fromBase64(res.result.transaction);
  return { tx: loadTransaction(cell.beginParse()), cell, shardAccount: Cell.fromBase64(res.result.shardAccount) };
}
