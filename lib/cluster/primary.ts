// The primary of an `npm start` cluster (PostgreSQL, API_WORKERS > 1): it forks the API workers that
// serve HTTP on the one port (Node cluster hands each connection to one of them), replaces a worker that
// dies, sends every worker the view of the whole cluster their /api/health shows, and stops them first
// on shutdown, within its budget. The devnet, the indexer and the stream publisher run in the primary
// itself (lib/runtime.ts), once.
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../log';
import { broadcast, onWorkerMessage, toWorker } from './channel';
import { memoryOf, type ClusterView, type PrimaryStatus, type WorkerReport, type WorkerStatus } from './messages';
import { REPORT_INTERVAL_MS } from './worker';

/** A worker silent for longer is listed `unresponsive`. */
const UNRESPONSIVE_MS = 5_000;
/** A worker that lived shorter than this before dying is restarted after a growing delay (a crash loop). */
const STABLE_MS = 30_000;
const RESTART_DELAY_MS = { first: 500, max: 30_000 };

export interface PrimaryOptions {
  workers: number;
  log: Logger;
  /** The primary's indexer, devnet and emulator, as its health shows them. */
  status: () => Omit<PrimaryStatus, 'pid' | 'memory'>;
}

export interface ClusterPrimary {
  /** Resolves once the first workers all listen on the port; rejects if one exits before it does (e.g. the port is taken). */
  listening: Promise<void>;
  view(): ClusterView;
  /** No worker is restarted from now on (a signal arrived: the workers may be ending on it too). */
  halt(): void;
  /** Asks every worker to stop (SIGTERM), SIGKILL after `budgetMs`; no worker is restarted after this. */
  stop(budgetMs: number): Promise<void>;
}

interface Slot {
  worker: Worker;
  startedAt: Date;
  report?: { at: number; report: WorkerReport };
}

export function startPrimary(o: PrimaryOptions): ClusterPrimary {
  const slots = new Map<number, Slot>();
  let stopping = false;
  let restarts = 0;
  let restartDelay = RESTART_DELAY_MS.first;

  let failedToStart: ((err: Error) => void) | undefined;
  const fork = () => {
    const worker = cluster.fork();
    slots.set(worker.id, { worker, startedAt: new Date() });
    // Errors of the IPC channel of a worker on its way out: its 'exit' below is what counts.
    worker.on('error', (err) => o.log.debug({ component: 'cluster', worker: worker.id, err: err.message }, 'API worker channel error'));
    worker.on('exit', (code, signal) => {
      const slot = slots.get(worker.id);
      slots.delete(worker.id);
      if (stopping) return;
      if (failedToStart) return failedToStart(new Error(`API worker ${worker.id} exited (${signal ?? `code ${code}`}) before it listened on the port`));
      const lived = Date.now() - (slot?.startedAt.getTime() ?? Date.now());
      restartDelay = lived > STABLE_MS ? RESTART_DELAY_MS.first : Math.min(restartDelay * 2, RESTART_DELAY_MS.max);
      o.log.error({ component: 'cluster', worker: worker.id, pid: worker.process.pid, code, signal, restartInMs: restartDelay }, 'API worker exited; starting a new one');
      restarts++;
      setTimeout(() => stopping || fork(), restartDelay).unref();
    });
    return worker;
  };

  const first = Array.from({ length: o.workers }, fork);
  const listening = new Promise<void>((resolve, reject) => {
    failedToStart = (err) => {
      stopping = true;
      reject(err);
    };
    void Promise.all(first.map((w) => new Promise<void>((r) => w.once('listening', () => r())))).then(() => {
      failedToStart = undefined;
      resolve();
    });
  });

  onWorkerMessage((worker, m) => {
    const slot = slots.get(worker.id);
    if (m.t === 'report' && slot) slot.report = { at: Date.now(), report: m.report };
  });

  const view = (): ClusterView => {
    return {
      api_workers: o.workers,
      restarts,
      primary: { pid: process.pid, ...o.status(), memory: memoryOf() },
      workers: [...slots.entries()].sort(([a], [b]) => a - b).map(([id, s]) => workerStatus(id, s)),
    };
  };
  const sendView = setInterval(() => broadcast({ atlas: 'cluster', t: 'view', view: view() }), REPORT_INTERVAL_MS);
  sendView.unref();
  // A new worker gets the view at once, so its first health answer lists the cluster.
  cluster.on('online', (w: Worker) => toWorker(w, { atlas: 'cluster', t: 'view', view: view() }));

  const stop = async (budgetMs: number) => {
    stopping = true;
    clearInterval(sendView);
    const running = [...slots.values()].map((s) => s.worker).filter((w) => !w.isDead());
    const exited = Promise.all(running.map((w) => new Promise<void>((resolve) => (w.isDead() ? resolve() : w.once('exit', () => resolve())))));
    for (const w of running) w.process.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), budgetMs)));
    if ((await Promise.race([exited, late])) === 'late') {
      o.log.error({ component: 'cluster', budgetMs }, 'API workers did not stop within the budget; killing them');
      for (const w of running) if (!w.isDead()) w.process.kill('SIGKILL');
    }
    clearTimeout(timer);
  };

  return { listening, view, halt: () => void (stopping = true), stop };
}

/** Marks the cluster stopping as soon as a signal arrives, before anything async: a worker ending on the same signal is not replaced. */
export function stopOnSignals(stop: () => void): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
}

function workerStatus(id: number, s: Slot): WorkerStatus {
  const age = s.report ? Date.now() - s.report.at : null;
  const state = age === null ? 'starting' : age > UNRESPONSIVE_MS ? 'unresponsive' : 'up';
  const r = s.report?.report;
  return { id, pid: s.worker.process.pid, state, started_at: s.startedAt.toISOString(), last_report_ms: age, ...(r && { load: r.load, streaming: r.streaming, memory: r.memory }) };
}
