// MAX_IN_FLIGHT_PER_CLIENT through the real HTTP edge (lib/server/server.ts) and the real v2/v3 handlers:
// a client holding its cap of requests (v2 calls waiting on a lite server that does not answer) gets 429
// in each API's envelope for one more, while another address and a key get theirs; the slots come back
// when the held requests end. Clients are named by X-Forwarded-For (TRUST_PROXY=on), as behind a proxy.
import type { LiteClient } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config';
import { migrate } from '../db/migrate';
import type { AtlasServer } from '../server/server';
import { createLiteClient } from '../lite';
import { testApi, type TestApi } from '../testing/api';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { startEdgeTestServer } from '../testing/http-server';
import { startTestServer, type TestLiteServer } from '../testing/lite-servers';
import { createAccess } from './access';
import { inFlightOf } from './in-flight';
import { createKey } from './keys';
import { memoryLimiter } from './limiter';

const CAP = 2;
const LITE_TIMEOUT_MS = 2000;
const RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';

let t: TestDatabase;
let lite: TestLiteServer;
let client: LiteClient;
let api: TestApi;
let server: AtlasServer;
let base: string;

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  lite = await startTestServer(7);
  lite.hang.add('liteServer.getMasterchainInfo');
  client = createLiteClient({ kind: 'servers', servers: [lite.endpoint] }, { timeoutMs: LITE_TIMEOUT_MS, cache: false });
  const config = parseConfig({ VITEST: 'true', TRUST_PROXY: 'on', MAX_IN_FLIGHT_PER_CLIENT: String(CAP) });
  const access = createAccess({ prisma: t.db.prisma, limiter: memoryLimiter(), anonRps: 1000, exemptLoopback: true, maxInFlightPerClient: config.maxInFlightPerClient });
  api = testApi({ db: t.db, lite: client, config, access });
  ({ edge: server, url: base } = await startEdgeTestServer(config, api.fetch));
}, 60_000);

afterAll(async () => {
  await server?.close();
  await api?.close();
  client?.engine.close();
  await lite?.stop();
  await t?.drop();
});

const from = (ip: string, path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers: { 'x-forwarded-for': ip, ...headers } });
/** A v2 call that stays in flight until the lite client gives up on the silent server (504). */
const held = (ip: string, headers: Record<string, string> = {}) => from(ip, '/api/v2/getMasterchainInfo', headers);

async function untilInFlight(n: number) {
  for (const end = Date.now() + 5000; server.load.in_flight < n && Date.now() < end; ) await new Promise((r) => setTimeout(r, 10));
  expect(server.load.in_flight).toBe(n);
}

describe('requests in flight per client', () => {
  it('one more than the cap is 429 in v2 and v3 envelopes; other clients and keys keep their share; slots come back', async () => {
    const key = (await createKey(t.db.prisma, { name: 'own share' })).key;
    const holding = [held('10.1.0.1'), held('10.1.0.1')];
    await untilInFlight(CAP);

    const v2 = await from('10.1.0.1', `/api/v2/packAddress?address=${RAW}`);
    expect(v2.status).toBe(429);
    expect(v2.headers.get('retry-after')).toBe('1');
    expect(await v2.json()).toMatchObject({ ok: false, code: 429, error: `too many requests at once: ${CAP} requests in flight per client address without an API key; wait for an answer before sending more; clients on this machine's loopback are not limited` });
    const v3 = await from('10.1.0.1', '/api/v3/blocks?limit=1');
    expect(v3.status).toBe(429);
    expect(await v3.json()).toEqual({ error: expect.stringMatching(/^too many requests at once/) });

    // Another address, and a key sent from the same address, are not held back by it.
    expect((await from('10.1.0.2', `/api/v2/packAddress?address=${RAW}`)).status).toBe(200);
    expect((await from('10.1.0.1', '/api/v3/blocks?limit=1', { 'x-api-key': key })).status).toBe(200);
    // Loopback stays exempt, as from its rate limit (RATE_LIMIT_EXEMPT_LOOPBACK).
    const local = [held('127.0.0.1'), held('127.0.0.1'), held('127.0.0.1')];

    const ended = await Promise.all([...holding, ...local]);
    expect(ended.map((r) => r.status)).toEqual([504, 504, 504, 504, 504]);
    expect((await from('10.1.0.1', `/api/v2/packAddress?address=${RAW}`)).status).toBe(200);
  }, 30_000);

  it('a key has a share of its own: its cap is counted per key, whichever address sends it', async () => {
    const { key, id } = await createKey(t.db.prisma, { name: 'capped key' });
    const holding = [held('10.2.0.1', { 'x-api-key': key }), held('10.2.0.2', { 'x-api-key': key })];
    await untilInFlight(CAP);
    // A keyed request takes its key's slot once the key is looked up (a database read), after the edge counted it.
    await expect.poll(() => inFlightOf(`key:${id}`), { timeout: 5000, interval: 10 }).toBe(CAP);
    const refused = await from('10.2.0.3', `/api/v2/packAddress?address=${RAW}&api_key=${key}`);
    expect(await refused.json()).toMatchObject({ ok: false, code: 429, error: `too many requests at once: this key may have ${CAP} requests in flight; wait for an answer before sending more` });
    expect((await from('10.2.0.3', `/api/v2/packAddress?address=${RAW}`)).status).toBe(200);
    await Promise.all(holding);
  }, 30_000);
});
