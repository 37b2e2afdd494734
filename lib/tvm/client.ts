// Who asked for an emulator run, for the pool's per-client backoff (backoff.ts): the API's route wrapper
// runs each request inside withTvmClient(its client address), and the pool reads it when a job is queued,
// however deep in the request's code the run starts. Work outside a request (the indexer) has no client.
//
// The store is one per process, not per module copy: Next bundles the route handlers apart from
// instrumentation (where the pool is made), and both must see the same one.
import { AsyncLocalStorage } from 'node:async_hooks';

const KEY = Symbol.for('atlas.tvm.client');
const holder = globalThis as typeof globalThis & { [KEY]?: AsyncLocalStorage<string> };
const store: AsyncLocalStorage<string> = (holder[KEY] ??= new AsyncLocalStorage<string>());

/** Runs `work` with its emulator runs counted against `client` (undefined or 'unknown': no one's). */
export function withTvmClient<T>(client: string | undefined, work: () => T): T {
  return client && client !== 'unknown' ? store.run(client, work) : work();
}

/** The client the current work runs for, if any. */
export const currentTvmClient = (): string | undefined => store.getStore();
