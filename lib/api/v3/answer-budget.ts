// The cost of one v3 answer, bounded before its heavy part is read. A list's `limit` counts rows, but the
// rows of /traces, /events and /actions?include_transactions=true carry whole transactions: a page of 1000
// traces is 10+ MB of JSON and seconds of this process's only thread. An answer may carry at most
// API_MAX_ANSWER_TRANSACTIONS transactions in full (by default 1000, as many as the largest /transactions
// page toncenter allows); the rows are cheap to read and say how many theirs hold, so a page past it is
// refused with 422 before any transaction is read, naming the largest limit that fits.
//
// Why refused and not cut short: toncenter never answers fewer rows than asked while more exist, and
// clients read a short page as the end of the list (or step their offset by `limit`); a page silently cut
// would lose rows for them. A 422 saying which limit to ask is something every client notices.
import { unprocessable } from './errors';

/**
 * How many of the rows (in answer order) fit the budget: their transactions, `weights`, add up to at most
 * `budget`; one row always fits (a single trace of up to 4,000 transactions must stay readable).
 */
export function rowsWithinBudget(weights: number[], budget: number): number {
  let total = 0;
  for (let i = 0; i < weights.length; i++) {
    total += weights[i]!;
    if (total > budget) return Math.max(1, i);
  }
  return weights.length;
}

/**
 * Refuses (422) a page whose rows, `what`, carry more transactions than `budget`, saying how many of them
 * fit and how to read on.
 */
export function requireWithinBudget(weights: number[], budget: number, what: string): void {
  const fit = rowsWithinBudget(weights, budget);
  if (fit === weights.length) return;
  const total = weights.reduce((a, b) => a + b, 0);
  throw unprocessable(
    `these ${weights.length} ${what} carry ${total} transactions in full; one answer carries at most ${budget} ` +
      `(API_MAX_ANSWER_TRANSACTIONS): ask limit=${fit} and page on with offset (or the lt bounds)`,
  );
}

/** Transactions of each action in turn that no earlier action of the page brought already (the answer carries each once). */
export function newTransactionsPerRow(rows: { tx_hashes: Uint8Array[] }[]): number[] {
  const seen = new Set<string>();
  return rows.map((r) => {
    let fresh = 0;
    for (const h of r.tx_hashes) {
      const k = Buffer.from(h).toString('hex');
      if (!seen.has(k)) {
        seen.add(k);
        fresh++;
      }
    }
    return fresh;
  });
}
