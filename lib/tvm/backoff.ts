// Repeat offenders of the TVM pool: a contract whose get-methods keep crashing the emulator or returning
// results past the limits, and a client that keeps asking for such runs. Each failure is a strike; enough
// strikes within the window refuse the key for a while (doubling each time it happens again, up to a cap),
// so an attacker hammering a hostile get-method is answered at once while honest runs keep the workers.
//
//   const contracts = new Backoff({ strikes: 3 });
//   contracts.refusedFor(address);   // seconds still refused, 0 when it may run
//   contracts.strike(address);       // after a failed run

export interface BackoffOptions {
  /** Strikes within windowMs that refuse the key. */
  strikes: number;
  windowMs?: number;
  /** First refusal; each later one doubles, up to maxMs. */
  baseMs?: number;
  maxMs?: number;
  /** Keys remembered at most (the oldest go first). */
  maxKeys?: number;
}

interface Entry {
  strikes: number[];
  until: number;
  /** Refusals so far: the next one lasts baseMs × 2^level. */
  level: number;
}

export class Backoff {
  private readonly entries = new Map<string, Entry>();
  private readonly windowMs: number;
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly maxKeys: number;

  constructor(private readonly o: BackoffOptions) {
    this.windowMs = o.windowMs ?? 60_000;
    this.baseMs = o.baseMs ?? 30_000;
    this.maxMs = o.maxMs ?? 600_000;
    this.maxKeys = o.maxKeys ?? 10_000;
  }

  /** Whole seconds `key` is still refused for; 0 when it is not. */
  refusedFor(key: string, now = Date.now()): number {
    const e = this.entries.get(key);
    return e && e.until > now ? Math.ceil((e.until - now) / 1000) : 0;
  }

  /** Records a failed run of `key`; returns the seconds it is now refused for (0: not yet). */
  strike(key: string, now = Date.now()): number {
    let e = this.entries.get(key);
    if (e) this.entries.delete(key);
    else if (this.entries.size >= this.maxKeys) this.entries.delete(this.entries.keys().next().value!);
    e ??= { strikes: [], until: 0, level: 0 };
    this.entries.set(key, e); // most recently struck last
    e.strikes = e.strikes.filter((t) => now - t < this.windowMs);
    e.strikes.push(now);
    if (e.strikes.length >= this.o.strikes) {
      e.until = now + Math.min(this.maxMs, this.baseMs * 2 ** e.level);
      e.level++;
      e.strikes = [];
    }
    return this.refusedFor(key, now);
  }

  /** Keys refused right now. */
  refusedCount(now = Date.now()): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.until > now) n++;
    return n;
  }
}
