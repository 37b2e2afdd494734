// Requests one client has in flight at once (MAX_IN_FLIGHT_PER_CLIENT): the rate limit counts requests per
// second, but a client sending legal heavy reads back to back on a few connections stays under it while
// holding the main thread for seconds at a time. Each API request holds a slot of its client (its API key,
// or its address without one) from the access check until its answer is built; a request past the cap is
// refused at once (429), so it neither waits nor works, and everyone else keeps their share.
//
// The slot is released by the API route wrapper (lib/api/route.ts) when the handler returns, whatever
// path it took: the access check only records it in the request's scope. The scope store and the counts
// are one per process, not per module copy: Next bundles the route handlers apart from instrumentation
// (where the access check is made), and both must see the same ones.
import { AsyncLocalStorage } from 'node:async_hooks';

interface Scope {
  releases: (() => void)[];
}

interface Shared {
  scopes: AsyncLocalStorage<Scope>;
  counts: Map<string, number>;
}

const KEY = Symbol.for('atlas.auth.inFlight');
const holder = globalThis as typeof globalThis & { [KEY]?: Shared };
const shared: Shared = (holder[KEY] ??= { scopes: new AsyncLocalStorage<Scope>(), counts: new Map() });

/** Runs one API request; every slot its access check took is released when `work` settles. */
export async function withRequestSlots<T>(work: () => Promise<T>): Promise<T> {
  const scope: Scope = { releases: [] };
  try {
    return await shared.scopes.run(scope, work);
  } finally {
    for (const release of scope.releases.splice(0)) release();
  }
}

/**
 * Takes one of `bucket`'s `cap` slots for the current request: true when taken (or when there is no
 * request scope: streams and other long-lived callers are limited by their own connection caps), false
 * when the client already has `cap` requests in flight.
 */
export function takeSlot(bucket: string, cap: number): boolean {
  const scope = shared.scopes.getStore();
  if (!scope) return true;
  const n = shared.counts.get(bucket) ?? 0;
  if (n >= cap) return false;
  shared.counts.set(bucket, n + 1);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const left = (shared.counts.get(bucket) ?? 1) - 1;
    if (left > 0) shared.counts.set(bucket, left);
    else shared.counts.delete(bucket);
  };
  scope.releases.push(release);
  return true;
}

/** Gives back the slot the current request took for `bucket` last (its request was refused after all). */
export function releaseLastSlot(): void {
  shared.scopes.getStore()?.releases.pop()?.();
}

/** Requests `bucket` has in flight now (for tests and health). */
export const inFlightOf = (bucket: string): number => shared.counts.get(bucket) ?? 0;
