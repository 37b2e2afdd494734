// The Streaming API's bus inside one `npm start` cluster without Redis: what any process publishes (the
// primary's indexer commits, a worker's pending predictions) goes through the primary, which hands it to
// its own subscribers and to every worker, in the order it got it — so every worker's streams see every
// event, as with the Redis bus (lib/stream/bus.ts). With REDIS_URL the Redis bus is used instead.
import type { Logger } from '../log';
import type { EventBus } from '../stream/bus';
import type { StreamEvent } from '../stream/events';
import { broadcast, onPrimaryMessage, onWorkerMessage, toPrimary } from './channel';
import type { ClusterRole } from './role';

export function clusterBus(role: Exclude<ClusterRole, 'single'>, log: Logger): EventBus {
  const handlers = new Set<(e: StreamEvent) => void>();
  const deliver = (e: StreamEvent) => {
    for (const fn of handlers) {
      try {
        fn(e);
      } catch (err) {
        log.error({ component: 'stream', err }, 'stream event handler failed');
      }
    }
  };
  const fanOut = (e: StreamEvent) => {
    deliver(e);
    broadcast({ atlas: 'cluster', t: 'event', event: e });
  };
  const off =
    role === 'primary'
      ? onWorkerMessage((_w, m) => m.t === 'publish' && fanOut(m.event))
      : onPrimaryMessage((m) => m.t === 'event' && deliver(m.event));
  return {
    async publish(e) {
      if (role === 'primary') fanOut(e);
      else toPrimary({ atlas: 'cluster', t: 'publish', event: e });
    },
    subscribe(fn) {
      handlers.add(fn);
      return () => void handlers.delete(fn);
    },
    ready: async () => {},
    async close() {
      off();
    },
  };
}
