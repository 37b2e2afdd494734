// A TVM worker (started by pool.ts): one @ton/sandbox emulator (WebAssembly, emulator.ts) that runs one
// job at a time. It lives in its own thread with its own heap cap so that an input that traps, aborts or
// exhausts the emulator takes down only this worker, which the pool then replaces. A get-method's
// result is measured here (result-limits.ts) before it leaves the worker.
import { parentPort } from 'node:worker_threads';
import { Cell } from '@ton/core';
import type { Executor } from '@ton/sandbox';
import { createEmulator } from './emulator';
import type { TvmJob, TvmReply, TvmRequest, TvmWorkerReady } from './jobs';
import { resultRefusal } from './result-limits';
import { runGetMethodRaw } from './run-get-method';
import { installFastTonCore } from '../ton/fast-core';

// The worker's cells (states, stacks, results) hash, parse and serialize through its own copy of
// @ton/core: sped up as in every other thread that handles many cells, as this worker starts.
const fastTonCore = installFastTonCore();

const cell = (b64: string) => Cell.fromBase64(b64);

async function run(ex: Executor, job: TvmJob): Promise<Omit<TvmReply, 'id'>> {
  if (job.kind === 'get') {
    const get = runGetMethodRaw(ex, job);
    const refused = get.output.success ? resultRefusal(get.output.stack) : undefined;
    return refused ? { refused } : { get };
  }
  const tx = await ex.runTransaction({
    config: job.config,
    libs: job.libs ? cell(job.libs) : null,
    verbosity: job.verbosity,
    shardAccount: job.shardAccount,
    message: cell(job.message),
    now: job.now,
    lt: job.lt,
    randomSeed: Buffer.from(job.randomSeed),
    ignoreChksig: job.ignoreChksig,
    debugEnabled: false,
  });
  return { tx };
}

const port = parentPort!;
void createEmulator().then(
  ({ executor: ex }) => {
    let config = ''; // the last configuration the pool sent (pool.ts dispatch)
    port.on('message', (msg: TvmRequest) => {
      if (msg.sameConfig) msg.job.config = config;
      else config = msg.job.config;
      run(ex, msg.job).then(
        (reply) => port.postMessage({ id: msg.id, ...reply } as TvmReply),
        (err: unknown) => port.postMessage({ id: msg.id, crashed: err instanceof Error ? err.message : String(err) } satisfies TvmReply),
      );
    });
    port.postMessage({ ready: true, fastTonCore } satisfies TvmWorkerReady);
  },
  (err: unknown) => {
    throw err; // the pool sees the worker's error event and records why it failed
  },
);
