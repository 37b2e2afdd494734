import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database';
import { Prisma } from './generated/client';
import { ReadLanes } from './read-lanes';

/** A read that runs until `release()`; `started` tells when its turn came. */
function gated(order: string[], name: string) {
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const began = new Promise<void>((r) => (started = r));
  const read = async () => {
    started();
    await gate;
    order.push(name);
    return name;
  };
  return { read, release, began };
}

describe('read lanes', () => {
  it('run one read at a time; a light read waiting goes before every low one, which keep their order', async () => {
    const lanes = new ReadLanes();
    const order: string[] = [];
    const first = gated(order, 'low 1');
    const running = ReadLanes.low(() => lanes.run(first.read));
    await first.began;
    const later = [
      ReadLanes.low(() => lanes.run(async () => (order.push('low 2'), 'low 2'))),
      ReadLanes.low(() => lanes.run(async () => (order.push('low 3'), 'low 3'))),
      lanes.run(async () => (order.push('light'), 'light')),
    ];
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]); // nothing runs beside the read holding the turn
    expect(lanes.waiting).toEqual({ light: 1, low: 2 });
    first.release();
    expect(await Promise.all([running, ...later])).toEqual(['low 1', 'low 2', 'low 3', 'light']);
    expect(order).toEqual(['low 1', 'light', 'low 2', 'low 3']);
  });

  it('hand a waiting light read the turn at once, and a low one only after pending I/O', async () => {
    const lanes = new ReadLanes();
    const order: string[] = [];
    for (const low of [false, true]) {
      const first = gated(order, 'first');
      const running = lanes.run(first.read);
      await first.began;
      const next = (low ? ReadLanes.low : (f: () => Promise<string>) => f())(() => lanes.run(async () => (order.push(low ? 'low' : 'light'), 'next')));
      await new Promise((r) => setImmediate(r));
      setImmediate(() => order.push('i/o'));
      first.release();
      await Promise.all([running, next]);
      await new Promise((r) => setImmediate(r));
    }
    // Light reads follow each other with no event-loop turn between them: the database does not idle.
    expect(order).toEqual(['first', 'light', 'i/o', 'first', 'i/o', 'low']);
  });

  it('keep the low mark through awaits, and a failed read hands the turn on', async () => {
    const lanes = new ReadLanes();
    const order: string[] = [];
    const first = gated(order, 'first');
    const running = lanes.run(first.read);
    await first.began;
    const low = ReadLanes.low(async () => {
      await new Promise((r) => setTimeout(r, 1));
      return lanes.run(async () => (order.push('low'), 'low'));
    });
    const failing = lanes.run(async () => {
      throw new Error('bad query');
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(lanes.waiting).toEqual({ light: 1, low: 1 });
    first.release();
    await expect(failing).rejects.toThrow('bad query');
    expect(await Promise.all([running, low])).toEqual(['first', 'low']);
    expect(lanes.waiting).toEqual({ light: 0, low: 0 });
  });
});

describe('reads on the embedded database', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ engine: 'pglite', dir: null });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('answer a light read after the query running now, before the long reads queued ahead of it', async () => {
    const done: string[] = [];
    // Each long read keeps PGlite (and this thread) busy for a while.
    const long = Prisma.sql`SELECT count(*)::int AS n FROM generate_series(1, 200000) g WHERE g % 7 = 3`;
    const longs = Array.from({ length: 5 }, (_, i) => ReadLanes.low(() => db.sql.rows<{ n: number }>(long).then(() => done.push(`long ${i}`))));
    await new Promise((r) => setImmediate(r)); // the first long read has its turn
    const light = db.sql.rows<{ one: number }>(Prisma.sql`SELECT 1 AS one`).then((rows) => (done.push('light'), rows));
    expect(await light).toEqual([{ one: 1 }]);
    await Promise.all(longs);
    expect(done.indexOf('light')).toBeLessThanOrEqual(1);
  });
});
