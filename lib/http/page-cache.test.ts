// Shared page renders over real sockets, in front of a stub handler that stands for Next: one render per
// URL while it is fresh, one render for a crowd arriving together, never a kept answer that is not a
// whole public page.
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../config';
import { log } from '../log';
import { createPageCache, pagePolicy, type PageCache } from './page-cache';
import { createAtlasServer, type AtlasServer } from '../server/server';

let running: AtlasServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

let renders: string[] = [];
let clock = 1_000_000;

// Renders of /slow wait until the test opens the gate: the tests decide when a render ends, so what they
// check does not depend on how fast a loaded machine gets the other requests in.
let gate = Promise.resolve();
let openGate = () => {};
const closeGate = () => {
  gate = new Promise<void>((r) => (openGate = r));
};

/** A stub app: each render has its own nonce; /slow waits for the gate; /missing is 404; /cookie sets one; /big is 3 MB. */
async function stub(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://x');
  renders.push(`${req.method} ${req.url} rsc=${req.headers.rsc ?? ''}`);
  if (url.pathname.endsWith('/slow')) await gate;
  const nonce = randomBytes(8).toString('hex');
  res.setHeader('content-security-policy', `script-src 'nonce-${nonce}'`);
  res.setHeader('cache-control', 'private, no-cache, no-store, max-age=0, must-revalidate');
  res.setHeader('content-type', 'text/html; charset=utf-8');
  if (url.pathname === '/missing') res.statusCode = 404;
  if (url.pathname === '/cookie') res.setHeader('set-cookie', 'a=b');
  if (url.pathname === '/big') return void res.end('x'.repeat(3 * 1024 * 1024));
  // Written in two pieces, as a streamed render is.
  res.write(`<html><script nonce="${nonce}"></script>`);
  res.end(`render ${renders.length} of ${url.pathname}</html>`);
}

async function start(pages: PageCache) {
  const config = parseConfig({ VITEST: 'true' });
  running = createAtlasServer({ config, handle: stub, log, pages });
  await new Promise<void>((resolve) => running!.server.listen(0, '127.0.0.1', resolve));
  renders = [];
  return `http://127.0.0.1:${(running.server.address() as AddressInfo).port}`;
}

const get = async (url: string, init?: RequestInit) => {
  const r = await fetch(url, init);
  return { status: r.status, body: await r.text(), csp: r.headers.get('content-security-policy'), cache: r.headers.get('cache-control'), how: r.headers.get('x-atlas-cache') };
};

describe('page cache', () => {
  it('renders a head-following page once while it is fresh (a second), with its own nonce and policy kept together', async () => {
    const base = await start(createPageCache({ now: () => clock }));
    const first = await get(`${base}/`);
    const second = await get(`${base}/`);
    expect(renders).toHaveLength(1);
    expect(first).toMatchObject({ status: 200, how: 'miss', cache: 'public, max-age=1' });
    expect(second).toEqual({ ...first, how: 'hit' });
    // The nonce in the body is the one in the policy that came with it.
    expect(second.body).toContain(`nonce="${/nonce-([0-9a-f]+)/.exec(second.csp!)![1]}"`);
    clock += 1001;
    const third = await get(`${base}/`);
    expect(renders).toHaveLength(2);
    expect(third.how).toBe('miss');
    expect(third.csp).not.toBe(first.csp);
  });

  it('keeps a transaction or block page ten minutes and tells browsers to keep it an hour', async () => {
    const base = await start(createPageCache({ now: () => clock }));
    await get(`${base}/tx/abc`);
    clock += 9 * 60_000;
    const later = await get(`${base}/tx/abc`);
    expect(later).toMatchObject({ how: 'hit', cache: 'public, max-age=3600' });
    expect(renders).toHaveLength(1);
    expect(pagePolicy('/block/-1/8000000000000000/12')?.cacheControl).toBe('public, max-age=3600');
    expect(pagePolicy('/account/EQabc')?.cacheControl).toBe('public, max-age=1');
    expect(pagePolicy('/api/v3/transactions')).toBeNull();
    expect(pagePolicy('/_next/static/chunks/a.js')).toBeNull();
  });

  it('renders once for fifty visitors arriving together', async () => {
    const pages = createPageCache();
    // Counts the requests that found the render in progress and wait for it.
    let waiting = 0;
    const join = pages.join;
    pages.join = (...args) => {
      const joined = join(...args);
      if (joined) waiting++;
      return joined;
    };
    const base = await start(pages);
    closeGate();
    const crowd = Promise.all(Array.from({ length: 50 }, () => get(`${base}/tx/slow`)));
    await expect.poll(() => waiting, { timeout: 30_000 }).toBe(49);
    openGate();
    const answers = await crowd;
    expect(renders).toEqual(['GET /tx/slow rsc=']);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.map((a) => a.how).filter((h) => h !== 'joined')).toEqual(['miss']);
    expect(pages.stats.joined).toBe(49);
  });

  it('keeps only whole public pages: not errors, cookies, oversize renders, API answers or POSTs; RSC payloads apart', async () => {
    const base = await start(createPageCache({ maxEntryBytes: 1024 * 1024 }));
    for (const path of ['/missing', '/cookie', '/big', '/api/v3/x']) {
      await get(`${base}${path}`);
      await get(`${base}${path}`);
    }
    await get(`${base}/page`, { method: 'POST', body: 'x' });
    await get(`${base}/page`, { method: 'POST', body: 'x' });
    expect(renders).toHaveLength(10);
    const big = await get(`${base}/big`);
    expect(big.body).toHaveLength(3 * 1024 * 1024);

    renders = [];
    await get(`${base}/blocks`);
    await get(`${base}/blocks`, { headers: { RSC: '1' } });
    await get(`${base}/blocks`, { headers: { RSC: '1' } });
    expect(renders).toEqual(['GET /blocks rsc=', 'GET /blocks rsc=1']);
  });

  it('serves kept pages while new renders are shed, and a HEAD from a kept GET without a body', async () => {
    const config = parseConfig({ VITEST: 'true', MAX_IN_FLIGHT: '1' });
    running = createAtlasServer({ config, handle: stub, log, pages: createPageCache() });
    await new Promise<void>((resolve) => running!.server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(running.server.address() as AddressInfo).port}`;
    await get(`${base}/tx/kept`);
    closeGate();
    const slow = get(`${base}/tx/slow`); // holds the one slot until the gate opens
    await expect.poll(() => renders.includes('GET /tx/slow rsc=')).toBe(true);
    expect((await get(`${base}/other`)).status).toBe(503);
    expect(await get(`${base}/tx/kept`)).toMatchObject({ status: 200, how: 'hit' });
    const head = await fetch(`${base}/tx/kept`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    openGate();
    expect((await slow).status).toBe(200);
  });
});
