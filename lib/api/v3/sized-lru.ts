// The bounded caches of an API process (finished traces, finalized transactions' contents): entries
// weighed by an estimate of their JSON size, the least recently used dropped first past the budget.

/** What a cache holds (estimated bytes) against its budget: /api/health's `caches`. */
export interface CacheStats {
  entries: number;
  bytes: number;
  max_bytes: number;
}

export class SizedLru<V> {
  private readonly entries = new Map<string, { value: V; size: number; at: number }>();
  private size = 0;
  /** Counts insertions and moves: an entry's `at` orders it among the others. */
  private tick = 0;

  /** `maxBytes`: the budget of estimated sizes (`sizeOf`). */
  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    // Most recently used last: a Map keeps insertion order. Only an entry in the older half moves: one
    // among the newer half is far from eviction already, and a move (a delete and an insert) on every
    // hit churned the Map's table — the side-map cache looks up hundreds of accounts per answer.
    if (this.tick - e.at > this.entries.size >> 1) {
      this.entries.delete(key);
      this.entries.set(key, e);
      e.at = ++this.tick;
    }
    return e.value;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value);
    // One huge entry must not empty the cache of everything else.
    if (size > this.maxBytes / 16 || this.entries.has(key)) return;
    this.entries.set(key, { value, size, at: ++this.tick });
    this.size += size;
    for (const [k, e] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(k);
      this.size -= e.size;
    }
  }

  delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.size -= e.size;
  }

  clear(): void {
    this.entries.clear();
    this.size = 0;
  }

  get stats(): CacheStats {
    return { entries: this.entries.size, bytes: this.size, max_bytes: this.maxBytes };
  }
}
