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

export class BlockProducer {
  readonly #blocks: Ticker;
  readonly #traffic: Ticker | undefined;

  constructor(chain: DevnetChain, opts: ProducerOptions) {
    const log = opts.log;
    this.#blocks = new Ticker(opts.blockMs, async () => {
      try {
        const round = await chain.seal();
        if (round.txs.length > 0) log?.debug({ seqno: round.seqno, txs: round.txs.length }, 'devnet round sealed');
      } catch (e) {
        log?.error({ err: e instanceof Error ? e.message : String(e) }, 'devnet: sealing a round failed');
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

  start(): void {
    this.#blocks.start();
    this.#traffic?.start();
  }

  async stop(): Promise<void> {
    await Promise.all([this.#traffic?.stop(), this.#blocks.stop()]);
  }
}
