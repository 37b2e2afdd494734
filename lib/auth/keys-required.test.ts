// API_KEYS_REQUIRED and key expiry through the real HTTP edge (lib/server/server.ts) to the real v2/v3
// handlers: anonymous requests are 401 in each API's envelope (from loopback too), a
// key answers until it expires and is 401 "API key expired" after, even while its lookup is remembered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config';
import { migrate } from '../db/migrate';
import type { AtlasServer } from '../server/server';
import { testApi, type TestApi } from '../testing/api';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { startEdgeTestServer } from '../testing/http-server';
import { createAccess } from './access';
import { createKey } from './keys';
import { memoryLimiter } from './limiter';

const RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const REQUIRED = 'an API key is required: send it in the X-API-Key header or the api_key parameter';

let t: TestDatabase;
let api: TestApi;
let server: AtlasServer;
let base: string;

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  const config = parseConfig({ VITEST: 'true', API_KEYS_REQUIRED: 'on' });
  const access = createAccess({ prisma: t.db.prisma, limiter: memoryLimiter(), anonRps: 1000, exemptLoopback: true, keysRequired: config.apiKeysRequired, keyCacheMs: 60_000 });
  api = testApi({ db: t.db, config, access });
  ({ edge: server, url: base } = await startEdgeTestServer(config, api.fetch));
});

afterAll(async () => {
  await server?.close();
  await api?.close();
  await t?.drop();
});

const rpc = (params: Record<string, unknown>) =>
  fetch(`${base}/api/v2/jsonRPC`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'packAddress', params }) });

describe('API_KEYS_REQUIRED=on', () => {
  // /api/health and the OpenAPI documents and reference pages are route files of their own that never ask lib/auth.
  it('refuses anonymous requests with 401 in each envelope, loopback included', async () => {
    const v2 = await fetch(`${base}/api/v2/packAddress?address=${RAW}`);
    expect([v2.status, await v2.json()]).toEqual([401, expect.objectContaining({ ok: false, code: 401, error: REQUIRED })]);
    const json = await rpc({ address: RAW });
    expect(await json.json()).toMatchObject({ ok: false, code: 401, error: REQUIRED, jsonrpc: '2.0', id: 7 });
    const v3 = await fetch(`${base}/api/v3/blocks?limit=1`);
    expect([v3.status, await v3.json()]).toEqual([401, { error: REQUIRED }]);
  });

  // Its lookup (remembered 60 s here) is made before it expires and still remembered after.
  it('a key answers until it expires, then 401 "API key expired", though its lookup is remembered', async () => {
    const created = await createKey(t.db.prisma, { name: 'short-lived', expiresAt: new Date(Date.now() + 5000) });
    expect((await fetch(`${base}/api/v3/blocks?limit=1`, { headers: { 'x-api-key': created.key } })).status).toBe(200);
    expect((await rpc({ address: RAW, api_key: created.key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, created.expiresAt!.getTime() + 100 - Date.now())));
    const v3 = await fetch(`${base}/api/v3/blocks?limit=1`, { headers: { 'x-api-key': created.key } });
    expect([v3.status, await v3.json()]).toEqual([401, { error: 'API key expired' }]);
    const v2 = await fetch(`${base}/api/v2/packAddress?address=${RAW}&api_key=${created.key}`);
    expect(await v2.json()).toMatchObject({ ok: false, code: 401, error: 'API key expired' });
  });
});
