// Synthetic traces built message by message from a protocol's own layouts: who sends which body to
// whom, which step fails (aborted, and the bounce back when the message was bounceable). The input is
// the classifier's model (lib/actions/model.ts), as the fixture traces and lib/testing/trace-mutations
// use it, so synthetic traces go through the same metamorphic and property suites as the real ones.
import { beginCell, type Cell } from '@ton/core';
import { cellFromBoc } from '../actions/cells';
import type { AccountInterfaces, TraceMessage, TraceTransaction } from '../actions/model';
import { seededRng, type Rng } from '../fuzz/rng';
import { freshAddress, type Input } from './trace-mutations';

export interface Send {
  value?: bigint;
  body?: Cell | null;
  bounce?: boolean;
}

const opcodeOf = (body: Cell | null | undefined) => (body && body.bits.length >= 32 ? body.beginParse().preloadUint(32) : null);
const hashOf = (rng: Rng) => Buffer.from(Array.from({ length: 32 }, () => rng.int(256))).toString('base64');

export class TraceBuilder {
  private readonly rng: Rng;
  private lt = 50_000_000_000_000n;
  private readonly now = 1_760_000_000;
  readonly transactions: TraceTransaction[] = [];
  readonly interfaces = new Map<string, AccountInterfaces>();

  constructor(seed: string) {
    this.rng = seededRng(`trace-builder:${seed}`);
  }

  /** A fresh basechain address (raw, upper case). */
  address(): string {
    return freshAddress(this.rng);
  }

  private tx(account: string, inMsg: TraceMessage | null): TraceTransaction {
    this.lt += 1000n;
    const t: TraceTransaction = {
      hash: hashOf(this.rng),
      account,
      lt: this.lt,
      now: this.now,
      mcSeqno: 50_000_000,
      origStatus: 'active',
      endStatus: 'active',
      aborted: false,
      computeExitCode: 0,
      tickTock: false,
      inMsg,
      outMsgs: [],
    };
    this.transactions.push(t);
    return t;
  }

  /** The trace's start: an external message to a wallet (its body is not read by the matchers here). */
  external(wallet: string): TraceTransaction {
    return this.tx(wallet, { hash: hashOf(this.rng), source: null, destination: wallet, value: null, fwdFee: null, bounce: null, bounced: null, createdLt: null, opcode: null, body: null });
  }

  private message(from: TraceTransaction, to: string, m: Send, bounced = false): TraceMessage {
    const msg: TraceMessage = {
      hash: hashOf(this.rng),
      source: from.account,
      destination: to,
      value: m.value ?? 50_000_000n,
      fwdFee: 1_000_000n,
      bounce: m.bounce ?? true,
      bounced,
      createdLt: from.lt + BigInt(from.outMsgs.length + 1),
      opcode: opcodeOf(m.body),
      body: m.body ? m.body.toBoc() : null,
    };
    from.outMsgs.push(msg);
    return msg;
  }

  /** `from` sends a message that `to` receives: the receiving transaction. */
  send(from: TraceTransaction, to: string, m: Send = {}): TraceTransaction {
    return this.tx(to, { ...this.message(from, to, m) });
  }

  /** `from` logs an external-out message (an event). */
  log(from: TraceTransaction, body: Cell): void {
    from.outMsgs.push({
      hash: hashOf(this.rng),
      source: from.account,
      destination: null,
      value: null,
      fwdFee: null,
      bounce: null,
      bounced: null,
      createdLt: from.lt + BigInt(from.outMsgs.length + 1),
      opcode: opcodeOf(body),
      body: body.toBoc(),
    });
  }

  /** `from` sends a message still in flight when the trace was cut (never received). */
  sendUndelivered(from: TraceTransaction, to: string, m: Send = {}): void {
    this.message(from, to, m);
  }

  /**
   * The transaction failed (compute exit code, aborted); a bounceable message comes back to its sender
   * (bounced, 0xffffffff and the start of the body) with what was left of its value.
   */
  fail(t: TraceTransaction, exitCode = 100): TraceTransaction | null {
    t.aborted = true;
    t.computeExitCode = exitCode;
    const m = t.inMsg;
    if (!m?.source || !m.bounce) return null;
    const body = beginCell().storeUint(0xffffffff, 32);
    if (m.body) {
      const bits = cellFromBoc(m.body).bits;
      body.storeBits(bits.substring(0, Math.min(256, bits.length)));
    }
    return this.tx(m.source, { ...this.message(t, m.source, { value: (m.value ?? 0n) / 2n, body: body.endCell(), bounce: false }, true) });
  }

  input(): Input {
    const first = this.transactions[0]!;
    const last = this.transactions[this.transactions.length - 1]!;
    return {
      trace: {
        traceId: first.hash,
        externalHash: first.inMsg?.source === null ? first.inMsg.hash : null,
        mcSeqnoEnd: last.mcSeqno!,
        endLt: last.lt,
        endUtime: last.now,
        transactions: this.transactions,
      },
      interfaces: this.interfaces,
    };
  }
}
