// X-Timeout / x_timeout over real HTTP on an indexed devnet. The GET routes' reads pass through a stage
// the test controls, so whether a request is late never depends on how fast this machine happens to be:
// a read held back until the answer has come is late for any budget (the timer answers 504, as while
// PostgreSQL is waited on); a read that keeps this thread busy past the budget comes back late (as PGlite's
// queries and the mapping do, where no timer interrupts them) and is answered 504, never 200; and a read
// let straight through answers as it does without a budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { primaryReads, type Reads } from '../../db/replicas';
import { testApi } from '../../testing/api';
import { startTestChain, type TestChain } from '../../testing/chain';
import type { HttpTestServer } from '../../testing/http-server';

let chain: TestChain;
let server: HttpTestServer;
/** What each GET route's reads wait for before they run: nothing unless a test says otherwise. */
let stage: () => Promise<void> | void = () => {};

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v3-x-timeout', rounds: 2, index: true });
  const primary = primaryReads(chain.db!.db);
  const reads: Reads = {
    ...primary,
    run: async (fn) => {
      await stage();
      return primary.run(fn);
    },
  };
  server = await testApi({ lite: chain.lite, db: chain.db!.db, reads, tvm: chain.tvm, pending: chain.pending }).serve();
}, 180_000);

afterAll(async () => {
  stage = () => {};
  await server?.close();
  await chain?.close();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const r = await fetch(`${server.url}/api/v3/${path}`, { headers });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

/**
 * A stage that holds every read until release(). It lets go by itself after 10 s (`gaveUp`), so a server
 * that stopped answering at the deadline fails the test instead of hanging it.
 */
function holdReads() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let gaveUp = false;
  setTimeout(() => {
    gaveUp = true;
    release();
  }, 10_000).unref();
  stage = () => released;
  return {
    gaveUp: () => gaveUp,
    release: () => {
      stage = () => {};
      release();
    },
  };
}

/** Keeps this thread busy for `ms` (by the clock the budget is measured with), as a long synchronous query would. */
function busyFor(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const late = (ms: number) => ({ error: `the request took longer than its ${ms} ms budget (X-Timeout)` });

describe('X-Timeout is enforced', () => {
  it('reads still waited on when the budget ends: 504 naming the budget, by query string or header', async () => {
    const held = holdReads();
    try {
      const q = await get('traces?limit=100&x_timeout=50');
      const h = await get('actions?limit=100&include_transactions=true', { 'X-Timeout': '1' });
      // Both answered while their reads were still held: at the deadline, not when the work came back.
      expect(held.gaveUp()).toBe(false);
      expect([q.status, q.body]).toEqual([504, late(50)]);
      expect([h.status, h.body]).toEqual([504, late(1)]);
    } finally {
      held.release();
    }
    // The late reads, let go now, changed nothing: the next request answers.
    expect((await get('traces?limit=100&x_timeout=3000')).status).toBe(200);
  });

  it('work that keeps the thread past its budget comes back late and is answered 504, not 200', async () => {
    stage = () => busyFor(60);
    try {
      for (const path of ['traces?limit=100', 'events?limit=100', 'actions?limit=100&include_transactions=true&include_accounts=true', 'transactions?limit=100']) {
        const r = await get(`${path}&x_timeout=20`);
        expect([path, r.status, r.body]).toEqual([path, 504, late(20)]);
      }
    } finally {
      stage = () => {};
    }
  });

  it('a budget the work fits in answers as without one', async () => {
    for (const path of ['traces?limit=100', 'events?limit=100', 'actions?limit=100&include_transactions=true&include_accounts=true', 'transactions?limit=100']) {
      const plain = await get(path);
      expect([path, plain.status]).toEqual([path, 200]);
      const budgeted = await get(`${path}&x_timeout=3000`);
      expect([path, budgeted.status, budgeted.body]).toEqual([path, 200, plain.body]);
    }
  });
});
