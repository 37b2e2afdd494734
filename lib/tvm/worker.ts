// A TVM worker (started by pool.ts): one @ton/sandbox emulator (WebAssembly) that runs one job at a
// time. It lives in its own thread with its own heap cap so that an input that traps, aborts or
// exhausts the emulator takes down only this worker, which the pool then replaces.
import { parentPort } from 'node:worker_threads';
import { Cell } from '@ton/core';
import { Executor } from '@ton/sandbox';
import type { TvmJob, TvmReply, TvmRequest, TvmWorkerReady } from './jobs';
import { runGetMethodRaw } from './run-get-method';

const cell = (b64: string) => Cell.fromBase64(b64);

async function run(ex: Executor, job: TvmJob): Promise<Omit<TvmReply, 'id'>> {
  if (job.kind === 'get') return { get: runGetMethodRaw(ex, job) };
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
void Executor.create().then(
  (ex) => {
    let config = ''; // the last configuration the pool sent (pool.ts dispatch)
    port.on('message', (msg: TvmRequest) => {
      if (msg.sameConfig) msg.job.config = config;
      else config = msg.job.config;
      run(ex, msg.job).then(
        (reply) => port.postMessage({ id: msg.id, ...reply } as TvmReply),
        (err: unknown) => port.postMessage({ id: msg.id, crashed: err instanceof Error ? err.message : String(err) } satisfies TvmReply),
      );
    });
    port.postMessage({ ready: true } satisfies TvmWorkerReady);
  },
  (err: unknown) => {
    throw err; // the pool sees the worker's error event and records why it failed
  },
);
