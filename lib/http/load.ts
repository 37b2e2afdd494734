// What the HTTP server knows about its own load, for /api/health. The server (scripts/start.ts) and the
// health route live in different bundles (the route is compiled by Next, the server is not), so the one
// record sits on globalThis under a Symbol.for key rather than in module state.

export interface LoadStatus {
  /** Requests being answered right now. */
  in_flight: number;
  /** Requests answered 503 by load shedding since start. */
  shed: number;
  /** Requests answered 504 because they ran past REQUEST_TIMEOUT_MS, since start. */
  timed_out: number;
  /** p99 of the event-loop delay over the last full second, milliseconds. */
  event_loop_delay_p99_ms: number;
  /** Explorer pages (page-guard.ts), when the server guards them. */
  pages?: PageLoad;
}

export interface PageLoad {
  /** Page renders running now, and waiting for a slot now. */
  rendering: number;
  queued: number;
  /** Page requests answered 503 for want of a render slot, and 429 past a client's page budget, since start. */
  refused: number;
  limited: number;
}

const KEY = Symbol.for('atlas.http.load');

/** The live record the server updates; created on first use. */
export function loadRecord(): LoadStatus {
  const g = globalThis as Record<symbol, LoadStatus | undefined>;
  return (g[KEY] ??= { in_flight: 0, shed: 0, timed_out: 0, event_loop_delay_p99_ms: 0 });
}

/** A copy of the server's load numbers; undefined when no Atlas server fronts this process (next dev, tests). */
export function loadStatus(): LoadStatus | undefined {
  const rec = (globalThis as Record<symbol, LoadStatus | undefined>)[KEY];
  return rec && { ...rec };
}
