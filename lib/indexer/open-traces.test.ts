// What the indexer holds of traces in flight between blocks: kept while open, forgotten once complete
// (or broken), bounded, and the senders' out-messages found by hash.
import { describe, expect, it } from 'vitest';
import type { MessageRecord, TransactionRecord } from '../chain/records';
import { OpenTraces } from './open-traces';

const h = (n: number) => Buffer.alloc(32, n);
const tx = (n: number) => ({ hash: h(n), lt: BigInt(n) }) as TransactionRecord;
const out = (from: number, msg: number, body: number) => ({ txHash: h(from), msgHash: h(msg), direction: 'out', bodyHash: h(body) }) as MessageRecord;

/** A batch of `txs` (all of trace `trace`), each sending one message 100+n with body 200+n. */
function batch(trace: number, txs: number[]) {
  return {
    records: { transactions: txs.map(tx), messages: txs.map((n) => out(n, 100 + n, 200 + n)), bodies: new Map(txs.map((n) => [h(200 + n).toString('hex'), Buffer.from([n])])) },
    traceOf: new Map(txs.map((n) => [h(n).toString('hex'), h(trace)])),
  };
}
const id = (n: number) => h(n).toString('hex');

describe('OpenTraces', () => {
  it('holds the records of open traces only, and finds a held sender by its out-message', () => {
    const open = new OpenTraces(100);
    const a = batch(1, [1, 2]);
    const b = batch(5, [5]);
    const both = { transactions: [...a.records.transactions, ...b.records.transactions], messages: [...a.records.messages, ...b.records.messages], bodies: new Map([...a.records.bodies, ...b.records.bodies]) };
    open.update(both, new Map([...a.traceOf, ...b.traceOf]), new Set([id(1)]));
    expect(open.count(id(1))).toBe(2);
    expect(open.count(id(5))).toBe(0);
    expect(open.senderTrace(id(102))).toEqual(h(1));
    expect(open.senderTrace(id(105))).toBeUndefined();

    // The next block completes trace 1: its records come with the batch's, then it is forgotten.
    const next = batch(1, [3]);
    const merged = open.withHeld([id(1)], { ...next.records, traceOf: next.traceOf });
    expect(merged.transactions.map((t) => Number(t.lt)).sort()).toEqual([1, 2, 3]);
    expect([...merged.bodies.values()].map((x) => x[0]).sort()).toEqual([1, 2, 3]);
    expect(merged.traceOf.get(id(2))).toEqual(h(1));
    expect(merged.traceOf.get(id(3))).toEqual(h(1));
    open.update(next.records, next.traceOf, new Set());
    expect(open.size).toEqual({ traces: 0, transactions: 0 });
    expect(open.senderTrace(id(102))).toBeUndefined();
  });

  it('forgets the traces held longest past its bound', () => {
    const open = new OpenTraces(3);
    for (const [trace, txs] of [[1, [1, 2]], [5, [5]], [7, [7]]] as const) {
      const b = batch(trace, [...txs]);
      open.update(b.records, b.traceOf, new Set([id(trace)]));
    }
    expect(open.count(id(1))).toBe(0);
    expect(open.count(id(5))).toBe(1);
    expect(open.count(id(7))).toBe(1);
    expect(open.size.transactions).toBe(2);
  });
});
