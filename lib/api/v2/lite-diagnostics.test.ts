// Liteserver diagnostics (issue 16): with a pool of one working devnet lite server (real ADNL/TCP) and one
// dead address, /api/health and the v2 root say which server answers, how fast, how far along it is and
// what the other one last failed with; once none answers, v2 errors name each server and why, and no
// answer names an address but /api/health.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { LiteClient } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adnlSeedOf } from '../../devnet';
import { startAdnlServer, type AdnlServer } from '../../devnet/transport/adnl-server';
import { createHealth } from '../../health';
import { createLiteClient } from '../../lite';
import { MODES, testApi, type TestApi } from '../../testing/api';
import { startTestChain, type TestChain } from '../../testing/chain';
import { createTestDatabase, type TestDatabase } from '../../testing/database';

let chain: TestChain;
let server: AdnlServer | undefined;
let client: LiteClient;
let api: TestApi;
let database: TestDatabase;
let deadPort: number;

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

interface RootServer {
  index: number;
  state: string;
  answering: boolean;
  latency_ms: number | null;
  last_seqno: number | null;
  last_seqno_at: string | null;
  last_ok_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
}

async function root(): Promise<{ status: number; text: string; servers: RootServer[] }> {
  const res = await api.fetch(new Request('http://atlas.test/api/v2/'));
  const text = await res.text();
  return { status: res.status, text, servers: (JSON.parse(text) as { result: { lite_servers: RootServer[] } }).result.lite_servers };
}

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v2-lite-diagnostics', rounds: 2 });
  server = await startAdnlServer({ host: '127.0.0.1', port: 0, seed: adnlSeedOf(chain.devnet.seed), handler: chain.devnet.handler });
  deadPort = await closedPort();
  client = createLiteClient(
    {
      kind: 'servers',
      servers: [
        { host: '127.0.0.1', port: server.port, publicKey: server.publicKey },
        { host: '127.0.0.1', port: deadPort, publicKey: server.publicKey },
      ],
    },
    { timeoutMs: 1000, cache: false, pool: { reconnectMinMs: 50, reconnectMaxMs: 200 } },
  );
  api = testApi({ lite: client });
  database = await createTestDatabase();
}, 60_000);

afterAll(async () => {
  client?.engine.close();
  await server?.close();
  await database?.drop();
  await chain?.close();
});

describe('lite server diagnostics', () => {
  it('the v2 root and /api/health say which server answers, its latency and head, and why the other fails', async () => {
    // Some traffic first, as a client would make.
    expect((await api.callV2('get', 'getMasterchainInfo')).status).toBe(200);
    const head = chain.devnet.chain.lastSeqno;

    const r = await root();
    expect(r.status).toBe(200);
    const [up, dead] = r.servers;
    expect(up).toMatchObject({ index: 0, state: 'ready', answering: true, last_seqno: head, last_error: null });
    expect(up!.latency_ms).toEqual(expect.any(Number));
    expect(Date.parse(up!.last_ok_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(up!.last_seqno_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect(dead).toMatchObject({ index: 1, answering: false, latency_ms: null, last_seqno: null, last_ok_at: null, last_error: 'connection refused' });
    expect(dead!.state).not.toBe('ready');
    expect(Date.parse(dead!.last_error_at!)).toBeGreaterThan(Date.now() - 60_000);
    // v2 is public: servers by index, no address.
    expect(r.text).not.toContain('127.0.0.1');
    expect(r.text).not.toContain(String(deadPort));

    const health = await createHealth(async () => ({ config: { network: 'custom' }, db: database.db, lite: client }))();
    expect(health.status).toBe('ok');
    expect(health.lite_servers).toMatchObject([
      { index: 0, server: `127.0.0.1:${server!.port}`, state: 'ready', answering: true, lastSeqno: head, latencyMs: expect.any(Number) },
      { index: 1, server: `127.0.0.1:${deadPort}`, answering: false, lastSeqno: null, lastFailure: 'connection refused' },
    ]);

    // The chain moves on: a probe sees the new head on the server that answers.
    await chain.seal();
    await new Promise((resolve) => setTimeout(resolve, 1100)); // probes are at most once a second
    expect((await root()).servers[0]).toMatchObject({ answering: true, last_seqno: head + 1 });
  }, 30_000);

  it('when none answers, v2 errors name every server and why (no bare "no working liteservers")', async () => {
    await server!.close();
    server = undefined;
    for (const mode of MODES) {
      const r = await api.callV2(mode, 'getMasterchainInfo');
      expect(r.status).toBe(504);
      expect(r.body.error).toMatch(/^LITE_SERVER_NETWORK timeout \(liteserver #0: (not connected|connection lost before it answered) \(.+\); #1: not connected \(connection refused\)\)$/);
      expect(r.body.error).not.toContain('127.0.0.1');
    }
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const { servers } = await root();
    expect(servers.map((s) => s.answering)).toEqual([false, false]);
    expect(servers[0]!.last_error).toEqual(expect.any(String));
    const health = await createHealth(async () => ({ config: { network: 'custom' }, db: database.db, lite: client }))();
    expect(health.status).toBe('degraded');
    expect(health.lite_servers!.every((s) => !s.answering)).toBe(true);
  }, 30_000);
});
