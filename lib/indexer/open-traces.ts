// The records of traces still in flight, kept in memory by the indexer between masterchain blocks so the
// block that completes one classifies it from records instead of reading its transactions, messages and
// bodies back (trace-input.ts loadTraces). Messages between shards take a masterchain block or more to be
// delivered, so on a sharded chain most traces are completed by a later block than the one that began
// them: reading them back was the largest part of the indexer's time on four shards.
//
// Only what committed is kept (the store adds a block's records after its transaction), and a trace is
// used from here only when the records held and the batch's add up to the count its stored row says (the
// store checks, traces.ts readTraces): whatever this process missed (a restart, a range backfill beside
// it, a trace evicted) is read back as before. Records are chain data, fixed by their hashes.
import type { MessageRecord, TransactionRecord } from '../chain/records';

/** A batch's records, as the store has them. */
export interface TraceRecords {
  transactions: TransactionRecord[];
  messages: MessageRecord[];
  /** Message contents (BoCs) by hash (hex). */
  bodies: Map<string, Buffer>;
}

export class OpenTraces {
  private readonly traces = new Map<string, TraceRecords>();
  // Out-messages of held transactions: message hash (hex) → trace_id.
  private readonly sent = new Map<string, Buffer>();
  private held = 0;

  /** `maxTransactions`: transactions held at most; the traces held longest are forgotten first. */
  constructor(private readonly maxTransactions: number) {}

  /** How many transactions of the trace (hex) are held. */
  count(traceHex: string): number {
    return this.traces.get(traceHex)?.transactions.length ?? 0;
  }

  /** The trace a stored out-message (hash hex) belongs to, when its sender is held. */
  senderTrace(msgHashHex: string): Buffer | undefined {
    return this.sent.get(msgHashHex);
  }

  /**
   * After a block committed: keeps the batch's records of the traces still in flight (`open`, trace_id
   * hex) and forgets the others it touched. `traceOf`: the batch's trace_id by transaction hash (hex).
   */
  update(batch: TraceRecords, traceOf: Map<string, Buffer>, open: Set<string>): void {
    const touched = new Set<string>();
    // The held trace of each transaction kept: its records and its id.
    const ofTx = new Map<string, { held: TraceRecords; id: Buffer }>();
    for (const t of batch.transactions) {
      const id = traceOf.get(t.hash.toString('hex'));
      if (!id) continue;
      const k = id.toString('hex');
      touched.add(k);
      if (!open.has(k)) continue;
      const held = this.entry(k);
      held.transactions.push(t);
      ofTx.set(t.hash.toString('hex'), { held, id });
      this.held++;
    }
    for (const m of batch.messages) {
      const of = ofTx.get(m.txHash.toString('hex'));
      if (!of) continue;
      const { held, id } = of;
      held.messages.push(m);
      if (m.direction === 'out') this.sent.set(m.msgHash.toString('hex'), id);
      const body = batch.bodies.get(m.bodyHash.toString('hex'));
      if (body) held.bodies.set(m.bodyHash.toString('hex'), body);
    }
    for (const k of touched) if (!open.has(k)) this.forget(k);
    for (const k of this.traces.keys()) {
      if (this.held <= this.maxTransactions) break;
      this.forget(k);
    }
  }

  /**
   * The batch with the records held of these traces (hex) added: their transactions, messages and bodies,
   * and the trace_id of each held transaction in `traceOf`.
   */
  withHeld<B extends TraceRecords & { traceOf: Map<string, Buffer> }>(traceHexes: Iterable<string>, batch: B): B {
    const out = { ...batch, transactions: [...batch.transactions], messages: [...batch.messages], bodies: new Map(batch.bodies), traceOf: new Map(batch.traceOf) };
    for (const k of traceHexes) {
      const held = this.traces.get(k);
      if (!held) continue;
      const id = Buffer.from(k, 'hex');
      for (const t of held.transactions) out.traceOf.set(t.hash.toString('hex'), id);
      out.transactions.push(...held.transactions);
      out.messages.push(...held.messages);
      for (const [h, b] of held.bodies) out.bodies.set(h, b);
    }
    return out;
  }

  get size() {
    return { traces: this.traces.size, transactions: this.held };
  }

  private entry(k: string): TraceRecords {
    let held = this.traces.get(k);
    if (!held) {
      held = { transactions: [], messages: [], bodies: new Map() };
      this.traces.set(k, held);
    }
    return held;
  }

  private forget(k: string): void {
    const held = this.traces.get(k);
    if (!held) return;
    this.held -= held.transactions.length;
    for (const m of held.messages) if (m.direction === 'out') this.sent.delete(m.msgHash.toString('hex'));
    this.traces.delete(k);
  }
}
