// Finished traces as /traces and /events serve them, kept in memory by each API process. A complete
// trace never changes: its transactions, messages and account states are final, and its actions are
// those of its classifier_version (a re-classification stores a new version, so a new key). The same
// traces are asked for again and again — wallets poll their account's traces, explorers refresh pages —
// and building one (its rows, messages and states read and mapped) is most of such an answer's cost.
// Bounded by an estimate of the answers' size; the least recently used go first. A kept trace is
// serialized once: later answers splice its bytes in.
import type { TraceJson } from './models/traces';
import type { TransactionJson } from './models/transactions';
import type { TraceRow } from './queries/traces';
import { hex } from './encode';
import { renderedOnce } from './serialize';
import { SizedLru } from './sized-lru';

export interface CachedTrace {
  json: TraceJson;
  /** The accounts its side maps cover (its transactions' and actions' addresses). */
  addresses: string[];
}

/** Kept traces by traceCacheKey; each is serialized once (serialize.ts renderedOnce). */
export class TraceCache {
  private readonly lru: SizedLru<CachedTrace>;

  /** `maxBytes`: the estimated JSON size of the traces kept (traceSize). */
  constructor(maxBytes: number) {
    this.lru = new SizedLru(maxBytes, (t) => traceSize(t.json));
  }

  get(key: string): CachedTrace | undefined {
    return this.lru.get(key);
  }

  set(key: string, trace: CachedTrace): void {
    renderedOnce(trace.json);
    this.lru.set(key, trace);
  }

  get stats() {
    return this.lru.stats;
  }
}

/**
 * The cache key of a trace answered with `actions` (the supported action types, sorted, or null
 * without actions), or null when the trace may still change: pending or broken, too large to serve
 * whole, or (with actions) not classified yet.
 */
export function traceCacheKey(r: TraceRow, actions: readonly string[] | null): string | null {
  if (r.state !== 'complete' || r.is_incomplete) return null;
  if (actions === null) return `${hex(r.trace_id)}`;
  if (r.classifier_version === null || (r.classification_state !== 'ok' && r.classification_state !== 'failed')) return null;
  return `${hex(r.trace_id)}:${r.classifier_version}:${actionsId(actions)}`;
}

// The supported action types as a short number: joined, they are hundreds of characters, and a key built
// and hashed with them for every trace of every answer was a tenth of a kept /events page's time. One
// list object serves a whole answer (joined once); a list's number never changes while the process runs.
// Lists are chosen by clients: past MAX_LISTS, a new one keys by its text (a number is never reused).
const ids = new Map<string, number>();
const idOfList = new WeakMap<readonly string[], number | string>();
const MAX_LISTS = 10_000;

function actionsId(actions: readonly string[]): number | string {
  let id = idOfList.get(actions);
  if (id === undefined) {
    const joined = actions.join(',');
    id = ids.get(joined) ?? (ids.size < MAX_LISTS ? ids.set(joined, ids.size).get(joined)! : `[${joined}]`);
    idOfList.set(actions, id);
  }
  return id;
}

// An estimate of a trace's JSON size: the message bodies and init states (base64) dominate large ones;
// the rest is close to fixed per transaction and action.
const PER_TRANSACTION = 2_500;
const PER_ACTION = 600;

function traceSize(t: TraceJson): number {
  const txs = t.transactions ? Object.values(t.transactions) : [];
  let size = 1_000 + PER_ACTION * (t.actions?.length ?? 0) + PER_TRANSACTION * txs.length;
  const message = (m: TransactionJson['in_msg']) => (m ? (m.message_content?.body?.length ?? 0) + (m.init_state?.body?.length ?? 0) : 0);
  for (const tx of txs) {
    size += message(tx.in_msg);
    for (const m of tx.out_msgs) size += message(m);
  }
  return size;
}
