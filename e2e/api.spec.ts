import { expect, test } from '@playwright/test';

// HTTP-only checks: the mobile project ignores this file (playwright.config.ts).
test.describe('service routes', () => {
  test('/api/health reports the database ok', async ({ request }) => {
    const res = await request.get('/api/health');
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', db: 'ok', chain: 'not configured', indexer: 'not configured' });
  });

  test('unknown /api/v2 routes answer the v2 error envelope', async ({ request }) => {
    for (const res of [await request.get('/api/v2/noSuchMethod'), await request.post('/api/v2/no/such/path', { data: {} })]) {
      expect(res.status()).toBe(404);
      expect(await res.json()).toEqual({ ok: false, code: 404, error: 'Not Found' });
    }
  });

  test('unknown /api/v3 routes answer {error} with 404', async ({ request }) => {
    const res = await request.get('/api/v3/noSuchRoute?x=1');
    expect(res.status()).toBe(404);
    expect(await res.json()).toEqual({ error: 'route not found: /api/v3/noSuchRoute' });
  });
});
