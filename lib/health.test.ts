// /api/health over a real pool of lite servers and a real database: it names the lite server that failed
// and why, says degraded with a reason when the chain is unreachable, and answers from its background
// probes without waiting for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHealth, type HealthServices } from './health';
import { createLiteClient, liteServerStatus } from './lite';
import { log } from './log';
import { createTestDatabase, type TestDatabase } from './testing/database';
import { TvmPool, type TvmStatus } from './tvm/pool';
import type { DevnetStatus } from './devnet';
import { sleep, startTestServer, waitFor, type TestLiteServer } from './testing/lite-servers';
import { listeningSideCache } from './api/v3/side-cache';
import { TransactionCache } from './api/v3/transaction-cache';

let servers: TestLiteServer[];
let database: TestDatabase;
let services: HealthServices;

beforeAll(async () => {
  servers = await Promise.all([0, 1].map((i) => startTestServer(i)));
  database = await createTestDatabase();
  const lite = createLiteClient(
    { kind: 'servers', servers: servers.map((s) => s.endpoint) },
    { timeoutMs: 500, cache: false, pool: { reconnectMinMs: 50, reconnectMaxMs: 200 } },
  );
  services = { config: { network: 'custom' }, db: database.db, lite };
}, 30_000);

afterAll(async () => {
  services?.lite.engine.close();
  await database?.drop();
  for (const s of servers ?? []) await s.stop();
});

describe('health', () => {
  it('is ok with every subsystem up, and reports each lite server, memory and the emulator', async () => {
    const tvm = new TvmPool({ workers: 1, log });
    try {
      const h = await createHealth(async () => ({ ...services, tvm }))();
      expect(h).toMatchObject({ status: 'ok', db: 'ok', chain: expect.stringMatching(/^ok: custom, masterchain seqno \d+/), tvm: { state: 'ok', restarts: 0 } });
      expect(h.reason).toBeUndefined();
    } finally {
      await tvm.close();
    }
    const h = await createHealth(async () => services)();
    expect(h.reason).toBeUndefined();
    expect(h.lite_servers).toHaveLength(2);
    expect(h.lite_servers!.map((s) => s.server)).toEqual(servers.map((s) => `127.0.0.1:${s.endpoint.port}`));
    expect(h.memory.rss).toBeGreaterThan(h.memory.heap_used);
  });

  it('reports the caches of the process, and side maps not kept while the change notices are not heard', async () => {
    const sideCache = (await listeningSideCache(database.db, 1 << 20))!;
    const txCache = new TransactionCache(2 << 20);
    const health = createHealth(async () => ({ ...services, sideCache, txCache }), { probeMaxAgeMs: 0 });
    expect(await waitFor(() => sideCache.stats.listening, 10_000)).toBe(true);
    txCache.set('00', { inMsg: null, outMsgs: [], description: { type: 'ord' } as never });
    const h = await health();
    expect(h.caches).toEqual({
      transactions: { entries: 1, bytes: expect.any(Number), max_bytes: 2 << 20 },
      side_maps: { entries: 0, bytes: 0, max_bytes: 1 << 20, listening: true },
    });
    expect(h.status).toBe('ok');
    // As the listener does when its connection is lost: still ok (answers read their side maps), and said so.
    sideCache.deaf();
    expect(await health()).toMatchObject({ status: 'ok', caches: { side_maps: { listening: false } } });
    expect((await createHealth(async () => services)()).caches).toBeUndefined();
  });

  it('says which lite server failed and why, and degraded with the reason once none answers', async () => {
    const health = createHealth(async () => services, { probeMaxAgeMs: 0 });
    expect((await health()).status).toBe('ok');
    await servers[0]!.stop();
    expect(await waitFor(() => liteServerStatus(services.lite)![0]!.state !== 'ready', 3000)).toBe(true);
    const one = await health();
    const down = one.lite_servers!.find((s) => s.server.endsWith(`:${servers[0]!.endpoint.port}`))!;
    expect(down.state).not.toBe('ready');
    expect(down.lastFailure ?? down.lastError).toEqual(expect.any(String));

    await servers[1]!.stop();
    // The answer comes from the latest finished probe; a later request sees the failed one.
    let h = await health();
    const deadline = Date.now() + 5000;
    while (h.status === 'ok' && Date.now() < deadline) {
      await sleep(50);
      h = await health();
    }
    expect(h.status).toBe('degraded');
    expect(h.chain).toMatch(/^error: custom: /);
    expect(h.reason).toContain('lite servers down');
    for (const s of servers) expect(h.reason).toContain(`127.0.0.1:${s.endpoint.port}`);

    await Promise.all(servers.map((s) => s.start()));
    expect(await waitFor(() => liteServerStatus(services.lite)!.every((s) => s.state === 'ready'), 5000)).toBe(true);
  }, 20_000);

  it('answers from the latest probe while a new one waits on a stuck lite server', async () => {
    const health = createHealth(async () => services, { probeMaxAgeMs: 0 });
    expect((await health()).status).toBe('ok');
    for (const s of servers) s.hang.add('liteServer.getMasterchainInfo');
    try {
      // The probe started now waits out the 500 ms lite budget; the answer does not wait for it.
      const first = await Promise.race([health().then((h) => h.status), sleep(400).then(() => 'waited for the probe')]);
      expect(first).toBe('ok');
    } finally {
      for (const s of servers) s.hang.delete('liteServer.getMasterchainInfo');
    }
  });

  it("is degraded with the devnet's reason when its block producer is stuck", async () => {
    const stuck: DevnetStatus = { state: 'degraded', reason: 'block producer: no block sealed for 12 s (every 2000 ms expected)', emulator: { roomyStack: true, replaced: 0 } };
    const h = await createHealth(async () => ({ ...services, devnet: { status: () => stuck } }))();
    expect(h.status).toBe('degraded');
    expect(h.reason).toContain('devnet block producer: no block sealed for 12 s (every 2000 ms expected)');
    expect(h.devnet).toEqual(stuck);
  });

  it("is degraded with the emulator's error when it is broken", async () => {
    // The pool's own report after a crash (lib/tvm's isolation test crashes real workers).
    const crashed: TvmStatus = { state: 'degraded', workers: 2, busy: 0, queued: 0, restarts: 3, resultsRefused: 0, backoff: { contracts: 0, clients: 0, refused: 0 }, lastFailure: { at: new Date().toISOString(), reason: 'emulator aborted' } };
    const h = await createHealth(async () => ({ ...services, tvm: { status: () => crashed } }))();
    expect(h.status).toBe('degraded');
    expect(h.reason).toContain('emulator degraded: emulator aborted (3 restarts)');
  });
});
