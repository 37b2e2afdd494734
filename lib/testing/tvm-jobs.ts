// Get-method jobs as a TVM worker receives them (lib/tvm/jobs.ts), and the same run through @ton/sandbox's
// Executor.runGetMethod: the reference the worker's own path (run-get-method.ts, getter-config.ts) is
// compared with, and what the getters bench runs.
import { Address, Cell, parseTuple, serializeTuple, type TupleItem } from '@ton/core';
import type { Executor, ExecutorGetMethodResult, ExecutorVerbosity } from '@ton/sandbox';
import { methodId } from '../ton/contract-methods';
import type { GetMethodJob } from '../tvm/jobs';

export interface JobInput {
  code: Cell;
  data: Cell;
  /** A name (its method id is computed) or a method id. */
  method: string | number;
  config: string;
  stack?: TupleItem[];
  verbosity?: ExecutorVerbosity;
}

export function getMethodJob({ code, data, method, config, stack = [], verbosity = 'short' }: JobInput): GetMethodJob {
  return {
    kind: 'get',
    code: code.toBoc().toString('base64'),
    data: data.toBoc().toString('base64'),
    methodId: typeof method === 'number' ? method : methodId(method),
    stack: stack.length ? serializeTuple(stack).toBoc().toString('base64') : '',
    config,
    address: '0:' + '22'.repeat(32),
    unixTime: 1_700_000_000,
    balance: 10n ** 9n,
    gasLimit: 1_000_000n,
    verbosity,
  };
}

/** The emulator's log lines carry the time they were written. */
export const withoutTimes = <T extends { logs: string }>(r: T): T => ({ ...r, logs: r.logs.replace(/\[\d{4}-\d\d-\d\d [\d:.]+\]/g, '[time]') });

/** `job` run by Executor.runGetMethod (its cells parsed from the job's BoCs), log times masked. */
export async function viaExecutor(ex: Executor, job: GetMethodJob): Promise<ExecutorGetMethodResult> {
  const result = await ex.runGetMethod({
    code: Cell.fromBase64(job.code),
    data: Cell.fromBase64(job.data),
    methodId: job.methodId,
    stack: job.stack ? parseTuple(Cell.fromBase64(job.stack)) : [],
    config: job.config,
    verbosity: job.verbosity,
    address: Address.parseRaw(job.address),
    unixTime: job.unixTime,
    balance: job.balance,
    randomSeed: Buffer.alloc(32),
    gasLimit: job.gasLimit,
    debugEnabled: false,
  });
  return withoutTimes(result);
}
