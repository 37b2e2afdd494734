// /api/health at the edge. Under overload Next's pipeline reaches the health route only after the renders
// queued in front of it (the edge bench measured a p99 of 1 s at 50 connections), so the edge answers
// health from the route's latest answer — at most `maxAgeMs` old, its load numbers live — and asks the
// route again in the background over loopback. Until it has, or when its answer is over five times that
// old (the route is stuck or the loopback request fails), requests pass through to the route.
import type { LoadStatus } from './load';

export interface CachedHealth {
  status: number;
  body: Record<string, unknown>;
}

/** The header marking the edge's own refresh request, which must reach the route. */
export const HEALTH_REFRESH_HEADER = 'x-atlas-health-refresh';

export function createHealthCache(opts: { fetchFresh: () => Promise<CachedHealth>; load: LoadStatus; maxAgeMs: number }) {
  let latest: { at: number; health: CachedHealth } | undefined;
  let refreshing = false;

  const refresh = () => {
    if (refreshing) return;
    refreshing = true;
    opts
      .fetchFresh()
      .then((health) => (latest = { at: Date.now(), health }))
      // A failed refresh leaves the last answer; once it is stale, requests pass through to the route.
      .catch(() => undefined)
      .finally(() => (refreshing = false));
  };

  return {
    /** The answer to give now, or undefined to let the route answer. */
    answer(): CachedHealth | undefined {
      const age = latest ? Date.now() - latest.at : Infinity;
      if (age > opts.maxAgeMs / 2) refresh();
      if (!latest || age > opts.maxAgeMs * 5) return undefined;
      return { status: latest.health.status, body: { ...latest.health.body, load: { ...opts.load } } };
    },
  };
}
