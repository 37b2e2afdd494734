// Query options per resource: the same key and fetcher on the server (prefetch) and in the browser
// (hooks), so the hydrated cache is exactly what the client would have fetched.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchResource } from './fetcher';
import type { ParamsOf, ResourceName } from './registry';

export const resourceKey = <N extends ResourceName>(name: N, params: ParamsOf<N>) => ['api', name, params] as const;

export function resourceQuery<N extends ResourceName>(name: N, params: ParamsOf<N>) {
  return queryOptions({
    queryKey: resourceKey(name, params),
    queryFn: ({ signal }) => fetchResource(name, params, signal),
  });
}

interface HookOptions {
  /** Poll every n ms (health and the blocks list; everything else follows the Streaming API). */
  refetchInterval?: number;
  enabled?: boolean;
  /** Keep showing the previous answer while a new key loads (lists whose query follows live data). */
  keepPrevious?: boolean;
  /** Live views poll anyway: show a failure at once instead of retrying it away. */
  noRetry?: boolean;
  /** Read again whenever the tab comes back into view (someone who just sent from a wallet app returns). */
  refetchOnFocus?: boolean;
}

export function useResource<N extends ResourceName>(name: N, params: ParamsOf<N>, opts: HookOptions = {}) {
  return useQuery({
    ...resourceQuery(name, params),
    refetchInterval: opts.refetchInterval ?? false,
    enabled: opts.enabled,
    placeholderData: opts.keepPrevious ? keepPreviousData : undefined,
    ...(opts.noRetry ? { retry: false } : {}),
    ...(opts.refetchOnFocus ? { refetchOnWindowFocus: 'always' as const } : {}),
  });
}

/**
 * The metadata side map of some addresses (one /metadata request; none for an empty list). Order and
 * repeats do not change the query key.
 */
export function useMetadata(addresses: readonly (string | null | undefined)[]) {
  const address = [...new Set(addresses.filter((a): a is string => !!a))].sort();
  return useResource('metadata', { address }, { enabled: address.length > 0 }).data;
}
