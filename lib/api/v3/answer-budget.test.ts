// The cost budget of v3's heavy lists over real HTTP, on an indexed devnet: a page of traces, events, or
// actions with include_transactions that carries more transactions than API_MAX_ANSWER_TRANSACTIONS is
// 422 naming the limit that fits, that limit then answers, and one trace always does, however big.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config';
import { testApi, type TestApi } from '../../testing/api';
import { startTestChain, type TestChain } from '../../testing/chain';
import type { HttpTestServer } from '../../testing/http-server';
import { rowsWithinBudget } from './answer-budget';

const BUDGET = 6;
let chain: TestChain;
let api: TestApi;
let server: HttpTestServer;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v3-answer-budget', rounds: 3, index: true });
  api = testApi({ lite: chain.lite, db: chain.db!.db, tvm: chain.tvm, config: parseConfig({ VITEST: 'true', API_MAX_ANSWER_TRANSACTIONS: String(BUDGET) }) });
  server = await api.serve();
}, 180_000);

afterAll(async () => {
  await server?.close();
  await chain?.close();
});

async function get(path: string): Promise<{ status: number; body: Record<string, unknown> & { error?: string } }> {
  const r = await fetch(`${server.url}/api/v3/${path}`);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> & { error?: string } };
}

describe('transactions one answer carries (API_MAX_ANSWER_TRANSACTIONS)', () => {
  it('rows fit while their transactions add up to the budget; the first always fits', () => {
    expect(rowsWithinBudget([2, 2, 2, 1], 6)).toBe(3);
    expect(rowsWithinBudget([2, 2], 6)).toBe(2);
    expect(rowsWithinBudget([9, 1], 6)).toBe(1);
    expect(rowsWithinBudget([], 6)).toBe(0);
  });

  for (const route of ['traces', 'events'] as const) {
    it(`/${route}: a page past the budget is 422 naming the limit that fits; that limit answers`, async () => {
      const refused = await get(`${route}?limit=1000`);
      expect(refused.status).toBe(422);
      const m = /^these (\d+) traces carry (\d+) transactions in full; one answer carries at most 6 \(API_MAX_ANSWER_TRANSACTIONS\): ask limit=(\d+) and page on with offset \(or the lt bounds\)$/.exec(refused.body.error ?? '');
      expect(m, refused.body.error).not.toBeNull();
      expect(Number(m![2])).toBeGreaterThan(BUDGET);
      const fit = Number(m![3]);
      const ok = await get(`${route}?limit=${fit}`);
      expect(ok.status).toBe(200);
      const list = ok.body[route] as { transactions: Record<string, unknown> }[];
      expect(list).toHaveLength(fit);
      const carried = list.reduce((n, t) => n + Object.keys(t.transactions).length, 0);
      expect(carried <= BUDGET || fit === 1).toBe(true);
    });
  }

  it('one trace bigger than the budget is still served whole', async () => {
    const all = (await get(`traces?limit=1`)).body.traces as { trace_id: string }[];
    const big = (await chain.callV3('traces', { limit: 100 })).body as { traces: { trace_id: string; transactions: object }[] };
    const over = big.traces.find((t) => Object.keys(t.transactions).length > BUDGET) ?? big.traces[0]!;
    expect(all).toHaveLength(1);
    const one = await get(`traces?trace_id=${encodeURIComponent(over.trace_id)}`);
    expect(one.status).toBe(200);
    expect(Object.keys((one.body.traces as { transactions: object }[])[0]!.transactions)).toHaveLength(Object.keys(over.transactions).length);
  });

  it('/actions: include_transactions past the budget is 422; the same page without it answers', async () => {
    const refused = await get('actions?limit=1000&include_transactions=true&include_accounts=true');
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatch(/^these \d+ actions with include_transactions carry \d+ transactions in full; one answer carries at most 6 \(API_MAX_ANSWER_TRANSACTIONS\): ask limit=\d+ and page on/);
    const fit = Number(/ask limit=(\d+)/.exec(refused.body.error!)![1]);
    expect((await get(`actions?limit=${fit}&include_transactions=true`)).status).toBe(200);
    expect((await get('actions?limit=1000&include_accounts=true')).status).toBe(200);
  });
});
