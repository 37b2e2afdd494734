/**
 * Which lite answers a piece of work read, and whether every one was checked by proof. The API marks an
 * answer as verified (X-Atlas-Verified: proof, lib/api/proof-mark.ts) only when its route builds it from
 * lite answers alone and all of them were checked: this ledger is how a route learns the second part.
 *
 *   const { value, proven } = await withLiteReads(() => accountAt(lite, address));
 *
 * CachedLiteEngine.query (every query of a LiteClient passes it, cache hits included) notes each read
 * with `checked` = its engine is a VerifyingLiteEngine that checks that function (cached answers were
 * checked before they were cached). What does not pass it is not counted: a LiteClient DataLoader hit
 * shared with a concurrent request (lookupBlockByID, getBlockHeader, getAccountState: all checked kinds;
 * getAllShardsInfo: no route that marks reads it). A ledger with no reads proves nothing.
 *
 * The store is one per process, not per module copy: Next bundles the route handlers apart from
 * instrumentation (where the lite client is made), and both must see the same ledger.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface LiteReads {
  count: number;
  unchecked: number;
}

const KEY = Symbol.for('atlas.lite.reads');
const holder = globalThis as typeof globalThis & { [KEY]?: AsyncLocalStorage<LiteReads> };
const store: AsyncLocalStorage<LiteReads> = (holder[KEY] ??= new AsyncLocalStorage<LiteReads>());

/** True when some work is counting its lite reads (callers skip the cost of classifying a read otherwise). */
export const countingLiteReads = (): boolean => store.getStore() !== undefined;

/** Notes one lite read of the current work, if it counts them. */
export function noteLiteRead(checked: boolean): void {
  const reads = store.getStore();
  if (!reads) return;
  reads.count++;
  if (!checked) reads.unchecked++;
}

/** Runs `work` counting its lite reads: `proven` when it read at least one answer and every one was checked by proof. */
export async function withLiteReads<T>(work: () => Promise<T>): Promise<{ value: T; proven: boolean }> {
  const reads: LiteReads = { count: 0, unchecked: 0 };
  const value = await store.run(reads, work);
  return { value, proven: reads.count > 0 && reads.unchecked === 0 };
}
