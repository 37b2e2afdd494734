// The TVM pool: every emulator run (get-methods, transaction emulation) happens in a worker thread
// (worker.ts) with a capped heap and a deadline, so an input that traps the emulator, aborts it, loops
// or exhausts memory costs that one request and one worker, never the process nor later requests. A
// get-method's result is chain data: the worker refuses one past the limits (result-limits.ts) before
// returning it. Contracts and clients whose runs keep failing are refused for a while (backoff.ts), so
// honest runs keep the workers while an attacker hammers a hostile get-method.
//
//   const tvm = new TvmPool({ log });
//   const out = await tvm.getMethod({ ... });   // TvmRefused: kind says why (crash, result, deadline, busy, …)
//   tvm.status();                              // for /api/health
//   await tvm.close();
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ExecutorEmulationResult, ExecutorGetMethodResult } from '@ton/sandbox';
import { LIMITS } from '../limits';
import type { Logger } from '../log';
import { Backoff } from './backoff';
import { currentTvmClient } from './client';
import type { GetMethodJob, TransactionJob, TvmJob, TvmReply, TvmRequest, TvmWorkerReady } from './jobs';

/**
 * Why a run gave no result. `crash`: the emulator trapped or its worker died on this run; `result`: the
 * get-method's result is past the limits; `deadline`: past LIMITS.tvmRunMs; `backoff`: the contract or the
 * client is refused for a while after repeated failures; `busy`: the queue is full; `closed`: shutting
 * down; `unavailable`: no worker can start.
 */
export type TvmRefusalKind = 'crash' | 'result' | 'deadline' | 'backoff' | 'busy' | 'closed' | 'unavailable';

const REFUSAL = Symbol.for('atlas.tvm.refused');

/** Why the pool did not run a job; each API answers its kind with a status of its own (lib/api/v2/errors.ts). */
export class TvmRefused extends Error {
  /**
   * `instanceof` by brand: Next bundles the route handlers apart from instrumentation (where the pool is
   * made), so a refusal thrown by the pool is an instance of another copy of this class.
   */
  static [Symbol.hasInstance](x: unknown): boolean {
    return typeof x === 'object' && x !== null && (x as { [REFUSAL]?: unknown })[REFUSAL] === true;
  }

  readonly [REFUSAL] = true;
  constructor(
    readonly kind: TvmRefusalKind,
    message: string,
    /** Seconds a client should wait before retrying (after `backoff`, `busy`). */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }

  /** The contract's doing: the same run would be refused again (the indexer moves on), not the pool's state now. */
  get fromContract(): boolean {
    return this.kind === 'crash' || this.kind === 'result' || this.kind === 'deadline' || this.kind === 'backoff';
  }
}

export interface TvmStatus {
  state: 'ok' | 'degraded';
  workers: number;
  busy: number;
  queued: number;
  /** Workers replaced after a crash, an emulator abort or a deadline. */
  restarts: number;
  /** Get-method results refused for being past the limits (the worker lives on). */
  resultsRefused: number;
  /** Contracts and clients refused right now after repeated failures, and runs refused for it so far. */
  backoff: { contracts: number; clients: number; refused: number };
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
// The native stack of a worker: the emulator's deepest recursion (a result of 3500 nested tuples, see
// emulator.ts) takes ~1.5 MB of it, Node's default for a worker is 4 MB.
const WORKER_STACK_MB = 16;
/**
 * Failures in a row, with no run finishing in between, that make the pool report itself degraded. One
 * hostile request that crashes its worker costs that request and a restart (counted in status()), not
 * the health of the process; an emulator that fails everything it is given is broken.
 */
const DEGRADED_AFTER_FAILURES = 3;
/** Clients whose turn takeNext remembers (forgotten wholesale past it: turns start over). */
const SERVED_KEYS = 10_000;

interface Waiting {
  job: TvmJob;
  /** Backoff keys: the account a get-method runs on, the client that asked (withTvmClient). */
  contract?: string;
  client?: string;
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
  private resultsRefused = 0;
  private refusedByBackoff = 0;
  private closed = false;
  private terminateNext = false;
  /** Accounts whose get-methods failed repeatedly (3 strikes a minute), and clients who asked for such runs (5). */
  private readonly contracts = new Backoff({ strikes: 3 });
  private readonly clients = new Backoff({ strikes: 5 });
  /** When each client's last run was handed to a worker (in dispatches), for takeNext's turn-taking. */
  private readonly served = new Map<string | undefined, number>();
  private dispatched = 0;

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
      resultsRefused: this.resultsRefused,
      backoff: { contracts: this.contracts.refusedCount(), clients: this.clients.refusedCount(), refused: this.refusedByBackoff },
      ...(this.lastFailure ? { lastFailure: { at: new Date(this.lastFailure.at).toISOString(), reason: this.lastFailure.reason } } : {}),
    };
  }

  /** Ends every worker; jobs still waiting or running fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new TvmRefused('closed', 'the TVM is shutting down'));
    await Promise.all([...this.slots].map((s) => this.retire(s, new TvmRefused('closed', 'the TVM is shutting down'), false)));
  }

  /**
   * Ends the worker that gets the next job as it is handed over, as a crash mid-run would: the isolation
   * test shows with it that the job fails cleanly and a fresh worker takes the next one.
   */
  terminateOnNextRun(): void {
    this.terminateNext = true;
  }

  private run(job: TvmJob): Promise<TvmReply> {
    if (this.closed) return Promise.reject(new TvmRefused('closed', 'the TVM is shutting down'));
    const contract = job.kind === 'get' ? job.address.toLowerCase() : undefined; // raw: the indexer's are upper case
    const client = currentTvmClient();
    const refused = this.backedOff(contract, client);
    if (refused) return Promise.reject(refused);
    if (this.waiting.length >= this.queueMax) {
      return Promise.reject(new TvmRefused('busy', `the TVM is busy: ${this.queueMax} runs are already waiting; retry shortly`, 1));
    }
    return new Promise<TvmReply>((resolve, reject) => {
      this.waiting.push({ job, contract, client, resolve, reject });
      this.pump();
    });
  }

  /** The refusal of a run for a contract or a client in backoff, before it costs a worker anything. */
  private backedOff(contract: string | undefined, client: string | undefined): TvmRefused | undefined {
    const forContract = contract ? this.contracts.refusedFor(contract) : 0;
    const forClient = client ? this.clients.refusedFor(client) : 0;
    if (!forContract && !forClient) return undefined;
    this.refusedByBackoff++;
    return forContract
      ? new TvmRefused('backoff', `get-methods of ${contract} are refused for the next ${forContract} s: its recent runs crashed the emulator, ran past their budget or returned results past the limits`, forContract)
      : new TvmRefused('backoff', `your emulator runs are refused for the next ${forClient} s: several of your recent runs crashed the emulator, ran past their budget or returned results past the limits`, forClient);
  }

  /** Counts a failed run against its contract and client (see Backoff). */
  private strike(w: Waiting): void {
    if (w.contract) this.contracts.strike(w.contract);
    if (w.client) this.clients.strike(w.client);
  }

  /** Hands waiting jobs to idle ready workers, starting workers up to the pool's size. */
  private pump(): void {
    while (this.waiting.length > 0) {
      const idle = [...this.slots].find((s) => s.ready && !s.running);
      if (idle) {
        this.dispatch(idle, this.takeNext());
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

  /**
   * The next job: of the clients waiting (the indexer's runs are one more client), the one with the fewest
   * runs in progress, then the one served longest ago, gets its longest-waiting job — so that one
   * client's queued runs (an attacker's, say) never keep another's waiting behind all of them.
   */
  private takeNext(): Waiting {
    const running = new Map<string | undefined, number>();
    for (const s of this.slots) if (s.running) running.set(s.running.client, (running.get(s.running.client) ?? 0) + 1);
    const rank = (w: Waiting) => [running.get(w.client) ?? 0, this.served.get(w.client) ?? -1] as const;
    let best = 0;
    for (let i = 1; i < this.waiting.length; i++) {
      const [r, s] = rank(this.waiting[i]!);
      const [br, bs] = rank(this.waiting[best]!);
      if (r < br || (r === br && s < bs)) best = i;
    }
    const next = this.waiting.splice(best, 1)[0]!;
    if (this.served.size >= SERVED_KEYS) this.served.clear();
    this.served.set(next.client, this.dispatched++);
    return next;
  }

  private dispatch(slot: Slot, w: Waiting): void {
    const id = this.nextId++;
    const what = describe(w.job);
    const timer = setTimeout(() => {
      void this.retire(slot, new TvmRefused('deadline', `${what} exceeded its ${this.deadlineMs} ms budget`), true);
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
      const err = new TvmRefused('unavailable', 'the TVM worker source is not on disk; get-methods and fee estimates are unavailable');
      this.fail(err.message);
      for (const w of this.waiting.splice(0)) w.reject(err);
      return false;
    }
    const worker = new Worker(boot, { eval: true, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, stackSizeMb: WORKER_STACK_MB } });
    worker.unref(); // referenced only while a job runs
    const slot: Slot = { worker, ready: false };
    this.slots.add(slot);
    worker.on('message', (msg: TvmReply | TvmWorkerReady) => {
      if ('ready' in msg) {
        slot.ready = true;
        this.opts.log?.info({ threadId: worker.threadId, fastTonCore: msg.fastTonCore }, 'TVM worker ready');
        return this.pump();
      }
      const run = slot.running;
      if (!run || run.id !== msg.id) return;
      if ('crashed' in msg) {
        // The emulator's state after a trap or abort is unknown: this worker runs nothing more.
        return void this.retire(slot, new TvmRefused('crash', `the emulator failed on this ${describe(run.job)} (${msg.crashed}); the run was abandoned and its worker replaced`), true);
      }
      clearTimeout(run.timer);
      slot.running = undefined;
      this.failuresInRow = 0;
      worker.unref();
      if ('refused' in msg) {
        this.resultsRefused++;
        this.strike(run);
        run.reject(new TvmRefused('result', `the get-method's result ${msg.refused}`));
      } else {
        run.resolve(msg);
      }
      this.pump();
    });
    const gone = (reason: string) => {
      if (!this.slots.has(slot)) return;
      // A worker that dies before its emulator is ready would die again: fail what waits, do not loop.
      if (!slot.ready) {
        const err = new TvmRefused('unavailable', `the TVM worker failed to start: ${reason}`);
        for (const w of this.waiting.splice(0)) w.reject(err);
        return void this.retire(slot, err, true);
      }
      // Mid-run (out of memory, ended): the run it had is what killed it, as far as anyone can tell.
      void this.retire(slot, new TvmRefused('crash', `the TVM worker running this ${slot.running ? describe(slot.running.job) : 'run'} failed: ${reason}`), true);
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
      if (err.fromContract) this.strike(run);
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

const describe = (job: TvmJob) => (job.kind === 'get' ? 'get-method' : 'transaction emulation');

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
