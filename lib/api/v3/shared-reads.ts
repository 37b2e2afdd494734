// Identical GET requests that arrive while one of them is being read share that read: one run of the
// route and one serialization, every request then answered with the same bytes. Explorers and wallets
// ask for the same few things at once (the latest transactions, a popular account's page), and each
// answer otherwise costs its own queries, mapping and JSON. A joined answer is at most one read older
// than the moment it was asked, as an answer from a read replica may be (lib/db/replicas.ts). Every
// request still passes its own access check and keeps its own budget (X-Timeout); only in-flight reads are
// shared, nothing is kept after.

/**
 * A route's answer as the bytes of its JSON (encoded once: every request that shares it writes the same
 * bytes) and whether its lite reads were all proven (lib/api/proof-mark.ts).
 */
export interface SharedAnswer {
  json: Uint8Array<ArrayBuffer>;
  verified: boolean;
}

export class SharedReads {
  private readonly inFlight = new Map<string, Promise<SharedAnswer>>();
  /** Requests answered by a read another request started (tests). */
  joined = 0;

  /**
   * The answer of the read of `key` in flight, or of `read` started now. `joined` tells the caller its
   * answer comes from a read started for another request (under that request's budget).
   */
  run(key: string, read: () => Promise<SharedAnswer>): { answer: Promise<SharedAnswer>; joined: boolean } {
    const running = this.inFlight.get(key);
    if (running) {
      this.joined++;
      return { answer: running, joined: true };
    }
    const answer = read().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, answer);
    return { answer, joined: false };
  }

  /** Reads in flight now (tests). */
  get size(): number {
    return this.inFlight.size;
  }
}
