// When data streamed below finalized turns out void (trace_invalidated): a pending trace whose real
// transactions did not do what the emulator predicted, or that never landed; a confirmed trace whose
// transactions are not the ones its masterchain block committed (the shard block was replaced). The
// indexing process asks before it publishes a trace at a higher finality, so the invalidation reaches
// clients before the data that replaces it.
import type { TransactionJson } from '../api/v3/models/transactions';
import type { InvalidatedEvent, TraceEvent } from './events';

interface Seen {
  finality: 'pending' | 'confirmed';
  /** What each transaction did (pending: to compare with what really happens). */
  outline: string[];
  /** The confirmed transactions (they must all be in the finalized trace). */
  hashes: Set<string>;
  accounts: string[];
  /** When it is void if nothing of it was finalized (ms since the epoch); Infinity once a part of it was. */
  deadline: number;
}

/** True when every message the transactions sent to an account was received by one of them (nothing in flight). */
export function whole(txs: TransactionJson[]): boolean {
  const received = new Set(txs.flatMap((t) => (t.in_msg ? [t.in_msg.hash] : [])));
  return txs.every((t) => t.out_msgs.every((m) => m.destination === null || received.has(m.hash)));
}

/**
 * What each transaction did, one line each, sorted (emulated and real lts differ): account, the
 * in-message's opcode (ext for the external), whether the compute phase succeeded, whether it aborted.
 */
export function outline(txs: TransactionJson[]): string[] {
  return txs
    .map((t) => {
      const compute = t.description.compute_ph;
      const ok = compute && !compute.skipped ? compute.success : null;
      return `${t.account}|${t.in_msg?.source ? (t.in_msg.opcode ?? '') : 'ext'}|${ok}|${t.description.aborted ?? false}`;
    })
    .sort();
}

/** True when every line of `part` is in `whole` (as many times). */
function within(part: string[], whole: string[]): boolean {
  const left = new Map<string, number>();
  for (const x of whole) left.set(x, (left.get(x) ?? 0) + 1);
  return part.every((x) => {
    const n = left.get(x) ?? 0;
    left.set(x, n - 1);
    return n > 0;
  });
}

const isSubset = (a: Set<string>, b: Set<string>) => [...a].every((x) => b.has(x));

/** Traces remembered at most; the oldest is forgotten first. */
const MAX_TRACES = 100_000;

export class InvalidationTracker {
  private readonly traces = new Map<string, Seen>();

  /** `landingMs`: how long a trace may stay below finalized before it is declared void. */
  constructor(private readonly landingMs: number) {}

  /** A trace published below finalized (by any process). */
  observe(e: TraceEvent): void {
    if (e.finality === 'finalized') return;
    const before = this.traces.get(e.norm);
    // A pending prediction arriving after the confirmed data changes nothing.
    if (before?.finality === 'confirmed' && e.finality === 'pending') return;
    this.traces.delete(e.norm);
    this.traces.set(e.norm, {
      finality: e.finality,
      outline: outline(e.transactions),
      hashes: new Set(e.transactions.map((t) => t.hash)),
      accounts: [...new Set(e.transactions.map((t) => t.account))],
      deadline: before?.deadline ?? Date.now() + this.landingMs,
    });
    if (this.traces.size > MAX_TRACES) this.traces.delete(this.traces.keys().next().value!);
  }

  /**
   * Before `e` (confirmed or finalized) is published: the invalidation of what was streamed of its trace
   * before, when that was not what happened; null when it holds. A trace spanning several blocks is
   * finalized a block at a time: each part must be what was predicted, and the whole, once its last
   * message landed, all of it; confirmed transactions must all be in the whole.
   */
  judge(e: TraceEvent): InvalidatedEvent | null {
    const before = this.traces.get(e.norm);
    if (!before) return null;
    const real = outline(e.transactions);
    const complete = e.finality === 'finalized' && whole(e.transactions);
    const void_ =
      before.finality === 'pending'
        ? !within(real, before.outline) || (complete && real.length !== before.outline.length)
        : complete && !isSubset(before.hashes, new Set(e.transactions.map((t) => t.hash)));
    if (complete || void_) this.traces.delete(e.norm);
    // Landed: whatever else happens, it is no longer a message that never arrived.
    else if (e.finality === 'finalized') before.deadline = Infinity;
    return void_ ? { kind: 'invalidated', norm: e.norm, accounts: before.accounts, at: Date.now() } : null;
  }

  /** The traces whose deadline passed with nothing finalized: each is void (and forgotten). */
  expired(now = Date.now()): InvalidatedEvent[] {
    const out: InvalidatedEvent[] = [];
    for (const [norm, seen] of this.traces) {
      if (seen.deadline > now) continue;
      this.traces.delete(norm);
      out.push({ kind: 'invalidated', norm, accounts: seen.accounts, at: now });
    }
    return out;
  }
}
