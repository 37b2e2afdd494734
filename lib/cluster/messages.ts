// What the primary and its API workers say to each other over the cluster's IPC channel (JSON). Every
// message carries `atlas: 'cluster'` so other users of the channel (Node's own cluster messages) pass by.
import type { DevnetStatus } from '../devnet';
import type { LoadStatus } from '../http/load';
import type { IndexerProgress } from '../indexer/follower';
import type { PendingEntry } from '../pending/store';
import type { StreamEvent } from '../stream/events';
import type { HubStatus } from '../stream/hub';
import type { TvmStatus } from '../tvm/pool';

export interface Memory {
  rss: number;
  heap_used: number;
}

/** This process's memory as the cluster reports it (and /api/health beside its own heap_total). */
export const memoryOf = (m: NodeJS.MemoryUsage = process.memoryUsage()): Memory => ({ rss: m.rss, heap_used: m.heapUsed });

/** What a worker reports about itself every second. */
export interface WorkerReport {
  pid: number;
  load?: LoadStatus;
  streaming?: HubStatus;
  memory: Memory;
}

/** One worker as /api/health lists it. */
export interface WorkerStatus {
  id: number;
  pid: number | undefined;
  /** `starting` until its first report; `unresponsive` when its last report is over 5 s old. */
  state: 'starting' | 'up' | 'unresponsive';
  started_at: string;
  /** Milliseconds since its last report (null before the first). */
  last_report_ms: number | null;
  load?: LoadStatus;
  streaming?: HubStatus;
  memory?: Memory;
}

/** The primary's own part: the one indexer and devnet every worker's health reports. */
export interface PrimaryStatus {
  pid: number;
  indexer?: IndexerProgress;
  devnet?: DevnetStatus;
  tvm?: TvmStatus;
  memory: Memory;
}

/** The cluster as the primary sees it, sent to every worker every second. */
export interface ClusterView {
  /** API_WORKERS: how many workers the primary keeps running. */
  api_workers: number;
  /** Workers that exited unexpectedly and were replaced, since start. */
  restarts: number;
  primary: PrimaryStatus;
  workers: WorkerStatus[];
}

export type PendingOp = 'put' | 'byHashes' | 'byAccounts' | 'delete';

export type ToPrimary =
  | { atlas: 'cluster'; t: 'report'; report: WorkerReport }
  | { atlas: 'cluster'; t: 'publish'; event: StreamEvent }
  | { atlas: 'cluster'; t: 'pending'; id: number; op: PendingOp; args: unknown[] };

export type ToWorker =
  | { atlas: 'cluster'; t: 'view'; view: ClusterView }
  | { atlas: 'cluster'; t: 'event'; event: StreamEvent }
  | { atlas: 'cluster'; t: 'pending-reply'; id: number; result?: PendingEntry[] | null; error?: string };

export const isClusterMessage = <T extends { atlas: 'cluster' }>(m: unknown): m is T =>
  typeof m === 'object' && m !== null && (m as { atlas?: unknown }).atlas === 'cluster';
