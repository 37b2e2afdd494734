// The cluster's IPC channel, from either end: the primary broadcasts to every connected worker and hears
// each of them; a worker talks to the primary. Listeners sit on the process (or the cluster), so whichever
// module world of a process (Next's bundle, scripts/start.ts) registers one, it hears every message.
import cluster, { type Worker } from 'node:cluster';
import { isClusterMessage, type ToPrimary, type ToWorker } from './messages';

// A channel closing under a send (a worker or the primary on its way out) fails that send with EPIPE: the
// callback takes the error, which would otherwise be thrown as an unhandled 'error' event.
const ignore = () => {};

export function toPrimary(msg: ToPrimary): void {
  if (process.connected) process.send?.(msg, undefined, undefined, ignore);
}

export function onPrimaryMessage(fn: (msg: ToWorker) => void): () => void {
  const listener = (m: unknown) => isClusterMessage<ToWorker>(m) && fn(m);
  process.on('message', listener);
  return () => void process.off('message', listener);
}

export function toWorker(worker: Worker, msg: ToWorker): void {
  if (worker.isConnected()) worker.send(msg, undefined, undefined, ignore);
}

export function broadcast(msg: ToWorker): void {
  for (const w of Object.values(cluster.workers ?? {})) if (w) toWorker(w, msg);
}

export function onWorkerMessage(fn: (worker: Worker, msg: ToPrimary) => void): () => void {
  const listener = (w: Worker, m: unknown) => isClusterMessage<ToPrimary>(m) && fn(w, m);
  cluster.on('message', listener);
  return () => void cluster.off('message', listener);
}
