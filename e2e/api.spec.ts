import { expect, test } from '@playwright/test';
import { genesisAccount } from './genesis';

// HTTP-only checks: the mobile project ignores this file (playwright.config.ts).
test.describe('service routes', () => {
  test('/api/health reports the database, the devnet and the indexer following it', async ({ request }) => {
    // One answer is checked whole: on a busy machine the indexer may fall a few blocks behind between two
    // asks (its state is 'catching up' past 2 blocks of lag), so a second ask need not agree with the first.
    let h: { status?: string; indexer?: string; indexer_progress?: { state?: string } } = {};
    await expect
      .poll(
        async () => {
          const res = await request.get('/api/health');
          expect(res.status()).toBe(200);
          h = await res.json();
          return `${h.indexer} / ${h.indexer_progress?.state}`;
        },
        { timeout: 60_000 },
      )
      .toMatch(/^ok: live at seqno \d+.* \/ live$/);
    expect(h).toMatchObject({ status: 'ok', db: 'ok', chain: expect.stringMatching(/^ok: devnet, masterchain seqno \d+$/) });
    expect(h.indexer_progress).toMatchObject({ state: 'live', lastIndexedSeqno: expect.any(Number), headSeqno: expect.any(Number) });
  });

  test('unknown /api/v2 routes answer the v2 error envelope', async ({ request }) => {
    for (const res of [await request.get('/api/v2/noSuchMethod'), await request.post('/api/v2/no/such/path', { data: {} })]) {
      expect(res.status()).toBe(404);
      expect(res.headers()['x-api-version']).toMatch(/^2\.2\.\d+$/);
      expect(await res.json()).toMatchObject({ ok: false, code: 404, error: 'Not Found' });
    }
  });

  test('v2 answers over real HTTP in REST and JSON-RPC, and describes itself', async ({ request }) => {
    const raw = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
    const get = await request.get(`/api/v2/packAddress?address=${raw}`);
    expect(await get.json()).toMatchObject({ ok: true, result: 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N' });
    const rpc = await request.post('/api/v2/jsonRPC', { data: { jsonrpc: '2.0', id: 9, method: 'unpackAddress', params: { address: raw } } });
    expect(await rpc.json()).toMatchObject({ ok: true, result: raw.toUpperCase(), jsonrpc: '2.0', id: 9 });
    expect((await request.get('/api/v2/jsonRPC')).status()).toBe(405);

    const index = await (await request.get('/api/v2/')).json();
    expect(index.result.version).toMatch(/^2\.2\.\d+$/);
    const openapi = await (await request.get('/api/v2/openapi.json')).json();
    expect(openapi.openapi).toBe('3.1.0');
    expect(openapi.paths['/api/v2/detectAddress'].get.parameters[0]).toMatchObject({ name: 'address', in: 'query', required: true });
    expect(openapi.paths['/api/v2/jsonRPC'].post).toBeDefined();
  });

  test("toncenter's documentation paths: /api/v3/doc.json, and the interactive pages for a browser", async ({ request }) => {
    const doc = await request.get('/api/v3/doc.json');
    expect(doc.status()).toBe(200);
    expect(await doc.json()).toEqual(await (await request.get('/api/v3/openapi.json')).json());
    const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    for (const [path, headers, page] of [
      ['/api/v3/index.html', {}, '/api-docs/v3'],
      ['/api/v3', html, '/api-docs/v3'],
      ['/api/v2', html, '/api-docs/v2'],
    ] as const) {
      const res = await request.get(path, { headers, maxRedirects: 0 });
      expect(res.status(), path).toBe(302);
      expect(res.headers()['location'], path).toBe(page);
    }
    // Any other client keeps the JSON, which names the document and the page.
    expect(await (await request.get('/api/v3')).json()).toMatchObject({ doc: '/api/v3/doc.json', docs: '/api-docs/v3' });
    expect((await (await request.get('/api/v2/')).json()).result).toMatchObject({ openapi: '/api/v2/openapi.json', docs: '/api-docs/v2' });
    // The v2 document has the methods added for toncenter parity.
    const v2 = (await (await request.get('/api/v2/openapi.json')).json()) as { paths: Record<string, Record<string, { deprecated?: boolean }>> };
    for (const m of ['sendQuery', 'sendQuerySimple']) expect(v2.paths[`/api/v2/${m}`]!.post, m).toBeDefined();
    expect(v2.paths['/api/v2/sendQuerySimple']!.post!.deprecated).toBe(true);
    for (const m of ['getOutMsgQueueSize', 'getOutMsgQueueSizes']) expect(v2.paths[`/api/v2/${m}`]!.get, m).toBeDefined();
  });

  test('JSON-RPC names an unknown method as ton-http-api does', async ({ request }) => {
    const res = await request.post('/api/v2/jsonRPC', { data: { jsonrpc: '2.0', id: 3, method: 'noSuchMethod', params: {} } });
    expect(res.status()).toBe(422);
    expect(await res.json()).toMatchObject({ ok: false, code: 422, error: 'Unknown method', jsonrpc: '2.0', id: 3 });
  });

  test('unknown /api/v3 routes answer {error} with 404', async ({ request }) => {
    const res = await request.get('/api/v3/noSuchRoute?x=1');
    expect(res.status()).toBe(404);
    expect(await res.json()).toEqual({ error: 'route not found: /api/v3/noSuchRoute' });
  });

  test('get-methods and fee estimates run in the TVM worker pool of the production build', async ({ request }) => {
    // The pool has no in-thread fallback: were its worker not started from the bundled route code, these
    // would be 500 "the TVM worker source is not on disk".
    const alice = genesisAccount('alice').address;
    const seqno = await request.post('/api/v2/runGetMethod', { data: { address: alice, method: 'seqno', stack: [] } });
    expect(seqno.status(), await seqno.text()).toBe(200);
    expect((await seqno.json()).result).toMatchObject({ '@type': 'smc.runResult', exit_code: 0 });
    const fee = await request.post('/api/v2/estimateFee', { data: { address: alice, body: 'te6cckEBAQEAAgAAAEysuc0=' } });
    // An unsigned body: the wallet's code runs in the emulator and refuses it (exit code 33 or similar).
    expect((await fee.json()).error).toMatch(/^cannot apply external message to current state : .*\(exit code \d+\)$/);
    // The runs above left their worker thread idle, not gone; /api/health shows the pool's own count. The
    // edge answers health from an answer up to a second old (lib/http/health-cache.ts), so poll for it.
    await expect
      .poll(async () => (await (await request.get('/api/health')).json()).tvm, { timeout: 10_000 })
      .toMatchObject({ state: 'ok', workers: expect.any(Number), restarts: 0 });
    await expect.poll(async () => (await (await request.get('/api/health')).json()).tvm.workers, { timeout: 10_000 }).toBeGreaterThan(0);
    // The devnet's emulator, bundled into the server, runs on its larger stack (lib/tvm/emulator.ts): a
    // computed require in the bundle once left it on the stock 64 KiB, where a 511-deep external traps it.
    expect((await (await request.get('/api/health')).json()).devnet.emulator).toMatchObject({ roomyStack: true, replaced: 0 });
    const hostile = await request.post('/api/v2/runGetMethod', { data: { address: alice, method: 'seqno', stack: Array.from({ length: 400 }, () => ['num', '1']) } });
    expect(hostile.status()).toBe(422);
    expect((await hostile.json()).error).toBe('stack has 400 entries; at most 256 are allowed');
  });
});
