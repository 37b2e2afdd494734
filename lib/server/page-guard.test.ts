// The pages' rate limit and render bound over real sockets, in front of a stub handler that stands for
// Next: a client past its page budget gets a small 429 page, loopback and TRUST_PROXY count as for the
// API, and renders past the bound wait in a short queue or are told to come back (503).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLimiter } from '../auth/limiter';
import { parseConfig } from '../config';
import { log } from '../log';
import { createPageCache } from '../http/page-cache';
import { createPageGuard, type PageGuard, type PageGuardOptions } from './page-guard';
import { createAtlasServer, type AtlasServer } from './server';

let running: AtlasServer | undefined;
afterEach(async () => {
  openGate();
  await running?.close();
  running = undefined;
});

let renders: string[] = [];
/** The 'close' listeners each response carried when it reached the app (what the edge's layers added). */
let closeListeners: number[] = [];
let gate = Promise.resolve();
let openGate = () => {};
const closeGate = () => {
  gate = new Promise<void>((r) => (openGate = r));
};

/** A stub app: pages under /slow/ wait for the gate. */
async function stub(req: IncomingMessage, res: ServerResponse) {
  renders.push(req.url ?? '/');
  closeListeners.push(res.listenerCount('close'));
  if (req.url?.startsWith('/slow/')) await gate;
  res.setHeader('content-type', req.url?.startsWith('/api/') ? 'application/json' : 'text/html; charset=utf-8');
  res.end(req.url?.startsWith('/api/') ? '{}' : `<html>${req.url}</html>`);
}

async function start(o: Partial<PageGuardOptions> & { env?: Record<string, string> } = {}): Promise<{ base: string; guard: PageGuard }> {
  const config = parseConfig({ VITEST: 'true', ...o.env });
  const guard = createPageGuard({ limiter: memoryLimiter(), rps: 3, exemptLoopback: false, maxRenders: 4, ...o });
  running = createAtlasServer({ config, handle: stub, log, pages: createPageCache(), pageGuard: guard });
  await new Promise<void>((resolve) => running!.server.listen(0, '127.0.0.1', resolve));
  renders = [];
  closeListeners = [];
  return { base: `http://127.0.0.1:${(running.server.address() as AddressInfo).port}`, guard };
}

const get = async (url: string, headers: Record<string, string> = {}) => {
  const r = await fetch(url, { headers });
  return { status: r.status, body: await r.text(), type: r.headers.get('content-type'), retry: r.headers.get('retry-after'), limit: r.headers.get('x-ratelimit-limit'), csp: r.headers.get('content-security-policy') };
};
const statuses = async (urls: string[], headers: Record<string, string> = {}) => {
  const out: number[] = [];
  for (const u of urls) out.push((await get(u, headers)).status);
  return out;
};

/** Waits for the next one-second window, so the requests that follow share one. */
const freshWindow = () => new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
/**
 * Runs `fn` from the start of a window until one run stays within it (a loaded machine may take longer than
 * a second for a few requests; a run across two windows has two budgets and says nothing).
 */
async function inOneWindow<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    await freshWindow();
    const w = Math.floor(Date.now() / 1000);
    const out = await fn();
    if (Math.floor(Date.now() / 1000) === w || attempt === 4) return out;
  }
}

describe('page rate limit', () => {
  it('gives a client its page budget per second, kept renders included, then a small 429 page; the API and built files are not pages', async () => {
    const { base, guard } = await start();
    const [answers, refused] = await inOneWindow(async () => {
      const answers = await statuses([`${base}/blocks`, `${base}/blocks`, `${base}/api/v3/x`, `${base}/_next/static/a.js`, `${base}/tx/a`]);
      return [answers, await get(`${base}/blocks`)] as const;
    });
    expect(answers).toEqual([200, 200, 200, 200, 200]);
    expect(refused).toMatchObject({ status: 429, type: 'text/html; charset=utf-8', limit: '3', csp: "default-src 'none'; frame-ancestors 'none'" });
    expect(Number(refused.retry)).toBeGreaterThanOrEqual(1);
    expect(refused.body).toContain('<h1>Too many requests</h1>');
    expect(refused.body).toContain('more than 3 pages in a second');
    expect(refused.body).not.toContain('<script');
    expect(guard.stats.limited).toBeGreaterThanOrEqual(1);
    // Next second, a new budget.
    await freshWindow();
    expect((await get(`${base}/blocks`)).status).toBe(200);
  });

  it('does not count clients on loopback when RATE_LIMIT_EXEMPT_LOOPBACK is on', async () => {
    const { base } = await start({ exemptLoopback: true });
    expect(await inOneWindow(() => statuses(Array(8).fill(`${base}/blocks`)))).toEqual(Array(8).fill(200));
  });

  it('with TRUST_PROXY counts the forwarded client, and a proxy on loopback exempts no one behind it', async () => {
    const { base } = await start({ exemptLoopback: true, env: { TRUST_PROXY: 'on' } });
    const one = { 'x-forwarded-for': '203.0.113.5' };
    const [first, refused] = await inOneWindow(async () => [await statuses(Array(3).fill(`${base}/blocks`), one), await get(`${base}/blocks`, one)] as const);
    expect(first).toEqual([200, 200, 200]);
    expect(refused.status).toBe(429);
    expect(refused.body).toContain('Visitors on this machine are not limited');
    // Another client behind the same proxy has its own budget; one forwarded as loopback is exempt.
    const [other, local] = await inOneWindow(async () => [
      await statuses(Array(4).fill(`${base}/blocks`), { 'x-forwarded-for': '203.0.113.6' }),
      await statuses(Array(5).fill(`${base}/blocks`), { 'x-forwarded-for': '127.0.0.1' }),
    ]);
    expect(other).toEqual([200, 200, 200, 429]);
    expect(local).toEqual(Array(5).fill(200));
    // No forwarded address: the proxy's own loopback peer does not make the request local.
    expect(await inOneWindow(() => statuses(Array(4).fill(`${base}/blocks`)))).toEqual([200, 200, 200, 429]);
  });
});

describe('page render bound', () => {
  it('runs at most maxRenders at once; the next wait their turn, a request for a waiting render joins it', async () => {
    const { base, guard } = await start({ rps: 1000, maxRenders: 1 });
    closeGate();
    const first = get(`${base}/slow/a`);
    await expect.poll(() => renders).toEqual(['/slow/a']);
    const second = get(`${base}/slow/b`);
    const sameAsSecond = get(`${base}/slow/b?cb=1`);
    await expect.poll(() => guard.stats.queued).toBe(1);
    expect(renders).toEqual(['/slow/a']);
    // What /api/health reports as load.pages.
    expect(running!.load.pages).toMatchObject({ rendering: 1, queued: 1, refused: 0 });
    // A link prefetch asks for no render (Next answers it with the route's tree) and takes no slot.
    expect((await get(`${base}/blocks?_rsc=x`, { rsc: '1', 'next-router-prefetch': '1', 'next-router-segment-prefetch': '/_tree' })).status).toBe(200);
    expect(renders).toEqual(['/slow/a', '/blocks?_rsc=x']);
    openGate();
    expect((await Promise.all([first, second, sameAsSecond])).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(renders).toEqual(['/slow/a', '/blocks?_rsc=x', '/slow/b']);
    expect(guard.stats).toMatchObject({ rendering: 0, queued: 0, refused: 0 });
    // Whatever layers a render passed (deadline, request slot, client share, queue, render slot, page
    // cache), the app gets its response with one 'close' listener of theirs: Next adds several of its own
    // to every render, and together they must stay under Node's 10 (else MaxListenersExceededWarning).
    expect(closeListeners).toEqual([1, 1, 1]);
  });

  it('lets one client have 4 renders waiting or running; its next is refused at once, another client still waits its turn', async () => {
    const { base, guard } = await start({ rps: 1000, maxRenders: 1, env: { TRUST_PROXY: 'on' } });
    closeGate();
    const one = { 'x-forwarded-for': '203.0.113.1' };
    const four = Array.from({ length: 4 }, (_, i) => get(`${base}/slow/${i}`, one));
    await expect.poll(() => guard.stats.queued).toBe(3);
    expect(await get(`${base}/slow/5`, one)).toMatchObject({ status: 503, retry: '1' });
    const other = get(`${base}/slow/other`, { 'x-forwarded-for': '203.0.113.2' });
    await expect.poll(() => guard.stats.queued).toBe(4);
    openGate();
    expect((await Promise.all([...four, other])).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // Its renders over, the client has its share again.
    expect((await get(`${base}/slow/6`, one)).status).toBe(200);
  });

  it('tells a render that waited too long, or found the queue full, to come back (503 page, Retry-After)', async () => {
    const { base, guard } = await start({ rps: 1000, maxRenders: 1, maxWaitMs: 300, env: { TRUST_PROXY: 'on' } });
    await get(`${base}/tx/kept`);
    closeGate();
    const first = get(`${base}/slow/a`);
    await expect.poll(() => renders).toEqual(['/tx/kept', '/slow/a']);
    const waited = await get(`${base}/slow/b`);
    expect(waited).toMatchObject({ status: 503, retry: '1', type: 'text/html; charset=utf-8' });
    expect(waited.body).toContain('<h1>Busy</h1>');
    // The queue holds 8 per render slot: the ninth waiting render is refused at once.
    // (Each from a client of its own: one client may have 4 renders waiting or running.)
    const queued = Array.from({ length: 8 }, (_, i) => get(`${base}/slow/q${i}`, { 'x-forwarded-for': `203.0.113.${i}` }));
    await expect.poll(() => guard.stats.queued).toBe(8);
    const refusedBefore = guard.stats.refused;
    expect((await get(`${base}/slow/over`, { 'x-forwarded-for': '203.0.113.99' })).status).toBe(503);
    // Refused without waiting: had it queued, the eight queued before it would have run out of time first.
    expect([guard.stats.queued, guard.stats.refused - refusedBefore]).toEqual([8, 1]);
    // Kept renders are still served while every slot is taken.
    expect(await get(`${base}/tx/kept`)).toMatchObject({ status: 200, body: '<html>/tx/kept</html>' });
    openGate();
    await first;
    expect((await Promise.all(queued)).every((r) => r.status === 503 || r.status === 200)).toBe(true);
    expect(guard.stats.refused).toBeGreaterThanOrEqual(2);
  });
});
