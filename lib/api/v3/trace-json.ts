// A stored trace with its transactions as v3's Trace (api-v3.md §3.5: trace_info, transactions_order,
// the trace tree); the rows come from queries/traces.ts.
import { b64 } from './encode';
import type { TraceJson, TraceNodeJson } from './models/traces';
import type { TransactionJson } from './models/transactions';
import type { TraceRow } from './queries/traces';
import { byLtThenAccount } from './trace-summary';

/**
 * The tree: each transaction hangs under the earlier transaction that sent its in-message. children is
 * [] for a transaction that sent nothing and null for one whose messages led to no transaction of the
 * trace (toncenter's shape).
 */
export function traceTree(txs: TransactionJson[]): { order: string[]; root: TraceNodeJson | null; missing: boolean } {
  const sorted = [...txs].sort(byLtThenAccount);
  const nodes = new Map<string, TraceNodeJson>();
  const sentBy = new Map<string, TraceNodeJson>();
  let root: TraceNodeJson | null = null;
  let missing = false;
  for (const t of sorted) {
    const node: TraceNodeJson = { tx_hash: t.hash, ...(t.in_msg ? { in_msg_hash: t.in_msg.hash } : {}), children: t.out_msgs.length ? null : [] };
    nodes.set(t.hash, node);
    const parent = t.in_msg ? sentBy.get(t.in_msg.hash) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else if (!root) root = node;
    else missing = true;
    for (const m of t.out_msgs) sentBy.set(m.hash, node);
  }
  return { order: sorted.map((t) => t.hash), root, missing };
}

/** v3's Trace (api-v3.md §3.5) from its row, its transactions (when loaded) and actions (when asked). */
export function traceJson(r: TraceRow, txs: TransactionJson[] | null, actions: TraceJson['actions']): TraceJson {
  const warnings: string[] = [];
  if (r.is_incomplete) warnings.push('trace is too large');
  const out: TraceJson = {
    trace_id: b64(r.trace_id),
    external_hash: r.external_hash ? b64(r.external_hash) : null,
    mc_seqno_start: String(r.mc_seqno_start),
    mc_seqno_end: String(r.mc_seqno_end),
    start_lt: String(r.start_lt),
    start_utime: r.start_utime,
    end_lt: String(r.end_lt),
    end_utime: r.end_utime,
    trace_info: {
      trace_state: r.state,
      messages: r.messages,
      transactions: r.transactions,
      pending_messages: r.pending_messages,
      classification_state: r.classification_state,
    },
    is_incomplete: r.is_incomplete,
  };
  let tree: ReturnType<typeof traceTree> | null = null;
  if (txs?.length) {
    tree = traceTree(txs);
    if (tree.missing) warnings.push('missing node in trace found');
  }
  if (warnings.length) out.warning = warnings.join(', ');
  if (actions) out.actions = actions;
  if (tree?.root && txs) {
    out.trace = tree.root;
    out.transactions_order = tree.order;
    out.transactions = Object.fromEntries(txs.map((t) => [t.hash, t]));
  }
  return out;
}
