// Heavy reads take turns (one at a time, in arrival order), light ones never wait for them, and a heavy read
// whose request's budget ran out while it waited is refused without running.
import { describe, expect, it } from 'vitest';
import { V3Error } from './errors';
import { ReadLanes } from '../../db/read-lanes';
import { heavyRead, heavyReadsNow, inReadLane } from './heavy-reads';

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('heavyRead', () => {
  it('runs heavy reads one at a time in arrival order; light reads pass them', async () => {
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    const read = (name: string, transactions: number) =>
      heavyRead(transactions, () => {}, async () => {
        log.push(`start ${name}`);
        await new Promise<void>((r) => gates.set(name, r));
        log.push(`end ${name}`);
        return name;
      });
    const a = read('a', 1000);
    const b = read('b', 500);
    const c = read('c', 201);
    await tick();
    expect(heavyReadsNow()).toEqual({ running: 1, waiting: 2 });
    const light = read('light', 200);
    await tick();
    expect(log).toEqual(['start a', 'start light']);
    gates.get('light')!();
    expect(await light).toBe('light');
    gates.get('a')!();
    await a;
    await tick();
    expect(log.slice(-2)).toEqual(['end a', 'start b']);
    gates.get('b')!();
    await b;
    await tick();
    gates.get('c')!();
    await c;
    expect(log.filter((l) => l.startsWith('start')).map((l) => l.slice(6))).toEqual(['a', 'light', 'b', 'c']);
    expect(heavyReadsNow()).toEqual({ running: 0, waiting: 0 });
  });

  it('a read whose budget was spent while it waited does not run, and hands its turn on', async () => {
    let release!: () => void;
    const first = heavyRead(1000, () => {}, () => new Promise<string>((r) => (release = () => r('first'))));
    let ran = false;
    const expired = heavyRead(1000, () => { throw new V3Error(504, 'the request took longer than its 100 ms budget (X-Timeout)'); }, async () => { ran = true; });
    const next = heavyRead(1000, () => {}, async () => 'next');
    await tick();
    release();
    await expect(expired).rejects.toThrow('budget (X-Timeout)');
    expect(await first).toBe('first');
    expect(await next).toBe('next');
    expect(ran).toBe(false);
    expect(heavyReadsNow()).toEqual({ running: 0, waiting: 0 });
  });
});

describe('inReadLane', () => {
  it("puts a list's reads in the low lane past 100 rows, and a page of 100 or a request without a limit in the light one", async () => {
    const lanes = new ReadLanes();
    const order: string[] = [];
    let release!: () => void;
    const holding = lanes.run(() => new Promise<void>((r) => (release = r)));
    await tick();
    const asked = [
      inReadLane(101, () => lanes.run(async () => order.push('limit 101'))),
      inReadLane(1000, () => lanes.run(async () => order.push('limit 1000'))),
      inReadLane(100, () => lanes.run(async () => order.push('limit 100'))),
      inReadLane(undefined, () => lanes.run(async () => order.push('no limit'))),
    ];
    expect(lanes.waiting).toEqual({ light: 2, low: 2 });
    release();
    await Promise.all([holding, ...asked]);
    expect(order).toEqual(['limit 100', 'no limit', 'limit 101', 'limit 1000']);
  });
});
