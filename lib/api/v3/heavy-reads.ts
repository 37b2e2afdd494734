// Heavy reads take turns. A page of traces, of actions with their transactions or a long page of
// transactions reads and maps hundreds of transactions on this process's one thread (PGlite's queries run
// on it too); several at once do not end sooner — the thread is the bottleneck — but every light request
// and health check then waits behind all of them, stage by stage. So reads carrying more than
// HEAVY_TRANSACTIONS transactions run one at a time, in arrival order, and everything else passes them
// between their stages (the embedded database's reads take turns, a long list's after everyone else's and
// after pending I/O: lib/db/read-lanes.ts). A heavy read that waited past its request's budget (X-Timeout)
// is answered 504 without starting.

import { ReadLanes } from '../../db/read-lanes';

/** Transactions a read must carry to count as heavy (a /transactions?limit=200 page is not). */
const HEAVY_TRANSACTIONS = 200;
/** Heavy reads running at once in this process. */
const AT_ONCE = 1;

let running = 0;
const waiting: (() => void)[] = [];

/**
 * Runs `work`, a read carrying `transactions` transactions, in its turn when it is heavy. `checkBudget`
 * runs once the turn came (it throws when the request's budget was spent waiting).
 */
export async function heavyRead<T>(transactions: number, checkBudget: () => void, work: () => Promise<T>): Promise<T> {
  if (transactions <= HEAVY_TRANSACTIONS) return work();
  if (running < AT_ONCE) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve)); // woken holding the turn it is handed
  try {
    checkBudget();
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/**
 * Lets pending I/O (other requests, health) run before the next stretch of work on this thread: between a
 * heavy read's last query and its mapping, and before an answer is serialized.
 */
export const letIoIn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A list asking for more rows than this reads in the embedded database's low lane (lib/db/read-lanes.ts). */
const LIGHT_LIMIT = 100;

/**
 * Runs a request's `work` with its database reads in the low lane when it asks for a long list (`limit` over
 * LIGHT_LIMIT): every read of a short list or a lookup, and health's, then goes before its reads. Decided
 * from the request alone, so a long list's first reads (the rows that size its answer) yield too.
 */
export function inReadLane<T>(limit: unknown, work: () => T): T {
  return typeof limit === 'number' && limit > LIGHT_LIMIT ? ReadLanes.low(work) : work();
}

/** Heavy reads running and waiting now (tests). */
export const heavyReadsNow = () => ({ running, waiting: waiting.length });
