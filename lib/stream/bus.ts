// The fan-out between publishers (the indexer's commits, the pending store's writes) and every API
// process's streams. In memory for one process; Redis pub/sub when REDIS_URL is set, so an event
// published by any process (the indexer's, or the API process that accepted a message) reaches the
// streams of all of them, in the order it was published.
import { Redis } from 'ioredis';
import type { Logger } from '../log';
import type { StreamEvent } from './events';

export interface EventBus {
  publish(e: StreamEvent): Promise<void>;
  /** Calls `fn` with every event published from now on; returns the unsubscribe function. */
  subscribe(fn: (e: StreamEvent) => void): () => void;
  /** Resolves once events published from now on are received (Redis: the subscription is active). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Handlers called in turn; one that throws is logged and does not stop the others. */
function handlers(log: Logger) {
  const set = new Set<(e: StreamEvent) => void>();
  return {
    add(fn: (e: StreamEvent) => void) {
      set.add(fn);
      return () => void set.delete(fn);
    },
    deliver(e: StreamEvent) {
      for (const fn of set) {
        try {
          fn(e);
        } catch (err) {
          log.error({ component: 'stream', err }, 'stream event handler failed');
        }
      }
    },
  };
}

export function memoryBus(log: Logger): EventBus {
  const h = handlers(log);
  return {
    async publish(e) {
      h.deliver(e);
    },
    subscribe: h.add,
    ready: async () => {},
    async close() {},
  };
}

export const REDIS_CHANNEL = 'atlas:stream:events';

/**
 * Events as JSON on one Redis channel. A process's own events come back to it through Redis like any
 * other's; while Redis cannot be reached they are delivered to this process's streams only (logged).
 */
export function redisBus(url: string, opts: { log: Logger; channel?: string }): EventBus {
  const channel = opts.channel ?? REDIS_CHANNEL;
  const h = handlers(opts.log);
  const pub = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 2_000 });
  const sub = new Redis(url, { maxRetriesPerRequest: null });
  let warned = false;
  pub.on('error', () => {});
  sub.on('error', (err) => {
    if (!warned) opts.log.warn({ component: 'stream', err: err.message }, 'stream bus: Redis unreachable; events reach this process\'s streams only until it is back');
    warned = true;
  });
  sub.on('ready', () => (warned = false));
  const subscribed = sub.subscribe(channel);
  subscribed.catch(() => undefined);
  sub.on('message', (ch: string, text: string) => {
    if (ch !== channel) return;
    let e: StreamEvent;
    try {
      e = JSON.parse(text) as StreamEvent;
    } catch {
      return opts.log.warn({ component: 'stream' }, 'stream bus: a message that is not JSON was ignored');
    }
    h.deliver(e);
  });
  return {
    async publish(e) {
      try {
        await pub.publish(channel, JSON.stringify(e));
      } catch (err) {
        opts.log.warn({ component: 'stream', err: (err as Error).message }, 'stream bus: publishing through Redis failed; delivered in this process only');
        h.deliver(e);
      }
    },
    subscribe: h.add,
    ready: () => subscribed.then(() => undefined),
    async close() {
      pub.disconnect();
      sub.disconnect();
    },
  };
}
