// Turns downloaded block BoCs into index records on worker threads (parse-worker.ts), so parsing —
// most of the indexer's CPU time, and most of its garbage — runs on other cores while this thread
// talks to the liteserver and the database; the blocks a masterchain block registered, and the blocks
// prepared ahead, are parsed side by side (a worker each, up to one per core). Records cross the
// thread boundary as structured clones of plain objects (Buffers arrive as Uint8Arrays and are viewed
// as Buffers again, without a copy); no cell crosses it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log';
import type { FastTonCore } from '../ton/fast-core';
import { parseDownloadedBlock, type DownloadedBlock } from './parse-block';

export interface ParseJob {
  id: number;
  boc: Uint8Array;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
  mcBlockSeqno: number;
}

export type ParseReply = { id: number; block: DownloadedBlock } | { id: number; error: string };

/** The worker's first message: which @ton/core fast paths it parses with. */
export interface ParseWorkerHello {
  fastTonCore: FastTonCore;
}

interface Pending {
  resolve: (b: DownloadedBlock) => void;
  reject: (err: Error) => void;
}

/** A parse worker and the jobs it has out. */
interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

// A block's cells all live until it is parsed: with V8's default young generation (16 MB here) most of
// them survive a scavenge or two and get copied into the old generation, and the collector was a third
// of the worker's time. A young generation that holds a busy block's cells lets them die young: about
// 40% less CPU per block (A/B on the bench chain), for up to 192 MB more memory in each worker.
const YOUNG_GENERATION_MB = 192;

// Parse workers at most: a masterchain block's shard blocks (and the blocks prepared ahead) are parsed
// side by side, one per core; past four the main thread and the database are the limit, not parsing.
const MAX_WORKERS = 4;

/** Parse workers for this machine: one per core (the main thread mostly waits on the database), at most MAX_WORKERS. */
export const parseWorkerCount = () => Math.max(1, Math.min(MAX_WORKERS, os.availableParallelism()));

export class BlockParser {
  private readonly slots: Slot[] = [];
  private nextId = 0;
  /** Set when no worker can start here; parsing then happens on this thread (see workerEntry). */
  private inThread = false;
  private readonly maxWorkers: number;

  /** `workers`: parse workers at most (default parseWorkerCount()); one starts per block parsed side by side. */
  constructor(
    private readonly log?: Logger,
    o: { workers?: number } = {},
  ) {
    this.maxWorkers = Math.max(1, o.workers ?? parseWorkerCount());
  }

  /** Where blocks are parsed: 'worker' normally, 'thread' where no worker could start. */
  get mode(): 'worker' | 'thread' {
    return this.inThread ? 'thread' : 'worker';
  }

  /** Parse workers running. */
  get workers(): number {
    return this.slots.length;
  }

  /** The block `boc` downloaded as `id` (refused unless its file hash is the id's). */
  parse(boc: Buffer, id: { rootHash: Buffer; fileHash: Buffer }, mcBlockSeqno: number): Promise<DownloadedBlock> {
    const slot = this.inThread ? undefined : this.pick();
    if (!slot) return Promise.resolve().then(() => parseDownloadedBlock(boc, id, mcBlockSeqno));
    const jobId = this.nextId++;
    // A copy of its own that moves to the worker: the liteserver's buffer may be a view of a larger one.
    const bytes = new Uint8Array(boc);
    const job: ParseJob = { id: jobId, boc: bytes, rootHash: new Uint8Array(id.rootHash), fileHash: new Uint8Array(id.fileHash), mcBlockSeqno };
    return new Promise<DownloadedBlock>((resolve, reject) => {
      slot.pending.set(jobId, { resolve, reject });
      if (slot.pending.size === 1) slot.worker.ref();
      slot.worker.postMessage(job, [bytes.buffer]);
    });
  }

  /** Ends the workers; a later parse starts new ones. */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /**
   * The worker for the next job: an idle one, else a new one while there are fewer than maxWorkers,
   * else the one with the fewest jobs out. Blocks parsed one at a time keep to one worker.
   */
  private pick(): Slot | undefined {
    const idle = this.slots.find((s) => s.pending.size === 0);
    if (idle) return idle;
    if (this.slots.length < this.maxWorkers) return this.start();
    return this.slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  private start(): Slot | undefined {
    const boot = workerBoot();
    if (!boot) {
      this.inThread = true;
      this.log?.warn('no parse worker in this build (its source is not on disk); parsing blocks on the main thread');
      return undefined;
    }
    const worker = new Worker(boot, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    worker.unref(); // referenced only while a job is out (parse)
    const slot: Slot = { worker, pending: new Map() };
    worker.on('message', (reply: ParseReply | ParseWorkerHello) => {
      if ('fastTonCore' in reply) return void this.log?.info({ fastTonCore: reply.fastTonCore }, 'parse worker: @ton/core fast paths');
      const p = slot.pending.get(reply.id);
      if (!p) return;
      slot.pending.delete(reply.id);
      if (slot.pending.size === 0) worker.unref();
      if ('error' in reply) p.reject(new Error(reply.error));
      else p.resolve(asBuffers(reply.block));
    });
    const fail = (err: Error) => {
      const at = this.slots.indexOf(slot);
      if (at >= 0) this.slots.splice(at, 1); // a later parse starts a new one
      for (const p of slot.pending.values()) p.reject(err);
      slot.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`block parse worker exited (code ${code})`)));
    this.slots.push(slot);
    return slot;
  }
}

/**
 * The worker's start-up code: it loads parse-worker.ts, the source file next to this module, through
 * tsx. On Node 20 a worker does not inherit the module hooks `--import tsx` gave this thread (vitest's
 * workers have none at all), so the worker registers tsx's require hooks itself. Under tsx and vitest
 * this module runs from its source; in the Next.js production build it runs from a bundled chunk, where
 * import.meta.url may not name the source directory: then there is no entry, and that process parses on
 * its main thread (the standalone indexer, `npm run indexer`, is what catches up big ranges).
 */
function workerBoot(): string | undefined {
  try {
    const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'parse-worker.ts');
    if (!fs.existsSync(entry)) return undefined;
    // tsx is resolved from the entry, in the worker: a bundler rewrites this module's own requires.
    return `const r = require('node:module').createRequire(${JSON.stringify(entry)});\nr('tsx/cjs/api').register();\nr(${JSON.stringify(entry)});`;
  } catch {
    return undefined;
  }
}

/** Uint8Arrays (what a structured clone makes of Buffers) as Buffers again: views, not copies. */
function asBuffers<T>(v: T): T {
  if (v instanceof Uint8Array) return (Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength)) as T;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = asBuffers(v[i]);
    return v;
  }
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k in o) {
      const x = o[k];
      if (x && typeof x === 'object') o[k] = asBuffers(x);
    }
  }
  return v;
}
