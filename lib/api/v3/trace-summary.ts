// What a trace's transactions say of it where no stored row does (api-v3.md §3.5): a pending trace's
// (pending-json.ts) and a streamed trace's as the explorer shows it (lib/client/live.ts), and the order
// of a trace's transactions. It imports only types: the explorer's pages take it into the browser.
import type { TraceJson } from './models/traces';
import type { TransactionJson } from './models/transactions';

type Span = Pick<TraceJson, 'start_lt' | 'start_utime' | 'end_lt' | 'end_utime'>;
type Counters = Pick<TraceJson['trace_info'], 'messages' | 'transactions' | 'pending_messages'>;

/**
 * The trace's lt and time bounds, and its counters: a message one of its transactions sent to an account
 * is delivered once another of its transactions received it, pending until then.
 */
export function traceSummary(txs: TransactionJson[]): Span & { counters: Counters } {
  const lts = txs.map((t) => BigInt(t.lt));
  const received = new Set(txs.flatMap((t) => (t.in_msg ? [t.in_msg.hash] : [])));
  const sent = txs.flatMap((t) => t.out_msgs.filter((m) => m.destination !== null).map((m) => m.hash));
  const delivered = sent.filter((h) => received.has(h)).length;
  return {
    start_lt: String(lts.reduce((m, x) => (x < m ? x : m), lts[0] ?? 0n)),
    start_utime: Math.min(...txs.map((t) => t.now)),
    end_lt: String(lts.reduce((m, x) => (x > m ? x : m), 0n)),
    end_utime: Math.max(...txs.map((t) => t.now)),
    counters: { messages: delivered, transactions: txs.length, pending_messages: sent.length - delivered },
  };
}

/** toncenter's transactions_order: lt ascending, then account (the stored and the streamed trace's). */
export const byLtThenAccount = (a: TransactionJson, b: TransactionJson) => {
  const x = BigInt(a.lt);
  const y = BigInt(b.lt);
  return x < y ? -1 : x > y ? 1 : a.account < b.account ? -1 : a.account > b.account ? 1 : 0;
};
