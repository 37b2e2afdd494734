// X-Timeout / x_timeout over real HTTP on an indexed devnet (PGlite: its queries and the mapping run on
// this thread, where no timer interrupts them): a request never answers 200 after its budget, the late
// work is answered 504 in v3's envelope, and a budget the work fits in answers as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../testing/chain';
import type { HttpTestServer } from '../../testing/http-server';

let chain: TestChain;
let server: HttpTestServer;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v3-x-timeout', rounds: 2, index: true });
  server = await chain.serve();
}, 180_000);

afterAll(async () => {
  await server?.close();
  await chain?.close();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const r = await fetch(`${server.url}/api/v3/${path}`, { headers });
  return { status: r.status, timing: r.headers.get('server-timing'), body: (await r.json()) as Record<string, unknown> };
}

describe('X-Timeout is enforced', () => {
  it('1 ms: the query string and the header both get 504 {error} naming the budget', async () => {
    const q = await get('traces?limit=100&x_timeout=1');
    expect([q.status, q.body]).toEqual([504, { error: 'the request took longer than its 1 ms budget (X-Timeout)' }]);
    const h = await get('actions?limit=100&include_transactions=true', { 'X-Timeout': '1' });
    expect([h.status, h.body]).toEqual([504, { error: 'the request took longer than its 1 ms budget (X-Timeout)' }]);
  });

  it('a 200 never took longer than its budget; an ample budget answers', async () => {
    for (const path of ['traces?limit=100', 'events?limit=100', 'actions?limit=100&include_transactions=true&include_accounts=true', 'transactions?limit=100']) {
      for (const ms of [5, 20, 60]) {
        const r = await get(`${path}&x_timeout=${ms}`);
        expect([200, 504]).toContain(r.status);
        if (r.status === 200) expect(Number(/dur=([\d.]+)/.exec(r.timing ?? '')?.[1])).toBeLessThanOrEqual(ms);
      }
      expect((await get(`${path}&x_timeout=3000`)).status).toBe(200);
    }
  });
});
