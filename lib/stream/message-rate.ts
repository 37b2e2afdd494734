// A WebSocket's request budget (subscribe, unsubscribe, ping, or anything else it sends): every message
// costs the server a parse, and a subscribe re-indexes the connection, so a flood is refused per
// connection. Fixed one-second windows, each opened by the first message after the last one ended: the
// first message past the budget in a window is refused with words (the client can slow down); one more in
// that same window means the client did not listen, and the connection is closed.

export type RateVerdict = 'ok' | 'refuse' | 'close';

export class MessageRate {
  private windowStart = -Infinity;
  private count = 0;

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts one message and says what to do with it. */
  take(): RateVerdict {
    const t = this.now();
    if (t - this.windowStart >= 1000) {
      this.windowStart = t;
      this.count = 0;
    }
    this.count++;
    if (this.count <= this.perSecond) return 'ok';
    return this.count === this.perSecond + 1 ? 'refuse' : 'close';
  }

  /** The error a refused message is answered with. */
  refusal(): string {
    return `too many messages: at most ${this.perSecond} per second on one connection; this one was not carried out, and one more within this second closes the connection`;
  }

  /** The close reason (at most 123 bytes, as a close frame allows). */
  closeReason(): string {
    return `too many messages: over ${this.perSecond} per second after a warning`;
  }
}
