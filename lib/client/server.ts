// Server-side prefetch through the registry: the server components fetch the same public routes from
// the app's own loopback origin and hand the cache to the client (HydrationBoundary).
import { dehydrate, QueryClient } from '@tanstack/react-query';
import { INTERNAL_HEADER, internalToken } from '@/lib/auth/internal';
import { config } from '@/lib/config';
import { fetchResource, setOrigin } from './fetcher';
import { resourceQuery } from './queries';
import type { ParamsOf, ResourceName } from './registry';

export const serverOrigin = () => `http://127.0.0.1:${config().port}`;
/** The app's own reads are not counted against anyone's rate limit (lib/auth/internal.ts). */
const pointAtOwnServer = () => setOrigin(serverOrigin(), { [INTERNAL_HEADER]: internalToken() });

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

export const dehydrated = (qc: QueryClient) => dehydrate(qc);

/** One read outside a query cache (search resolution). */
export function serverFetch<N extends ResourceName>(name: N, params: ParamsOf<N>) {
  pointAtOwnServer();
  return fetchResource(name, params);
}
