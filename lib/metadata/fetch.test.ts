// The metadata fetcher against real HTTP servers on loopback: the production policy must refuse them
// (loopback is private), and with a policy that admits this test's own server the guards on size,
// content type, redirects, deadline and retries are exercised for real.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { fetchableUrl, fetchMetadata } from './fetch';
import { enqueueMetadata, MetadataFetcher, metadataFor } from './queue';
import { isPublicAddress, publicTargets, TargetRefused, type TargetPolicy } from './target-policy';

let server: Server;
let base = '';
let slowHits = 0;
let flakyHits = 0;

const routes: Record<string, RequestListener> = {
  '/jetton.json': (_q, s) => s.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ name: 'Atlas', symbol: 'ATL', decimals: '9' })),
  '/plain.json': (_q, s) => s.writeHead(200, { 'content-type': 'text/plain' }).end('{"name":"Plain"}'),
  '/page.html': (_q, s) => s.writeHead(200, { 'content-type': 'text/html' }).end('<html>{"name":"x"}</html>'),
  '/array.json': (_q, s) => s.writeHead(200, { 'content-type': 'application/json' }).end('[1,2]'),
  '/broken.json': (_q, s) => s.writeHead(200, { 'content-type': 'application/json' }).end('{"name":'),
  '/huge.json': (_q, s) => {
    // No content-length: the cap must hold while reading, not only on the declared size.
    s.writeHead(200, { 'content-type': 'application/json' });
    s.write('{"name":"');
    const chunk = 'a'.repeat(64 * 1024);
    let sent = 0;
    const more = () => {
      while (sent < 64) {
        sent++;
        if (!s.write(chunk)) return void s.once('drain', more);
      }
      s.end('"}');
    };
    more();
  },
  '/declared-huge.json': (_q, s) => s.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) }).end(),
  '/missing.json': (_q, s) => s.writeHead(404).end(),
  '/flaky.json': (_q, s) => {
    flakyHits++;
    if (flakyHits === 1) s.writeHead(503).end();
    else s.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"Second try"}');
  },
  '/slow.json': () => {
    slowHits++; // never answers
  },
  '/to-jetton': (_q, s) => s.writeHead(302, { location: '/jetton.json' }).end(),
  '/to-private': (_q, s) => s.writeHead(302, { location: 'http://10.1.2.3/x.json' }).end(),
  '/to-metadata-service': (_q, s) => s.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  '/to-file': (_q, s) => s.writeHead(302, { location: 'file:///etc/passwd' }).end(),
  '/loop': (_q, s) => s.writeHead(302, { location: '/loop' }).end(),
};

/** Admits this test's server (127.0.0.1) and otherwise decides as the production policy does. */
const testPolicy: TargetPolicy = {
  async resolve(host) {
    if (host === '127.0.0.1') return { address: '127.0.0.1', family: 4 };
    return publicTargets(async () => [{ address: '10.9.9.9', family: 4 }]).resolve(host);
  },
};
const gateway = 'https://gateway.invalid/ipfs/';

beforeAll(async () => {
  server = createServer((q, s) => (routes[new URL(q.url ?? '/', 'http://x').pathname] ?? ((_q, r) => r.writeHead(404).end()))(q, s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('target policy', () => {
  it('calls private, loopback, link-local and reserved addresses non-public, in v4 and v6 spellings', () => {
    for (const ip of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
      '::1', '::', 'fe80::1', 'fd00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a00:1']) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
    for (const ip of ['1.1.1.1', '8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:1.1.1.1']) expect(isPublicAddress(ip), ip).toBe(true);
    expect(isPublicAddress('not an ip')).toBe(false);
  });

  it('refuses a name that resolves to a private address, even when it also resolves to a public one', async () => {
    const policy = publicTargets(async (h) => (h === 'mixed.example' ? [{ address: '1.1.1.1', family: 4 }, { address: '192.168.0.7', family: 4 }] : [{ address: '1.1.1.1', family: 4 }]));
    await expect(policy.resolve('mixed.example')).rejects.toThrow(TargetRefused);
    await expect(policy.resolve('public.example')).resolves.toEqual({ address: '1.1.1.1', family: 4 });
    await expect(policy.resolve('[::1]')).rejects.toThrow('is not a public address');
  });

  it('refuses localhost through the real resolver', async () => {
    await expect(publicTargets().resolve('localhost')).rejects.toThrow(/not a public address/);
  });
});

describe('fetchMetadata', () => {
  it('refuses this machine with the production policy, before any request reaches it', async () => {
    const before = slowHits;
    for (const url of [`${base}/slow.json`, `http://localhost:${new URL(base).port}/slow.json`]) {
      const r = await fetchMetadata(url, { policy: publicTargets(), ipfsGateway: gateway });
      expect(r).toMatchObject({ ok: false, transient: false, error: expect.stringMatching(/^target refused: .*not a public address/) });
    }
    expect(slowHits).toBe(before);
  });

  it('reads a JSON object, following a redirect, with json or text/plain content types', async () => {
    expect(await fetchMetadata(`${base}/jetton.json`, { policy: testPolicy, ipfsGateway: gateway })).toEqual({
      ok: true,
      url: `${base}/jetton.json`,
      content: { name: 'Atlas', symbol: 'ATL', decimals: '9' },
    });
    expect(await fetchMetadata(`${base}/to-jetton`, { policy: testPolicy, ipfsGateway: gateway })).toMatchObject({ ok: true, url: `${base}/jetton.json` });
    expect(await fetchMetadata(`${base}/plain.json`, { policy: testPolicy, ipfsGateway: gateway })).toMatchObject({ ok: true, content: { name: 'Plain' } });
  });

  it('refuses redirects to private targets, other schemes and endless loops', async () => {
    for (const [path, error] of [
      ['/to-private', /^target refused: 10\.1\.2\.3/],
      ['/to-metadata-service', /^target refused: 169\.254\.169\.254/],
      ['/to-file', /not http\(s\)/],
      ['/loop', /more than 3 redirects/],
    ] as const) {
      expect(await fetchMetadata(`${base}${path}`, { policy: testPolicy, ipfsGateway: gateway }), path).toMatchObject({ ok: false, transient: false, error: expect.stringMatching(error) });
    }
  });

  it('refuses documents that are too large, not JSON or not an object; a 404 is final, a 503 is worth a retry', async () => {
    const limits = { maxBytes: 512 * 1024 };
    const cases: [string, RegExp, boolean][] = [
      ['/huge.json', /larger than 524288 bytes/, false],
      ['/declared-huge.json', /larger than 524288 bytes/, false],
      ['/page.html', /content type text\/html is not JSON/, false],
      ['/array.json', /not a JSON object/, false],
      ['/broken.json', /not JSON/, false],
      ['/missing.json', /HTTP 404/, false],
    ];
    for (const [path, error, transient] of cases) {
      expect(await fetchMetadata(`${base}${path}`, { policy: testPolicy, ipfsGateway: gateway, limits }), path).toMatchObject({ ok: false, transient, error: expect.stringMatching(error) });
    }
  });

  it('gives up on a server that does not answer within the deadline, as a transient failure', async () => {
    const r = await fetchMetadata(`${base}/slow.json`, { policy: testPolicy, ipfsGateway: gateway, limits: { timeoutMs: 300 } });
    expect(r).toMatchObject({ ok: false, transient: true, error: 'no answer within 300 ms' });
  });

  it('maps ipfs:// to the gateway and refuses other schemes and credentials', () => {
    expect(fetchableUrl('ipfs://bafyabc/meta.json', gateway)?.href).toBe('https://gateway.invalid/ipfs/bafyabc/meta.json');
    expect(fetchableUrl('ipfs://ipfs/Qmabc', gateway)?.href).toBe('https://gateway.invalid/ipfs/Qmabc');
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'data:application/json,{}', 'ftp://x/y', 'gopher://x', 'http://user:pw@host/x', 'not a uri']) {
      expect(fetchableUrl(bad, gateway), bad).toBeNull();
    }
  });
});

describe('metadata queue', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await migrate(t.db);
  });
  afterAll(() => t.drop());

  it('works through the queue: fetched, failed for good, retried after a transient failure', async () => {
    const p = t.db.prisma;
    const ok = `${base}/jetton.json`;
    const gone = `${base}/missing.json`;
    const flaky = `${base}/flaky.json`;
    const privateUri = 'http://192.168.1.10/meta.json';
    await enqueueMetadata(p, [ok, gone, flaky, privateUri, ok, '', 'x'.repeat(5000)]);
    expect((await metadataFor(t.db.sql, [ok, gone, flaky, privateUri])).size).toBe(4);

    const fetcher = new MetadataFetcher({ prisma: p, policy: testPolicy, ipfsGateway: gateway, retryBaseMs: 1 });
    expect(await fetcher.runOnce()).toBe(4);
    let rows = await metadataFor(t.db.sql, [ok, gone, flaky, privateUri]);
    expect(rows.get(ok)).toMatchObject({ state: 'ok', content: { symbol: 'ATL' }, error: null });
    expect(rows.get(gone)).toMatchObject({ state: 'failed', error: 'HTTP 404', content: null });
    expect(rows.get(privateUri)).toMatchObject({ state: 'failed', error: expect.stringMatching(/^target refused/) });
    expect(rows.get(flaky)).toMatchObject({ state: 'pending', error: 'HTTP 503' });

    // Enqueuing again keeps what is known; the retry is due after its (1 ms) backoff.
    await enqueueMetadata(p, [ok, flaky]);
    await new Promise((r) => setTimeout(r, 20));
    expect(await fetcher.runOnce()).toBe(1);
    rows = await metadataFor(t.db.sql, [ok, flaky]);
    expect(rows.get(flaky)).toMatchObject({ state: 'ok', content: { name: 'Second try' } });
    expect(rows.get(ok)).toMatchObject({ state: 'ok' });
    expect(await fetcher.runOnce()).toBe(0);
    expect(fetcher.stats).toEqual({ fetched: 2, failed: 2, retried: 1 });
  });
});
