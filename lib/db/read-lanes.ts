// The embedded database answers one query at a time, on this process's thread, in the order asked. Under a
// flood of heavy reads (pages of a thousand traces, whose queries hold the thread for a few hundred ms each)
// a light read — a short list, a lookup — waited behind every query already queued, stage after stage of
// its request: a keyed client's p99 and health answered in seconds (issue 25). So the API's reads take
// turns in two lanes: a read made for a heavy request (ReadLanes.low marks it) waits while any other read
// is waiting. Before a low read's turn, pending I/O runs, so a request that just arrived can queue its
// read ahead of it; a light read waiting takes the turn at once, so the database never idles through a
// turn of the event loop while light reads queue (that halved the throughput of many light requests).
// A light read then waits for at most the query running now. PostgreSQL runs reads side by side on its
// pool and needs none of this.
import { AsyncLocalStorage } from 'node:async_hooks';

const lowLane = new AsyncLocalStorage<true>();

/** Turns of the reads on one embedded database: at most one at a time, light reads first. */
export class ReadLanes {
  #busy = false;
  readonly #light: (() => void)[] = [];
  readonly #low: (() => void)[] = [];

  /** Runs `fn` with every read it makes (through any ReadLanes) in the low lane. */
  static low<T>(fn: () => T): T {
    return lowLane.run(true, fn);
  }

  /**
   * Runs `read` in its turn. A read that finds no read running starts after pending I/O; a waiting light read
   * takes the turn as the read before it ends; a low one only after every light read and pending I/O.
   */
  async run<T>(read: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      if (this.#busy) (lowLane.getStore() ? this.#low : this.#light).push(resolve);
      else {
        this.#busy = true;
        setImmediate(resolve);
      }
    });
    try {
      return await read();
    } finally {
      // A low read's turn comes after pending I/O ran: a light read asked meanwhile goes first.
      if (this.#light.length) this.#next();
      else if (this.#low.length) setImmediate(() => this.#next());
      else this.#busy = false;
    }
  }

  /** Hands the turn to the next read waiting, light ones first. */
  #next(): void {
    const next = this.#light.shift() ?? this.#low.shift();
    if (next) next();
    else this.#busy = false;
  }

  /** Reads waiting now, by lane (tests). */
  get waiting() {
    return { light: this.#light.length, low: this.#low.length };
  }
}
