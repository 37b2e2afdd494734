// The TVM pool: every emulator run (get-methods, transaction emulation) happens in a worker thread
// (worker.ts) with a capped heap and a deadline, so an input that traps the emulator, aborts it, loops
// or exhausts memory costs that one request and one worker, never the process nor later requests.
//
//   const tvm = new TvmPool({ log });
//   const out = await tvm.run({ kind: 'get', ... });   // TvmRefused on deadline, full queue, crash
//   tvm.status();                                      // for /api/health
//   await tvm.close();
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ExecutorEmulationResult, ExecutorGetMethodResult } from '@ton/sandbox';
import { LIMITS } from '../http/limits';
import type { Logger } from '../log';
import type { GetMethodJob, TransactionJob, TvmJob, TvmReply, TvmRequest, TvmWorkerReady } from './jobs';

/** Why the pool did not run a job, with the HTTP status the API answers with. */
export class TvmRefused extends Error {
  constructor(
    readonly status: 500 | 503 | 504,
    message: string,
    /** Seconds a client should wait before retrying (503). */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

export interface TvmStatus {
  state: 'ok' | 'degraded';
  workers: number;
  busy: number;
  queued: number;
  /** Workers replaced after a crash, an emulator abort or a deadline. */
  restarts: number;
  lastFailure?: { at: string; reason: string };
}

export interface TvmPoolOptions {
  /** Worker threads, each with its own emulator; default 2. */
  workers?: number;
  /** Wall-clock budget of one run; default LIMITS.tvmRunMs. */
  deadlineMs?: number;
  /** Jobs waiting for a worker at most; default LIMITS.tvmQueue. */
  queue?: number;
  log?: Logger;
}

// A worker's JS heap: the emulator's own memory is WebAssembly memory (capped by its 32-bit address
// space), what grows on the JS side is the results' strings and the cells of a job.
const WORKER_HEAP_MB = 256;
/**
 * Failures in a row, with no run finishing in between, that make the pool report itself degraded. One
 * hostile request that crashes its worker costs that request and a restart (counted in status()), not
 * the health of the process; an emulator that fails everything it is given is broken.
 */
const DEGRADED_AFTER_FAILURES = 3;

interface Waiting {
  job: TvmJob;
  resolve: (reply: TvmReply) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  running?: Waiting & { id: number; timer: NodeJS.Timeout };
  /** The configuration this worker was last sent (see dispatch). */
  config?: string;
}

export class TvmPool {
  private readonly size: number;
  private readonly deadlineMs: number;
  private readonly queueMax: number;
  private readonly slots = new Set<Slot>();
  private readonly waiting: Waiting[] = [];
  private nextId = 0;
  private restarts = 0;
  private lastFailure?: { at: number; reason: string };
  private failuresInRow = 0;
  private closed = false;
  private terminateNext = false;

  constructor(private readonly opts: TvmPoolOptions = {}) {
    this.size = opts.workers ?? 2;
    this.deadlineMs = opts.deadlineMs ?? LIMITS.tvmRunMs;
    this.queueMax = opts.queue ?? LIMITS.tvmQueue;
  }

  /** Runs a get-method in a worker. */
  async getMethod(job: Omit<GetMethodJob, 'kind'>): Promise<ExecutorGetMethodResult> {
    const r = await this.run({ kind: 'get', ...job });
    return (r as { get: ExecutorGetMethodResult }).get;
  }

  /** Emulates a transaction in a worker. */
  async transaction(job: Omit<TransactionJob, 'kind'>): Promise<ExecutorEmulationResult> {
    const r = await this.run({ kind: 'tx', ...job });
    return (r as { tx: ExecutorEmulationResult }).tx;
  }

  status(): TvmStatus {
    const slots = [...this.slots];
    return {
      state: this.failuresInRow >= DEGRADED_AFTER_FAILURES ? 'degraded' : 'ok',
      workers: slots.length,
      busy: slots.filter((s) => s.running).length,
      queued: this.waiting.length,
      restarts: this.restarts,
      ...(this.lastFailure ? { lastFailure: { at: new Date(this.lastFailure.at).toISOString(), reason: this.lastFailure.reason } } : {}),
    };
  }

  /** Ends every worker; jobs still waiting or running fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new TvmRefused(503, 'the TVM is shutting down'));
    await Promise.all([...this.slots].map((s) => this.retire(s, new TvmRefused(503, 'the TVM is shutting down'), false)));
  }

  /**
   * Ends the worker that gets the next job as it is handed over, as a crash mid-run would: the isolation
   * test shows with it that the job fails cleanly and a fresh worker takes the next one.
   */
  terminateOnNextRun(): void {
    this.terminateNext = true;
  }

  private run(job: TvmJob): Promise<TvmReply> {
    if (this.closed) return Promise.reject(new TvmRefused(503, 'the TVM is shutting down'));
    if (this.waiting.length >= this.queueMax) {
      return Promise.reject(new TvmRefused(503, `the TVM is busy: ${this.queueMax} runs are already waiting; retry shortly`, 1));
    }
    return new Promise<TvmReply>((resolve, reject) => {
      this.waiting.push({ job, resolve, reject });
      this.pump();
    });
  }

  /** Hands waiting jobs to idle ready workers, starting workers up to the pool's size. */
  private pump(): void {
    while (this.waiting.length > 0) {
      const idle = [...this.slots].find((s) => s.ready && !s.running);
      if (idle) {
        this.dispatch(idle, this.waiting.shift()!);
        continue;
      }
      const starting = [...this.slots].filter((s) => !s.ready).length;
      if (this.slots.size < this.size && starting < this.waiting.length) {
        if (!this.start()) return;
        continue;
      }
      return;
    }
  }

  private dispatch(slot: Slot, w: Waiting): void {
    const id = this.nextId++;
    const what = w.job.kind === 'get' ? 'get-method' : 'transaction emulation';
    const timer = setTimeout(() => {
      void this.retire(slot, new TvmRefused(504, `${what} exceeded its ${this.deadlineMs} ms budget`), true);
    }, this.deadlineMs);
    slot.running = { ...w, id, timer };
    slot.worker.ref();
    // The configuration (a BoC of tens of KB, the same for every run until a key block) is copied to a
    // worker once: jobs after it say `sameConfig` instead. Copying it with every one of the indexer's
    // get-methods was 5% of its main thread.
    if (this.terminateNext) {
      // Ended with the job handed over but never delivered: to the job, a crash mid-run. Posting it first
      // let a fast run answer before the termination landed (a flaky isolation test).
      this.terminateNext = false;
      void slot.worker.terminate();
      return;
    }
    const sameConfig = slot.config === w.job.config;
    slot.config = w.job.config;
    slot.worker.postMessage({ id, job: sameConfig ? { ...w.job, config: '' } : w.job, sameConfig } satisfies TvmRequest);
  }

  private start(): boolean {
    const boot = workerBoot();
    if (!boot) {
      const err = new TvmRefused(500, 'the TVM worker source is not on disk; get-methods and fee estimates are unavailable');
      this.fail(err.message);
      for (const w of this.waiting.splice(0)) w.reject(err);
      return false;
    }
    const worker = new Worker(boot, { eval: true, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    worker.unref(); // referenced only while a job runs
    const slot: Slot = { worker, ready: false };
    this.slots.add(slot);
    worker.on('message', (msg: TvmReply | TvmWorkerReady) => {
      if ('ready' in msg) {
        slot.ready = true;
        this.opts.log?.info({ threadId: worker.threadId }, 'TVM worker ready');
        return this.pump();
      }
      const run = slot.running;
      if (!run || run.id !== msg.id) return;
      if ('crashed' in msg) {
        // The emulator's state after a trap or abort is unknown: this worker runs nothing more.
        return void this.retire(slot, new TvmRefused(500, `the TVM failed on this request: ${msg.crashed}`), true);
      }
      clearTimeout(run.timer);
      slot.running = undefined;
      this.failuresInRow = 0;
      worker.unref();
      run.resolve(msg);
      this.pump();
    });
    const gone = (reason: string) => {
      if (!this.slots.has(slot)) return;
      const err = new TvmRefused(500, `the TVM worker failed: ${reason}`);
      // A worker that dies before its emulator is ready would die again: fail what waits, do not loop.
      if (!slot.ready) for (const w of this.waiting.splice(0)) w.reject(err);
      void this.retire(slot, err, true);
    };
    worker.on('error', (err) => gone(err.message));
    worker.on('exit', (code) => gone(`exited (code ${code})`));
    return true;
  }

  /** Ends `slot`'s worker, failing its job with `err`; a failure counts as a restart and is reported. */
  private async retire(slot: Slot, err: TvmRefused, failure: boolean): Promise<void> {
    if (!this.slots.delete(slot)) return;
    const run = slot.running;
    slot.running = undefined;
    if (run) {
      clearTimeout(run.timer);
      run.reject(err);
    }
    if (failure) {
      this.restarts++;
      this.fail(err.message);
    }
    await slot.worker.terminate();
    if (!this.closed) this.pump();
  }

  private fail(reason: string): void {
    this.lastFailure = { at: Date.now(), reason };
    this.failuresInRow++;
    this.opts.log?.warn({ reason }, 'TVM worker replaced');
  }
}

/**
 * The worker's start-up code: it loads worker.ts through tsx, which it registers itself (a worker does
 * not inherit the module hooks of the thread that starts it). The source is found next to this module
 * under tsx and vitest; in the Next.js production build this module is a bundled chunk, so the source is
 * looked up from the app's directory (where `npm start` runs) instead.
 */
function workerBoot(): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker.ts'));
  } catch {
    // not a file: URL in a bundle
  }
  candidates.push(path.join(process.cwd(), 'lib', 'tvm', 'worker.ts'));
  const entry = candidates.find((c) => fs.existsSync(c));
  if (!entry) return undefined;
  // tsx is resolved from the entry, in the worker: a bundler rewrites this module's own requires.
  return `const r = require('node:module').createRequire(${JSON.stringify(entry)});\nr('tsx/cjs/api').register();\nr(${JSON.stringify(entry)});`;
}
