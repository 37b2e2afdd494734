// Server-side prefetch through the registry: the server components read the same public routes and hand
// the cache to the client (HydrationBoundary). The /api/v2 and /api/v3 reads go straight to the route
// handlers in this process (lib/api/dispatch.ts), the same code with the same checks as over HTTP, minus a
// loopback round trip through the HTTP server and Next's router per read, and never shed as overload: the
// page that makes them was already admitted. Anything else (/api/health) goes over loopback HTTP.
import { dehydrate, QueryClient } from '@tanstack/react-query';
import { apiDispatcher, apiRoutes, isDispatchedPath } from '@/lib/api/dispatch';
import { INTERNAL_HEADER, internalToken } from '@/lib/auth/internal';
import { config } from '@/lib/config';
import { services } from '@/lib/runtime';
import { fetchResource, setOrigin, type Send } from './fetcher';
import { resourceQuery } from './queries';
import type { ParamsOf, ResourceName } from './registry';

export const serverOrigin = () => `http://127.0.0.1:${config().port}`;

let dispatch: ((req: Request) => Promise<Response>) | undefined;
const inProcess: Send = (url, init) => {
  if (!isDispatchedPath(new URL(url).pathname)) return fetch(url, init);
  dispatch ??= apiDispatcher(apiRoutes(services, services));
  return dispatch(new Request(url, init));
};

/** The app's own reads are not counted against anyone's rate limit (lib/auth/internal.ts). */
const pointAtOwnServer = () => setOrigin(serverOrigin(), { [INTERNAL_HEADER]: internalToken() }, inProcess);

export function serverQueryClient() {
  pointAtOwnServer();
  return new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, retry: false } } });
}

/** Fetches into the cache and returns the data (throws ApiError on failure). */
export function prefetch<N extends ResourceName>(qc: QueryClient, name: N, params: ParamsOf<N>) {
  return qc.fetchQuery(resourceQuery(name, params));
}

/** Like prefetch, but a failure only leaves the query out of the cache (the client retries it). */
export async function tryPrefetch<N extends ResourceName>(qc: QueryClient, name: N, params: ParamsOf<N>) {
  try {
    return await prefetch(qc, name, params);
  } catch {
    return undefined;
  }
}

/**
 * Like tryPrefetch, but the render waits for it at most `ms`: a live read from the lite servers must not
 * hold up a page of index data while they are slow. Unfinished, it is left out of the dehydrated cache
 * (only answered queries are), and the browser reads it itself.
 */
export async function prefetchWithin<N extends ResourceName>(qc: QueryClient, name: N, params: ParamsOf<N>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([tryPrefetch(qc, name, params), waited]);
  clearTimeout(timer);
}

export const dehydrated = (qc: QueryClient) => dehydrate(qc);

/** One read outside a query cache (search resolution). */
export function serverFetch<N extends ResourceName>(name: N, params: ParamsOf<N>) {
  pointAtOwnServer();
  return fetchResource(name, params);
}
