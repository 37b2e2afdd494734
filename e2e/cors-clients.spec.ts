// A dApp on another origin uses Atlas from the browser: @ton/ton's TonClient against /api/v2/jsonRPC and
// fetch against /api/v3, with and without an API key (keys made by e2e/create-keys.ts). Every answer,
// errors included, must be readable cross-origin; preflights with X-API-Key must pass.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { build } from 'esbuild';

import { e2eKeys as keys } from './keys';

let server: Server;
let pageOrigin: string;

test.beforeAll(async () => {
  // The page's script: TonClient bundled for the browser, as a dApp ships it.
  const bundle = await build({ entryPoints: [path.join(import.meta.dirname, 'cors-client-entry.ts')], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'error' });
  const script = bundle.outputFiles[0]!.contents;
  server = createServer((req, res) => {
    if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>dApp</title><script type="module" src="/client.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('TonClient and fetch from another origin, with and without a key', async ({ page, request, baseURL }) => {
  const { full, v3Slow } = keys();
  // Right after start-up the server may still shed load (503, preflights included); a dApp meets it settled.
  await expect.poll(async () => (await (await request.get('/api/health')).json()).indexer, { timeout: 60_000 }).toMatch(/^ok: live at seqno \d+/);
  await expect.poll(async () => (await request.get('/api/v2/getMasterchainInfo')).status(), { timeout: 30_000 }).toBe(200);
  await page.goto(pageOrigin);
  await page.waitForFunction(() => 'TonClient' in globalThis);
  const atlas = baseURL!;

  const results = await page.evaluate(
    async ({ atlas, full, v3Slow }) => {
      type Client = { getMasterchainInfo(): Promise<{ latestSeqno: number }> };
      const TonClient = (globalThis as unknown as { TonClient: new (o: { endpoint: string; apiKey?: string }) => Client }).TonClient;
      const endpoint = `${atlas}/api/v2/jsonRPC`;
      const anonymous = await new TonClient({ endpoint }).getMasterchainInfo();
      const keyed = await new TonClient({ endpoint, apiKey: full }).getMasterchainInfo();
      const v3 = async (headers: Record<string, string>) => {
        const r = await fetch(`${atlas}/api/v3/masterchainInfo`, { headers });
        return { status: r.status, body: await r.json(), limit: r.headers.get('x-ratelimit-limit'), retryAfter: r.headers.get('retry-after') };
      };
      const v2Forbidden = await fetch(`${atlas}/api/v2/jsonRPC`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': v3Slow },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'getMasterchainInfo', params: {} }),
      });
      return {
        anonymous: anonymous.latestSeqno,
        keyed: keyed.latestSeqno,
        v3Anonymous: await v3({}),
        v3Keyed: await v3({ 'X-API-Key': full }),
        v3Unknown: await v3({ 'X-API-Key': 'atlas_000000000000_unknown' }),
        v2Forbidden: { status: v2Forbidden.status, body: await v2Forbidden.json() },
        // Five at once at 2 requests per second: even if they straddle two one-second windows, at most four
        // pass, so one at least is refused, with Retry-After readable. (Three could split 2 + 1 across a
        // window boundary and all pass: that was a flake.)
        v3Burst: await Promise.all([1, 2, 3, 4, 5].map(() => v3({ 'X-API-Key': v3Slow }))),
      };
    },
    { atlas, full, v3Slow },
  );

  expect(results.anonymous).toBeGreaterThan(0);
  expect(results.keyed).toBeGreaterThan(0);
  expect(results.v3Anonymous.status).toBe(200);
  expect(results.v3Keyed).toMatchObject({ status: 200, limit: '1000' });
  expect(results.v3Unknown).toMatchObject({ status: 401, body: { error: 'API key is unknown or revoked' } });
  expect(results.v2Forbidden).toMatchObject({ status: 403, body: { ok: false, code: 403, id: 7, error: 'this API key may not call /api/v2' } });
  const burst = results.v3Burst.map((r) => r.status);
  expect(burst.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
  expect(results.v3Burst.find((r) => r.status === 429)).toMatchObject({ retryAfter: '1', body: { error: 'rate limit exceeded: this key allows 2 requests per second' } });
});
