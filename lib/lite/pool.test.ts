/**
 * LitePool over real ADNL/TCP to three devnet ADNL servers, with an unmodified LiteClient on top.
 * Timing bounds are deliberately generous: they check "answers within the budget, never hangs".
 */
import { Address } from '@ton/core';
import { LiteClient } from 'ton-lite-client';
import { Functions as LcFunctions } from 'ton-lite-client/dist/schema.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MC_SHARD, TEST_LAST, TEST_NOW, testBlockData } from '../testing/lite-sample-handler';
import { LiteServerError, LiteTimeoutError } from './errors';
import { LitePool } from './pool';
import { sleep, startTestServer, waitFor, type TestLiteServer } from '../testing/lite-servers';

const TIMEOUT_MS = 1000;

let servers: TestLiteServer[];
let pool: LitePool;
let client: LiteClient;

const allReady = () => pool.status().every((s) => s.state === 'ready');

beforeAll(async () => {
  servers = await Promise.all([0, 1, 2].map((i) => startTestServer(i)));
  pool = new LitePool(
    servers.map((s) => s.endpoint),
    { timeoutMs: TIMEOUT_MS, reconnectMinMs: 50, reconnectMaxMs: 300, pingIntervalMs: 1000, pingTimeoutMs: 1000 },
  );
  client = new LiteClient({ engine: pool });
  expect(await waitFor(allReady, 5000)).toBe(true);
});

afterAll(async () => {
  pool.close();
  await Promise.all(servers.map((s) => s.stop()));
});

afterEach(async () => {
  // Every test leaves all servers running, answering everything, and the pool connected to them.
  for (const s of servers) s.hang.clear();
  await Promise.all(servers.map((s) => s.start()));
  expect(await waitFor(allReady, 5000)).toBe(true);
});

const timeCalls = () => servers.map((s) => s.calls('liteServer.getTime'));

describe('LitePool', () => {
  it('answers through every server, round robin', async () => {
    const before = timeCalls();
    for (let i = 0; i < 30; i++) expect(await client.getCurrentTime()).toBe(TEST_NOW);
    const got = timeCalls().map((n, i) => n - before[i]);
    expect(got.reduce((a, b) => a + b)).toBe(30);
    for (const n of got) expect(n).toBeGreaterThanOrEqual(5);
    // and concurrently
    const results = await Promise.all(Array.from({ length: 50 }, () => client.getCurrentTime()));
    expect(results.every((t) => t === TEST_NOW)).toBe(true);
  });

  it('carries large answers and the awaitSeqno prefix', async () => {
    const res = await pool.query(LcFunctions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: { ...TEST_LAST, seqno: 9 } });
    expect(res.data.equals(testBlockData(9, 1024))).toBe(true);
    const big = await client.engine.query(LcFunctions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: TEST_LAST });
    expect(big.data.length).toBe(1024);
    expect((await client.getMasterchainInfo({ awaitSeqno: 100 })).last.seqno).toBe(100);
    await expect(client.getMasterchainInfo({ awaitSeqno: 101 })).rejects.toMatchObject({ name: 'LiteServerError', code: 652 });
  });

  it('keeps answering when one server stops', async () => {
    await servers[0].stop();
    const before = timeCalls();
    for (let i = 0; i < 20; i++) expect(await client.getCurrentTime()).toBe(TEST_NOW);
    const results = await Promise.all(Array.from({ length: 20 }, () => client.getCurrentTime()));
    expect(results.every((t) => t === TEST_NOW)).toBe(true);
    const got = timeCalls().map((n, i) => n - before[i]);
    expect(got[0]).toBe(0);
    expect(got[1] + got[2]).toBe(40);
    const [down, up] = pool.status();
    expect(down!.state).not.toBe('ready');
    // Health names the failed server and why; the ones serving show when they last answered.
    expect(down).toMatchObject({ server: `127.0.0.1:${servers[0].endpoint.port}`, lastFailureAt: expect.any(String), lastFailure: expect.any(String) });
    expect(Date.parse(up!.lastSuccessAt!)).toBeGreaterThan(Date.now() - 5000);
  });

  it('retries a read on another server when one is stuck, within the budget', async () => {
    servers[1].hang.add('liteServer.getTime');
    const before = servers[1].calls('liteServer.getTime');
    for (let i = 0; i < 6; i++) {
      const t0 = Date.now();
      expect(await client.getCurrentTime()).toBe(TEST_NOW);
      expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS + 500);
    }
    // after its first timeout the stuck server is avoided
    expect(servers[1].calls('liteServer.getTime') - before).toBe(1);
  });

  it('reports liteServer.error answers as LiteServerError with code and message, without retrying them forever', async () => {
    const addr = new Address(0, Buffer.alloc(32, 1));
    const boom = () => servers.reduce((n, s) => n + s.calls('liteServer.runSmcMethod'), 0);
    const b0 = boom();
    const e1 = await client.runMethod(addr, 'seqno', Buffer.alloc(0), TEST_LAST).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(LiteServerError);
    expect(e1).toMatchObject({ code: 602, message: 'boom' });
    expect(boom() - b0).toBe(1);

    // 651 (not ready) is tried on one other server, then reported
    const cfg = () => servers.reduce((n, s) => n + s.calls('liteServer.getConfigAll'), 0);
    const c0 = cfg();
    const e2 = await client.getConfig(TEST_LAST).catch((e: unknown) => e);
    expect(e2).toBeInstanceOf(LiteServerError);
    expect(e2).toMatchObject({ code: 651, message: 'state not ready' });
    expect(cfg() - c0).toBe(2);

    // unsupported queries, too
    await expect(pool.query(LcFunctions.liteServer_getState, { kind: 'liteServer.getState', id: TEST_LAST })).rejects.toThrow(
      'unsupported query liteServer.getState',
    );
    expect(await client.getCurrentTime()).toBe(TEST_NOW);
  });

  it('never sends a message twice', async () => {
    expect(await client.sendMessage(Buffer.from('b5ee9c72', 'hex'))).toEqual({ status: 1 });
    await expect(client.sendMessage(Buffer.alloc(0))).rejects.toMatchObject({
      name: 'LiteServerError',
      message: 'cannot apply external message: empty',
    });
    for (const s of servers) s.hang.add('liteServer.sendMessage');
    const sends = () => servers.reduce((n, s) => n + s.calls('liteServer.sendMessage'), 0);
    const s0 = sends();
    const t0 = Date.now();
    const err = await pool
      .query(LcFunctions.liteServer_sendMessage, { kind: 'liteServer.sendMessage', body: Buffer.from('b5ee9c72', 'hex') })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiteTimeoutError);
    expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS + 1000);
    await sleep(100);
    expect(sends() - s0).toBe(1);
  });

  it('fails with LiteTimeoutError within the budget when every server is down, and recovers when they are back', async () => {
    await Promise.all(servers.map((s) => s.stop()));
    for (let i = 0; i < 2; i++) {
      const t0 = Date.now();
      const err = await client.getCurrentTime().catch((e: unknown) => e);
      const elapsed = Date.now() - t0;
      expect(err).toBeInstanceOf(LiteTimeoutError);
      expect((err as LiteTimeoutError).timeoutMs).toBe(TIMEOUT_MS);
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 1000);
    }
    expect(pool.isReady()).toBe(false);

    await Promise.all(servers.map((s) => s.start()));
    const t0 = Date.now();
    let ok = false;
    while (!ok && Date.now() - t0 < 5000) {
      ok = await client.getCurrentTime().then(
        (t) => t === TEST_NOW,
        () => false,
      );
    }
    expect(ok).toBe(true);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(await waitFor(allReady, 3000)).toBe(true);
    expect(pool.status().every((s) => s.connects >= 2)).toBe(true);
  });

  it('a server with the wrong key is only a timeout', async () => {
    const wrong = new LitePool([{ ...servers[0].endpoint, publicKey: servers[1].endpoint.publicKey }], {
      timeoutMs: 500,
      reconnectMinMs: 50,
      reconnectMaxMs: 200,
    });
    try {
      await expect(new LiteClient({ engine: wrong }).getCurrentTime()).rejects.toBeInstanceOf(LiteTimeoutError);
      expect(wrong.status()[0].lastError).toBeTruthy();
    } finally {
      wrong.close();
    }
  });

  it('close() ends queries in flight and refuses new ones', async () => {
    const own = new LitePool([servers[2].endpoint], { timeoutMs: 5000 });
    servers[2].hang.add('liteServer.getVersion');
    const pending = new LiteClient({ engine: own }).getVersion().catch((e: unknown) => e);
    await waitFor(() => servers[2].calls('liteServer.getVersion') > 0, 3000);
    const t0 = Date.now();
    own.close();
    const err = await pending;
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('Engine is closed');
    expect(Date.now() - t0).toBeLessThan(500);
    expect(own.isClosed()).toBe(true);
    await expect(own.query(LcFunctions.liteServer_getTime, { kind: 'liteServer.getTime' })).rejects.toThrow('Engine is closed');
  });

  it('answers block lookups by id through LiteClient', async () => {
    const hdr = await client.lookupBlockByID({ workchain: -1, shard: MC_SHARD, seqno: 7 });
    expect(hdr.id).toMatchObject({ workchain: -1, shard: MC_SHARD, seqno: 7 });
  });
});

describe('LiteConnection liveness', () => {
  it('drops a silent (half-open) connection after an unanswered ping and reconnects', async () => {
    // A TCP proxy in front of a server that can stop forwarding without closing anything.
    const { createServer, connect } = await import('node:net');
    const target = servers[0].endpoint;
    let frozen = false;
    const sockets = new Set<import('node:net').Socket>();
    const proxy = createServer((down) => {
      const up = connect(target.port, target.host);
      for (const s of [down, up]) {
        sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => {
          sockets.delete(s);
          down.destroy();
          up.destroy();
        });
      }
      down.on('data', (d: Buffer) => {
        if (!frozen) up.write(d);
      });
      up.on('data', (d: Buffer) => {
        if (!frozen) down.write(d);
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const port = (proxy.address() as import('node:net').AddressInfo).port;
    const own = new LitePool([{ ...target, port }], {
      timeoutMs: 500,
      connectTimeoutMs: 500, // a reconnect attempt made while frozen must not wait long
      pingIntervalMs: 200,
      pingTimeoutMs: 300,
      reconnectMinMs: 50,
      reconnectMaxMs: 200,
    });
    try {
      const c = new LiteClient({ engine: own });
      expect(await c.getCurrentTime()).toBe(TEST_NOW);
      frozen = true;
      await expect(c.getCurrentTime()).rejects.toBeInstanceOf(LiteTimeoutError);
      expect(await waitFor(() => own.status()[0].lastError?.includes('tcp.ping') === true, 3000)).toBe(true);
      frozen = false;
      expect(await waitFor(() => own.isReady(), 3000)).toBe(true);
      expect(await c.getCurrentTime()).toBe(TEST_NOW);
      expect(own.status()[0].connects).toBeGreaterThanOrEqual(2);
    } finally {
      own.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });
});
