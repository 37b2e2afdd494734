/**
 * Timers of a running devnet: a round every `blockMs` (basechain block, then masterchain block)
 * and, when traffic is on, one traffic step per second (the generator sends ~tps externals a
 * step). Neither timer overlaps itself: a slow seal or step delays the next one instead of
 * stacking up, and stop() waits for whatever is in flight.
 */
import type { DevnetChain, ChainLogger } from './chain';
import type { TrafficGenerator } from './genesis/traffic';

export interface ProducerOptions {
  blockMs: number;
  traffic?: TrafficGenerator;
  /** Interval of traffic steps (default 1000 ms: the generator's step sends ~tps messages). */
  trafficStepMs?: number;
  log?: ChainLogger;
}

class Ticker {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly tick: () => Promise<void>,
  ) {}

  start(): void {
    this.#schedule(this.intervalMs);
  }

  #schedule(delay: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      const started = Date.now();
      this.#running = this.tick().finally(() => {
        this.#running = undefined;
        // Keep the cadence: the next tick is intervalMs after this one started (at least 0 ms later).
        this.#schedule(Math.max(0, this.intervalMs - (Date.now() - started)));
      });
    }, delay);
    this.#timer.unref?.();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
  }
}

/** The block producer as /api/health shows it: degraded when no block was sealed for a while. */
export interface ProducerStatus {
  state: 'ok' | 'degraded';
  /** Why it is degraded. */
  reason?: string;
  blockMs: number;
  lastBlockAt: string;
  lastSeqno: number;
  /** Seals that failed in a row, and the last one's error. */
  failuresInRow: number;
  lastError?: { at: string; error: string };
}

/** A producer is stuck when no block was sealed for this many intervals (and at least STUCK_MIN_MS). */
const STUCK_INTERVALS = 5;
const STUCK_MIN_MS = 10_000;

export class BlockProducer {
  readonly #blocks: Ticker;
  readonly #traffic: Ticker | undefined;
  readonly #blockMs: number;
  #lastBlockAt = Date.now();
  #lastSeqno: number;
  #failuresInRow = 0;
  #lastError: { at: string; error: string } | undefined;

  constructor(chain: DevnetChain, opts: ProducerOptions) {
    const log = opts.log;
    this.#blockMs = opts.blockMs;
    this.#lastSeqno = chain.lastSeqno;
    this.#blocks = new Ticker(opts.blockMs, async () => {
      try {
        const round = await chain.seal();
        this.#lastBlockAt = Date.now();
        this.#lastSeqno = round.seqno;
        this.#failuresInRow = 0;
        if (round.txs.length > 0) log?.debug({ seqno: round.seqno, txs: round.txs.length }, 'devnet round sealed');
      } catch (e) {
        this.#failuresInRow++;
        this.#lastError = { at: new Date().toISOString(), error: e instanceof Error ? e.message : String(e) };
        log?.error({ err: this.#lastError.error }, 'devnet: sealing a round failed');
      }
    });
    const traffic = opts.traffic;
    this.#traffic = traffic
      ? new Ticker(opts.trafficStepMs ?? 1000, async () => {
          try {
            await traffic.step();
          } catch (e) {
            log?.warn({ err: e instanceof Error ? e.message : String(e) }, 'devnet: traffic step failed');
          }
        })
      : undefined;
  }

  status(now = Date.now()): ProducerStatus {
    const silentMs = now - this.#lastBlockAt;
    const stuck = silentMs > Math.max(STUCK_MIN_MS, STUCK_INTERVALS * this.#blockMs);
    const reason = stuck
      ? `no block sealed for ${Math.round(silentMs / 1000)} s (every ${this.#blockMs} ms expected)` + (this.#lastError && this.#failuresInRow ? `; ${this.#failuresInRow} seals failed in a row, the last: ${this.#lastError.error}` : '')
      : undefined;
    return {
      state: reason ? 'degraded' : 'ok',
      ...(reason && { reason }),
      blockMs: this.#blockMs,
      lastBlockAt: new Date(this.#lastBlockAt).toISOString(),
      lastSeqno: this.#lastSeqno,
      failuresInRow: this.#failuresInRow,
      ...(this.#lastError && { lastError: this.#lastError }),
    };
  }

  start(): void {
    this.#lastBlockAt = Date.now();
    this.#blocks.start();
    this.#traffic?.start();
  }

  async stop(): Promise<void> {
    await Promise.all([this.#traffic?.stop(), this.#blocks.stop()]);
  }
}
