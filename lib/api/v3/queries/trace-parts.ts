// What stored traces are made of, read at once: their transactions' rows, messages (read by trace id beside
// the transactions) and states, and their action rows. The /traces route and the Streaming API's
// finalized events (lib/stream) both map these with the same renderers.
import type { Transaction } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { hex } from '../encode';
import type { TransactionJson } from '../models/transactions';
import { actionsOfTraces, type ActionRow } from './actions';
import { servedWhole, transactionsOfTraces, type TraceRow } from './traces';
import { messagesOfTraces, transactionParts, type TransactionParts } from './transactions-load';
import type { TransactionCache } from '../transaction-cache';

/** What is read of the traces before their transactions' account states: rows, messages, action rows. */
export interface TraceRows {
  rows: Transaction[];
  messages: TransactionParts['messages'];
  actions: Map<string, ActionRow[]> | null;
}

/**
 * `actions`: the supported types whose visible actions to read, null for every action (nested ones
 * too), false for none. `cache`: the process's kept transactions (transactionParts). `alongside`: reads
 * that need only the rows, messages and actions, run side by side with the account states instead of
 * after them (the Streaming API's side maps and action accounts: a block's traces go out a round of
 * queries sooner); its answer comes back as `alongside`.
 */
export async function traceParts<T = undefined>(
  sql: SqlReader,
  rows: TraceRow[],
  actions: string[] | null | false,
  o: { cache?: TransactionCache; alongside?: (read: TraceRows) => Promise<T> } = {},
): Promise<{ parts: TransactionParts; actions: Map<string, ActionRow[]> | null; alongside: T }> {
  const messages = messagesOfTraces(sql, servedWhole(rows));
  messages.catch(() => undefined); // awaited in transactionParts; a failure before that is the other reads'
  const [txRows, actionRows] = await Promise.all([
    transactionsOfTraces(sql, rows),
    actions === false ? Promise.resolve(null) : actionsOfTraces(sql, rows.map((r) => r.trace_id), actions),
  ]);
  const alongside = o.alongside ?? (async () => undefined as T);
  const [parts, more] = await Promise.all([
    transactionParts(sql, txRows, { traceExternals: new Map(rows.map((r) => [hex(r.trace_id), r.external_hash])), messages, cache: o.cache }),
    messages.then((m) => alongside({ rows: txRows, messages: m, actions: actionRows })),
  ]);
  return { parts, actions: actionRows, alongside: more };
}

/** Mapped transactions by their trace id (base64), in the order given. */
export function transactionsByTrace(txs: TransactionJson[]): Map<string, TransactionJson[]> {
  const byTrace = new Map<string, TransactionJson[]>();
  for (const t of txs) {
    if (!t.trace_id) continue;
    // Appended in place: copying the list per transaction was quadratic in a trace's size (up to 4,000).
    const list = byTrace.get(t.trace_id);
    if (list) list.push(t);
    else byTrace.set(t.trace_id, [t]);
  }
  return byTrace;
}
