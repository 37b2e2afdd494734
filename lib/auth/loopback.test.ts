// A local instance does not throttle its owner: bursts through the real HTTP edge (lib/server/server.ts) to
// the real v2 handlers and access check, from loopback and from this machine's non-loopback address,
// directly and behind a reverse proxy (TRUST_PROXY), with the default anonymous limit.
import http from 'node:http';
import os from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config';
import { migrate } from '../db/migrate';
import type { AtlasServer } from '../server/server';
import { testApi, type TestApi } from '../testing/api';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { startEdgeTestServer } from '../testing/http-server';
import { createAccess } from './access';
import { memoryLimiter, WINDOW_MS } from './limiter';

const BURST = 200;
const CONNECTIONS = 16;
const RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';

/** An address of this machine that is not loopback (a container's eth0): clients connecting to it arrive from it. */
function ownNonLoopbackAddress(): string {
  const found = Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && i.family === 'IPv4');
  if (!found) throw new Error('this test needs a non-loopback IPv4 address on the machine (none found)');
  return found.address;
}

let t: TestDatabase;
const running: { server: AtlasServer; api: TestApi }[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
});
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.server.close();
    await r.api.close();
  }
});
afterAll(() => t?.drop());

/** `npm start`'s edge and the v2/v3 handlers with the access check the runtime builds from `env`, on every interface. */
async function start(env: Record<string, string> = {}): Promise<number> {
  const config = parseConfig({ VITEST: 'true', ...env });
  const access = createAccess({ prisma: t.db.prisma, limiter: memoryLimiter(), anonRps: config.rateLimitAnonRps, exemptLoopback: config.rateLimitExemptLoopback });
  const api = testApi({ db: t.db, config, access });
  const { edge: server, port } = await startEdgeTestServer(config, api.fetch, '0.0.0.0');
  running.push({ server, api });
  return port;
}

interface Burst {
  statuses: number[];
  limited: { error: string }[];
}

/** BURST GETs over CONNECTIONS keep-alive connections to host:port, all at once, in one rate-limit window. */
async function burst(host: string, port: number, headers: Record<string, string> = {}): Promise<Burst> {
  await new Promise((r) => setTimeout(r, WINDOW_MS - (Date.now() % WINDOW_MS) + 5));
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const one = () =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get({ host, port, path: `/api/v2/detectAddress?address=${RAW}`, agent, headers }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        })
        .on('error', reject);
    });
  try {
    const answers = await Promise.all(Array.from({ length: BURST }, one));
    const sockets = Object.values(agent.sockets).flat().length + Object.values(agent.freeSockets).flat().length;
    expect(sockets).toBeLessThanOrEqual(CONNECTIONS);
    return { statuses: answers.map((a) => a.status), limited: answers.filter((a) => a.status === 429).map((a) => JSON.parse(a.body)) };
  } finally {
    agent.destroy();
  }
}

const count = (b: Burst, status: number) => b.statuses.filter((s) => s === status).length;

describe('the anonymous rate limit and loopback', () => {
  it(`by default a loopback burst of ${BURST} requests from ${CONNECTIONS} connections is never throttled`, async () => {
    const port = await start();
    const b = await burst('127.0.0.1', port);
    expect(count(b, 200)).toBe(BURST);
  });

  it('a burst from a non-loopback address is throttled, and the 429 says loopback is not limited', async () => {
    const port = await start();
    const b = await burst(ownNonLoopbackAddress(), port);
    // RATE_LIMIT_ANON_RPS 20: the rest of the window's requests are refused.
    expect(count(b, 429)).toBeGreaterThan(BURST / 2);
    expect(count(b, 200) + count(b, 429)).toBe(BURST);
    expect(b.limited[0]).toMatchObject({ ok: false, code: 429, error: expect.stringMatching(/20 requests per second without an API key .*loopback are not limited/) });
  });

  it('RATE_LIMIT_EXEMPT_LOOPBACK=off limits loopback like anyone', async () => {
    const port = await start({ RATE_LIMIT_EXEMPT_LOOPBACK: 'off' });
    const b = await burst('127.0.0.1', port);
    expect(count(b, 429)).toBeGreaterThan(BURST / 2);
    expect(b.limited[0]!.error).not.toMatch(/loopback/);
  });

  it('with TRUST_PROXY a proxy on loopback exempts no one behind it: the forwarded address decides', async () => {
    const port = await start({ TRUST_PROXY: 'on' });
    // A proxy on this machine forwarding a remote client: limited.
    expect(count(await burst('127.0.0.1', port, { 'x-forwarded-for': '203.0.113.7' }), 429)).toBeGreaterThan(BURST / 2);
    // The client's own claim comes first, the proxy appends the address it saw: still the remote one.
    expect(count(await burst('127.0.0.1', port, { 'x-forwarded-for': '127.0.0.1, 203.0.113.8' }), 429)).toBeGreaterThan(BURST / 2);
    // A proxy that forwards no address: no one is taken for local.
    expect(count(await burst('127.0.0.1', port), 429)).toBeGreaterThan(BURST / 2);
    // A client on the proxy's own machine: not limited.
    expect(count(await burst('127.0.0.1', port, { 'x-forwarded-for': '::1' }), 200)).toBe(BURST);
  });

  it('a client cannot claim to be on loopback with the header the server sets', async () => {
    const port = await start();
    const b = await burst(ownNonLoopbackAddress(), port, { 'x-atlas-client-loopback': '1' });
    expect(count(b, 429)).toBeGreaterThan(BURST / 2);
  });
});
