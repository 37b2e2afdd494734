// A worker's side of the cluster: it reports its load, streams and memory to the primary every second,
// and keeps the latest view of the whole cluster the primary sends back — what its /api/health shows
// (the primary's indexer and devnet, every worker). Both on globalThis: the health route (Next's bundle)
// and the HTTP edge (scripts/start.ts) are separate module worlds in one process.
import { loadStatus } from '../http/load';
import type { HubStatus } from '../stream/hub';
import { onPrimaryMessage, toPrimary } from './channel';
import { memoryOf, type ClusterView } from './messages';

/** How often a worker reports, and the primary sends its view. */
export const REPORT_INTERVAL_MS = 1000;

interface WorkerState {
  view?: ClusterView;
  listening?: boolean;
  reporting?: NodeJS.Timeout;
}

const KEY = Symbol.for('atlas.cluster.worker');
const state = ((globalThis as Record<symbol, unknown>)[KEY] ??= {}) as WorkerState;

/** The latest view of the cluster from the primary (undefined before the first, or outside a worker). */
export function clusterView(): ClusterView | undefined {
  if (!state.listening) {
    state.listening = true;
    onPrimaryMessage((m) => {
      if (m.t === 'view') state.view = m.view;
    });
  }
  return state.view;
}

/** Starts this worker's reports; `streaming` reads its hub. */
export function startWorkerReports(streaming: () => HubStatus | undefined): void {
  clusterView();
  if (state.reporting) return;
  const report = () => toPrimary({ atlas: 'cluster', t: 'report', report: { pid: process.pid, load: loadStatus(), streaming: streaming(), memory: memoryOf() } });
  report();
  state.reporting = setInterval(report, REPORT_INTERVAL_MS);
  state.reporting.unref();
}
