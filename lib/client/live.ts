'use client';
// The explorer's pages follow the chain through the Streaming API (/api/streaming/v2/ws), the same
// protocol API users get: one WebSocket per live view, its subscription sent on every (re)connection,
// reconnected with exponential back-off after a drop, and a catch-up read of v3 (the view's queries read
// again) after any gap, since a stream never replays what it missed.
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ActionJson } from '@/lib/api/v3/models/actions';
import type { TraceJson } from '@/lib/api/v3/models/traces';
import type { TransactionJson } from '@/lib/api/v3/models/transactions';
import { byLtThenAccount, traceSummary } from '@/lib/api/v3/trace-summary';
import type { NotificationJson, TraceNotificationJson } from '@/lib/stream/protocol';

export interface LiveSubscription {
  types: string[];
  addresses?: string[];
  trace_external_hash_norms?: string[];
  min_finality?: 'pending' | 'confirmed' | 'finalized';
  include_address_book?: boolean;
}

export type LiveState = 'connecting' | 'live' | 'reconnecting';

/** Back-off after the nth failed attempt in a row: 1 s doubling to 30 s, with jitter so pages do not reconnect in step. */
export const reconnectDelayMs = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5)) * (0.75 + Math.random() / 2);

const streamUrl = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/streaming/v2/ws`;

/**
 * Opens the stream for `sub`, calling `onNotification` with each notification and `onGap` when it
 * (re)subscribes after having been down (not on the first subscription: the page was just read).
 * Returns the function that closes it for good.
 */
export function openLive(
  sub: LiveSubscription,
  on: { notification(n: NotificationJson): void; gap(): void; state(s: LiveState): void },
  opts: { catchUpFirst?: boolean } = {},
): () => void {
  let ws: WebSocket | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let everSubscribed = false;
  let stopped = false;
  const connect = () => {
    on.state(everSubscribed ? 'reconnecting' : 'connecting');
    const socket = (ws = new WebSocket(streamUrl()));
    socket.onopen = () => socket.send(JSON.stringify({ id: 'live', operation: 'subscribe', ...sub }));
    socket.onmessage = (e) => {
      const msg = JSON.parse(String(e.data)) as NotificationJson & { id?: string; status?: string };
      if (msg.id === 'live') {
        if (msg.status !== 'subscribed') return;
        attempt = 0;
        on.state('live');
        if (everSubscribed || opts.catchUpFirst) on.gap();
        everSubscribed = true;
        return;
      }
      if ('type' in msg) on.notification(msg);
    };
    socket.onclose = () => {
      if (stopped) return;
      on.state(everSubscribed ? 'reconnecting' : 'connecting');
      timer = setTimeout(connect, reconnectDelayMs(attempt++));
    };
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    ws?.close();
  };
}

/**
 * A live view: follows `sub` (none while null) for as long as the component is mounted. `onNotification`
 * updates the view's cached queries; after a gap the queries under `catchUp` are read again (with
 * `catchUpFirst` also once subscribed: a view of something changing by the second, read just before).
 */
export function useLive(
  sub: LiveSubscription | null,
  onNotification: (n: NotificationJson) => void,
  catchUp: (key: QueryKey) => boolean,
  opts: { catchUpFirst?: boolean } = {},
): LiveState | null {
  const qc = useQueryClient();
  const [state, setState] = useState<LiveState | null>(null);
  const handlers = useRef({ onNotification, catchUp });
  useEffect(() => {
    handlers.current = { onNotification, catchUp };
  });
  const key = sub ? JSON.stringify(sub) : null;
  const catchUpFirst = opts.catchUpFirst ?? false;
  useEffect(() => {
    if (!key) return;
    return openLive(
      JSON.parse(key) as LiveSubscription,
      {
        notification: (n) => handlers.current.onNotification(n),
        gap: () => void catchUpReads(qc, (key) => handlers.current.catchUp(key)),
        state: setState,
      },
      { catchUpFirst },
    );
  }, [key, qc, catchUpFirst]);
  return key ? state : null;
}

/**
 * After a gap (or the first subscription): the queries `match` picks read again, each read begun after
 * the stream was subscribed, so nothing the stream sent before it is missed. A read already under way
 * began before: it is not cut short (its request would fail) but read once more when it ends — its answer
 * may predate an event the stream sent before the subscription (a trace finalized while the page loaded).
 */
export async function catchUpReads(qc: QueryClient, match: (key: QueryKey) => boolean): Promise<void> {
  const begunBefore = new Set(qc.getQueryCache().findAll({ predicate: (q) => match(q.queryKey) && q.state.fetchStatus === 'fetching' }));
  await qc.invalidateQueries({ predicate: (q) => match(q.queryKey) }, { cancelRefetch: false });
  if (begunBefore.size) await qc.invalidateQueries({ predicate: (q) => begunBefore.has(q) }, { cancelRefetch: false });
}

/** How long a view waits for more news before reading again (a block brings several notifications at once). */
const REFRESH_DELAY_MS = 250;
/** A view reads again at most this often, however busy the account or the chain. */
const REFRESH_MIN_INTERVAL_MS = 1000;

/**
 * Reads a view's queries (those `match` picks) again, soon: the notifications of one block come together
 * and make one read, and nothing is read again while any read of the page is under way — cutting one short
 * would fail its request, and the queries that follow another's answer (their keys change with it) must
 * finish before it moves on; the view reads again once they end.
 */
export function scheduleRefresh(qc: QueryClient, match: (key: QueryKey) => boolean, pending: { timer?: ReturnType<typeof setTimeout>; last?: number }): void {
  if (pending.timer) return;
  const run = () => {
    const wait = (pending.last ?? 0) + REFRESH_MIN_INTERVAL_MS - Date.now();
    if (qc.isFetching() || wait > 0) {
      pending.timer = setTimeout(run, Math.max(REFRESH_DELAY_MS, wait));
      return;
    }
    pending.timer = undefined;
    pending.last = Date.now();
    void qc.invalidateQueries({ predicate: (q) => match(q.queryKey) }, { cancelRefetch: false });
  };
  pending.timer = setTimeout(run, REFRESH_DELAY_MS);
}

/** A view's refresh (scheduleRefresh) for the queries `match` picks, stable across renders. */
export function useRefresh(match: (key: QueryKey) => boolean): () => void {
  const qc = useQueryClient();
  const state = useRef<{ timer?: ReturnType<typeof setTimeout>; last?: number; match: (key: QueryKey) => boolean }>({ match });
  useEffect(() => {
    state.current.match = match;
  });
  useEffect(() => () => clearTimeout(state.current.timer), []);
  return useCallback(() => scheduleRefresh(qc, (k) => state.current.match(k), state.current), [qc]);
}

/** The API queries of a view (keys ['api', resource, params]). */
export const apiQuery = (key: QueryKey, ...resources: string[]) => key[0] === 'api' && (!resources.length || resources.includes(String(key[1])));

/** A trace notification as v3's Trace, for the trace views (its counters from its transactions). */
export function traceFromNotification(n: TraceNotificationJson): TraceJson {
  const txs = Object.values(n.transactions) as TransactionJson[];
  const { counters, ...span } = traceSummary(txs);
  const root = n.transactions[n.trace.tx_hash] as TransactionJson | undefined;
  const order = [...txs].sort(byLtThenAccount).map((t) => t.hash);
  const seqnos = txs.map((t) => t.mc_block_seqno ?? 0);
  return {
    trace_id: root?.trace_id ?? null,
    external_hash: root?.in_msg?.hash ?? null,
    mc_seqno_start: String(Math.min(...seqnos)),
    mc_seqno_end: String(Math.max(...seqnos)),
    ...span,
    trace_info: { trace_state: counters.pending_messages > 0 ? 'pending' : 'complete', ...counters, classification_state: n.actions ? 'ok' : 'unclassified' },
    is_incomplete: false,
    actions: (n.actions ?? []) as ActionJson[],
    trace: n.trace,
    transactions_order: order,
    transactions: n.transactions as Record<string, TransactionJson>,
  };
}

/** The normalized hash a stored or pending trace is streamed under: its root's external message's. */
export function traceNorm(trace: TraceJson | undefined): string | undefined {
  const root = trace?.trace && trace.transactions?.[trace.trace.tx_hash];
  return root && !root.in_msg?.source ? (root.in_msg?.hash_norm ?? undefined) : undefined;
}
