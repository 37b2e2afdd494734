// The process's one stream bus and hub. `npm start` runs two module worlds in one process: Next's bundle
// (the runtime: indexer, pending store, /api/health) and the HTTP edge loaded by scripts/start.ts (where
// SSE and WebSocket connections arrive). Both reach the same bus and hub here, on globalThis; the
// objects are self-contained, so either world's code works with them. It lives with the cluster because
// which bus a process uses depends on its role (single process, primary or worker).
import type { Config } from '../config';
import type { Logger } from '../log';
import { memoryBus, redisBus, type EventBus } from '../stream/bus';
import { StreamHub } from '../stream/hub';
import { clusterBus } from './bus';
import { clusterRole } from './role';

export interface ProcessStream {
  bus: EventBus;
  hub: StreamHub;
  /** Ends every stream, then the bus: safe to call more than once. */
  close(): Promise<void>;
}

const KEY = Symbol.for('atlas.stream');
const slot = globalThis as Record<symbol, ProcessStream | undefined>;

export function createProcessStream(config: Pick<Config, 'redisUrl' | 'stream'>, log: Logger): ProcessStream {
  // Without Redis, the processes of an `npm start` cluster share one bus through the primary (lib/cluster/bus.ts).
  const role = clusterRole();
  const bus = config.redisUrl ? redisBus(config.redisUrl, { log }) : role !== 'single' ? clusterBus(role, log) : memoryBus(log);
  const hub = new StreamHub({ limits: config.stream, log });
  const unsubscribe = bus.subscribe((e) => hub.dispatch(e));
  let closed: Promise<void> | undefined;
  return {
    bus,
    hub,
    close: () =>
      (closed ??= (async () => {
        hub.close();
        unsubscribe();
        await bus.close();
      })()),
  };
}

/** This process's bus and hub, made on first use. */
export function processStream(config: Pick<Config, 'redisUrl' | 'stream'>, log: Logger): ProcessStream {
  return (slot[KEY] ??= createProcessStream(config, log));
}
