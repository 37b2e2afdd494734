// Keys and limits as a client meets them: 401/403/429 in each API's own envelope, in all three v2 modes
// and in v3, and budgets that hold exactly under concurrent requests, in memory and in Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate';
import { log } from '../log';
import { MODES, testApi, type TestApi } from '../testing/api';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { freePort } from '../testing/private-postgres';
import { startTestRedis, type TestRedis } from '../testing/redis';
import { createAccess } from './access';
import { INTERNAL_HEADER, internalToken } from './internal';
import { createKey, revokeKey } from './keys';
import { memoryLimiter, redisLimiter, WINDOW_MS, type RateLimiter } from './limiter';

const RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';

let t: TestDatabase;
let redis: TestRedis;
const limiters: RateLimiter[] = [];
beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  redis = await startTestRedis();
});
afterAll(async () => {
  for (const l of limiters) await l.close();
  await redis.close();
  await t.drop();
});

function apiWith(limiter: RateLimiter, anonRps = 1000, keyCacheMs?: number): TestApi {
  limiters.push(limiter);
  return testApi({ db: t.db, access: createAccess({ prisma: t.db.prisma, limiter, anonRps, keyCacheMs }) });
}

/** Waits for the start of a rate-limit window, so a burst falls in one window. */
async function windowStart() {
  await new Promise((r) => setTimeout(r, WINDOW_MS - (Date.now() % WINDOW_MS) + 5));
}

describe('v2: 401, 403, 429 in each call mode', () => {
  let api: TestApi;
  let v2Key: string;
  let v3Only: string;
  beforeAll(async () => {
    api = apiWith(memoryLimiter());
    v2Key = (await createKey(t.db.prisma, { name: 'v2 small', rps: 2, apis: ['v2'] })).key;
    v3Only = (await createKey(t.db.prisma, { name: 'v3 only', apis: ['v3'] })).key;
  });

  for (const mode of MODES) {
    it(`${mode}: an unknown key is 401, a key for v3 only is 403`, async () => {
      const unknown = await api.callV2(mode, 'packAddress', { address: RAW, api_key: 'atlas_000000000000_nope' });
      expect(unknown.status).toBe(401);
      expect(unknown.body).toMatchObject({ ok: false, code: 401, error: 'API key is unknown or revoked' });
      const forbidden = await api.callV2(mode, 'packAddress', { address: RAW, api_key: v3Only });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toMatchObject({ ok: false, code: 403, error: 'this API key may not call /api/v2' });
      if (mode === 'rpc') expect(forbidden.body).toMatchObject({ jsonrpc: '2.0', id: 1 });
    });

    it(`${mode}: past the key's rate the answer is 429 with Retry-After`, async () => {
      await windowStart();
      const answers = await Promise.all([0, 1, 2].map(() => api.callV2(mode, 'packAddress', { address: RAW, api_key: v2Key })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429]);
      const ok = answers.find((a) => a.status === 200)!;
      expect(ok.headers.get('x-ratelimit-limit')).toBe('2');
      const limited = answers.find((a) => a.status === 429)!;
      expect(limited.body).toMatchObject({ ok: false, code: 429, error: 'rate limit exceeded: this key allows 2 requests per second' });
      expect(limited.headers.get('retry-after')).toBe('1');
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      if (mode === 'rpc') expect(limited.body).toMatchObject({ jsonrpc: '2.0', id: 1 });
    });
  }

  it('the X-API-Key header and a JSON-RPC URL query carry the key too', async () => {
    const header = await api.fetch(new Request(`http://atlas.test/api/v2/packAddress?address=${RAW}`, { headers: { 'x-api-key': v3Only } }));
    expect(header.status).toBe(403);
    const rpc = await api.fetch(
      new Request(`http://atlas.test/api/v2/jsonRPC?api_key=${v3Only}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'packAddress', params: { address: RAW } }),
      }),
    );
    expect(rpc.status).toBe(403);
    expect(await rpc.json()).toMatchObject({ ok: false, code: 403, id: 'a' });
  });
});

describe('v3: 401, 403, 429 as {error}', () => {
  it('header and api_key query', async () => {
    const api = apiWith(memoryLimiter());
    const v2Only = (await createKey(t.db.prisma, { name: 'v2 only', apis: ['v2'] })).key;
    const small = (await createKey(t.db.prisma, { name: 'v3 small', rps: 1, apis: ['v3'] })).key;
    const unknown = await api.callV3('blocks', { api_key: 'atlas_000000000000_nope' });
    expect([unknown.status, unknown.body]).toEqual([401, { error: 'API key is unknown or revoked' }]);
    const forbidden = await api.callV3('blocks', {}, { headers: { 'X-API-Key': v2Only } });
    expect([forbidden.status, forbidden.body]).toEqual([403, { error: 'this API key may not call /api/v3' }]);
    await windowStart();
    const [a, b] = await Promise.all([api.callV3('blocks', { api_key: small }), api.callV3('blocks', { api_key: small })]);
    expect([a.status, b.status].sort()).toEqual([200, 429]);
    const limited = a.status === 429 ? a : b;
    expect(limited.body).toEqual({ error: 'rate limit exceeded: this key allows 1 requests per second' });
    expect(limited.headers.get('retry-after')).toBe('1');
  });

  it('without a key, each client IP has the anonymous budget', async () => {
    const api = apiWith(memoryLimiter(), 3);
    const from = (ip: string) => api.callV3('blocks', {}, { headers: { 'x-atlas-client-ip': ip } });
    await windowStart();
    const first = await Promise.all([1, 2, 3, 4].map(() => from('10.0.0.1')));
    expect(first.map((r) => r.status).sort()).toEqual([200, 200, 200, 429]);
    expect(first.find((r) => r.status === 429)!.body).toEqual({ error: 'rate limit exceeded: 3 requests per second without an API key (send one in X-API-Key)' });
    expect((await from('10.0.0.2')).status).toBe(200);
  });

  it('unknown keys spend the address\'s anonymous budget: past it, 429 instead of 401', async () => {
    const api = apiWith(memoryLimiter(), 2);
    await windowStart();
    const guesses = await Promise.all([1, 2, 3].map((i) => api.callV3('blocks', { api_key: `atlas_00000000000${i}_guess` }, { headers: { 'x-atlas-client-ip': '10.0.0.9' } })));
    expect(guesses.map((r) => r.status).sort()).toEqual([401, 401, 429]);
    expect(guesses.find((r) => r.status === 429)!.headers.get('retry-after')).toBe('1');
  });

  it("the explorer's own server-side reads (the process's token) spend no budget; a wrong token does", async () => {
    const api = apiWith(memoryLimiter(), 1);
    const as = (token: string) => api.callV3('blocks', {}, { headers: { 'x-atlas-client-ip': '127.0.0.1', [INTERNAL_HEADER]: token } });
    await windowStart();
    const own = await Promise.all([1, 2, 3].map(() => as(internalToken())));
    expect(own.map((r) => r.status)).toEqual([200, 200, 200]);
    const forged = await Promise.all([1, 2].map(() => as('guess')));
    expect(forged.map((r) => r.status).sort()).toEqual([200, 429]);
  });

  it('keys cannot be checked while the database is down: 503 with Retry-After, not 500', async () => {
    const down = await createTestDatabase();
    await migrate(down.db);
    const api = testApi({ db: down.db, access: createAccess({ prisma: down.db.prisma, limiter: memoryLimiter(), anonRps: 1000 }) });
    await down.drop();
    const v3 = await api.callV3('blocks', { api_key: 'atlas_000000000000_any' });
    expect([v3.status, v3.body]).toEqual([503, { error: 'API keys cannot be checked right now, retry later' }]);
    expect(v3.headers.get('retry-after')).toBe('1');
    const v2 = await api.callV2('rpc', 'packAddress', { address: RAW, api_key: 'atlas_000000000000_any' });
    expect(v2.body).toMatchObject({ ok: false, code: 503, id: 1 });
  });

  it('a revoked key stops working once its cached lookup expires', async () => {
    const api = apiWith(memoryLimiter(), 1000, 200);
    const created = await createKey(t.db.prisma, { name: 'revoked soon' });
    expect((await api.callV3('blocks', { api_key: created.key })).status).toBe(200);
    await revokeKey(t.db.prisma, created.id);
    await new Promise((r) => setTimeout(r, 250));
    expect((await api.callV3('blocks', { api_key: created.key })).status).toBe(401);
  });
});

describe('limits are exact under concurrency', () => {
  /**
   * Sends n requests at once (alternating between the given APIs) and checks that exactly one budget of
   * `rps` was granted per one-second window the burst spanned: one window on an idle machine, and never
   * more than the windows it really crossed on a loaded one (limits are exact within a window).
   */
  async function expectOneBudgetPerWindow(apis: TestApi[], key: string, n: number, rps: number) {
    await windowStart();
    const first = Math.floor(Date.now() / WINDOW_MS);
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => apis[i % apis.length]!.callV2('get', 'packAddress', { address: RAW, api_key: key })));
    const windows = Math.floor(Date.now() / WINDOW_MS) - first + 1;
    const ok = answers.filter((a) => a.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(rps);
    expect(ok).toBeLessThanOrEqual(rps * windows);
    if (windows === 1) expect(ok).toBe(rps);
  }

  it('in memory: 100 concurrent requests at a 10 rps key, 10 succeed', async () => {
    const key = (await createKey(t.db.prisma, { name: 'ten', rps: 10 })).key;
    await expectOneBudgetPerWindow([apiWith(memoryLimiter())], key, 100, 10);
  });

  it('in Redis: two limiters (two processes) share one budget', async () => {
    const key = (await createKey(t.db.prisma, { name: 'ten shared', rps: 10 })).key;
    const a = apiWith(redisLimiter(redis.url, { log, prefix: 'test:' }));
    const b = apiWith(redisLimiter(redis.url, { log, prefix: 'test:' }));
    await expectOneBudgetPerWindow([a, b], key, 100, 10);
  });

  it('Redis unreachable: requests are still answered, limited per process', async () => {
    const key = (await createKey(t.db.prisma, { name: 'ten no redis', rps: 10 })).key;
    const api = apiWith(redisLimiter(`redis://127.0.0.1:${await freePort()}`, { log, prefix: 'test:' }));
    await expectOneBudgetPerWindow([api], key, 30, 10);
  });
});
