/**
 * ADNL TCP server behaviour: concurrency, keepalive, malformed input, shutdown.
 */
import { randomBytes } from 'node:crypto';
import { connect, createServer } from 'node:net';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADNL_MAX_FRAME_SIZE, adnlKeyId } from '../../lite/adnl';
import {
  adnlKeyPairFromSeed,
  globalConfigFor,
  int32ToIpv4,
  ipv4ToInt32,
  startAdnlServer,
  stringifyGlobalConfig,
  type AdnlServer,
} from './adnl-server';
import { decodeLiteAnswer, decodeLiteError, encodeLiteQuery } from '../../lite/tl/codec';
import { RawAdnlClient } from '../../testing/raw-adnl-client';
import { TEST_LAST, TEST_NOW, connectTcpEngine, createTestHandler, type TestHandler } from '../../testing/lite-sample-handler';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('waitFor timed out');
    await sleep(10);
  }
}

/** Resolves true if the connection closes within timeoutMs. */
async function closesWithin(c: RawAdnlClient, timeoutMs: number): Promise<boolean> {
  return Promise.race([c.closed.then(() => true), sleep(timeoutMs).then(() => false)]);
}

describe('ADNL TCP server', () => {
  let th: TestHandler;
  let server: AdnlServer;
  const raw = (extra: Partial<Parameters<typeof RawAdnlClient.connect>[0]> = {}) =>
    RawAdnlClient.connect({ host: '127.0.0.1', port: server.port, serverPublicKey: server.publicKey, ...extra });

  beforeAll(async () => {
    // Timeouts a few times longer than a loaded CI machine's scheduling delays, so only the behaviour
    // under test closes a connection.
    th = createTestHandler({ slowMs: 1500 }); // slower than the idle timeout
    server = await startAdnlServer({ port: 0, seed: randomBytes(32), handler: th.handler, idleTimeoutMs: 1000, handshakeTimeoutMs: 800 });
  });

  afterAll(async () => {
    await server.close();
  });

  it('derives the key id from the ed25519 key', () => {
    const kp = adnlKeyPairFromSeed(Buffer.alloc(32, 1));
    expect(kp.publicKey.length).toBe(32);
    expect(kp.keyId.equals(adnlKeyId(kp.publicKey))).toBe(true);
    expect(server.keyId.equals(adnlKeyId(server.publicKey))).toBe(true);
    expect(() => adnlKeyPairFromSeed(Buffer.alloc(31))).toThrow();
  });

  it('serves concurrent queries from 3 LiteClients', async () => {
    const engines = await Promise.all([0, 1, 2].map(() => connectTcpEngine(server.port, server.publicKey)));
    try {
      expect(server.connectionCount()).toBe(3);
      const results = await Promise.all(
        engines.flatMap((engine) => {
          const c = new LiteClient({ engine });
          return Array.from({ length: 40 }, (_, i) =>
            i % 3 === 0 ? c.getCurrentTime() : i % 3 === 1 ? c.getMasterchainInfo().then((m) => m.last.seqno) : c.getVersion().then((v) => v.version),
          );
        }),
      );
      expect(results.length).toBe(120);
      results.forEach((r, i) => expect(r).toBe([TEST_NOW, TEST_LAST.seqno, 0x101][(i % 40) % 3]));
    } finally {
      engines.forEach((e) => e.close());
    }
    await waitFor(() => server.connectionCount() === 0);
  });

  it('answers tcp.ping, which keeps a connection past the idle timeout; silent ones are dropped', async () => {
    const [pinger, silent] = await Promise.all([raw(), raw()]);
    for (let i = 1n; i <= 8n; i++) {
      pinger.ping(i * 1000n + 7n);
      const pong = await pinger.next(2000);
      expect(pong && RawAdnlClient.parsePong(pong)).toBe(i * 1000n + 7n);
      await sleep(150);
    }
    expect(pinger.isClosed).toBe(false);
    expect(silent.isClosed).toBe(true); // 8 × 150 ms > idleTimeoutMs
    pinger.ping(-1n);
    expect(RawAdnlClient.parsePong((await pinger.next(2000))!)).toBe(-1n);
    pinger.close();
  });

  it('keeps a silent connection while one of its queries is in flight', async () => {
    const c = await raw();
    const qid = c.query(encodeLiteQuery({ kind: 'liteServer.getMasterchainInfoExt', mode: 0 }));
    const ans = await c.next(4000);
    expect(RawAdnlClient.parseAnswer(ans!).queryId.equals(qid)).toBe(true);
    expect(c.isClosed).toBe(false);
    c.close();
  });

  it('drops malformed handshakes and frames without disturbing other clients', async () => {
    const engine = await connectTcpEngine(server.port, server.publicKey);
    const client = new LiteClient({ engine });
    try {
      // handshake for another key id
      const wrongKey = await raw({ keyId: randomBytes(32), noWait: true });
      expect(await closesWithin(wrongKey, 3000)).toBe(true);
      // params checksum mismatch
      const badHash = await raw({ badParamsHash: true, noWait: true });
      expect(await closesWithin(badHash, 3000)).toBe(true);
      // plain garbage instead of a handshake
      const garbage = await raw({ noWait: true, keyId: Buffer.alloc(32, 0xff) });
      garbage.socket.write(randomBytes(4096));
      expect(await closesWithin(garbage, 3000)).toBe(true);

      const bad: [string, (c: RawAdnlClient) => void][] = [
        ['oversized frame', (c) => c.sendEncrypted(u32(ADNL_MAX_FRAME_SIZE + 1))],
        ['huge size field', (c) => c.sendEncrypted(u32(0xffffffff))],
        ['undersized frame', (c) => c.sendEncrypted(Buffer.concat([u32(10), Buffer.alloc(10)]))],
        ['checksum mismatch', (c) => c.sendEncrypted(Buffer.concat([u32(100), randomBytes(100)]))],
        ['unknown payload', (c) => c.send(Buffer.from('0102030405060708', 'hex'))],
        ['truncated adnl.message.query', (c) => c.send(Buffer.from('7af98bb4' + '00'.repeat(8), 'hex'))],
        ['random bytes', (c) => c.sendEncrypted(Buffer.concat([u32(0x7fffffff), randomBytes(1000)]))],
      ];
      for (const [what, act] of bad) {
        const c = await raw();
        act(c);
        expect([what, await closesWithin(c, 3000)]).toEqual([what, true]);
        expect(await client.getCurrentTime()).toBe(TEST_NOW);
      }
      await waitFor(() => server.connectionCount() === 1);
    } finally {
      engine.close();
    }
  });

  it('drops connections that never finish the handshake', async () => {
    const s = connect({ host: '127.0.0.1', port: server.port });
    s.on('error', () => {});
    await new Promise((r) => s.once('connect', r));
    s.write(Buffer.alloc(100));
    const t0 = Date.now();
    await new Promise((r) => s.once('close', r));
    expect(Date.now() - t0).toBeLessThan(800 + 3000); // the handshake timeout, not the idle one or never
  });

  it('accepts frames pipelined behind the handshake and answers out of order', async () => {
    const slow = encodeLiteQuery({ kind: 'liteServer.getMasterchainInfoExt', mode: 0 });
    const fast = encodeLiteQuery({ kind: 'liteServer.getTime' });
    const c = await RawAdnlClient.connect({ host: '127.0.0.1', port: server.port, serverPublicKey: server.publicKey, noWait: true });
    expect((await c.next(3000))?.length).toBe(0); // the server's empty handshake frame
    const slowId = c.query(slow);
    const fastId = c.query(fast);
    c.ping(5n);
    const got = [await c.next(4000), await c.next(4000), await c.next(4000)].map((p) => p!);
    // the pong is written synchronously, the fast answer a few microtasks later, the slow one last
    expect(RawAdnlClient.parsePong(got[0])).toBe(5n);
    expect(RawAdnlClient.parseAnswer(got[1]).queryId.equals(fastId)).toBe(true);
    const last = RawAdnlClient.parseAnswer(got[2]);
    expect(last.queryId.equals(slowId)).toBe(true);
    expect(decodeLiteAnswer('liteServer.getMasterchainInfoExt', last.answer).now).toBe(TEST_NOW);
    c.close();

    // and with the first query in the very same TCP write as the handshake
    const d = await RawAdnlClient.connect({
      host: '127.0.0.1',
      port: server.port,
      serverPublicKey: server.publicKey,
      noWait: true,
      pipelined: [adnlQueryPayload(fast)],
    });
    expect((await d.next())?.length).toBe(0);
    expect(decodeLiteAnswer('liteServer.getTime', RawAdnlClient.parseAnswer((await d.next())!).answer).now).toBe(TEST_NOW);
    d.close();
  });

  it('answers a non-liteServer.query with liteServer.error and keeps the connection', async () => {
    const c = await raw();
    c.send(adnlQueryPayload(Buffer.from('01020304', 'hex'), false));
    const err = decodeLiteError(RawAdnlClient.parseAnswer((await c.next())!).answer);
    expect(err?.code).toBe(621);
    c.query(encodeLiteQuery({ kind: 'liteServer.getTime' }));
    expect(await c.next()).not.toBeNull();
    c.close();
  });

  it('survives a client that disconnects with a query in flight', async () => {
    const c = await raw();
    c.query(encodeLiteQuery({ kind: 'liteServer.getMasterchainInfoExt', mode: 0 }));
    await waitFor(() => th.inFlight() > 0);
    c.close();
    await waitFor(() => th.inFlight() === 0);
    await waitFor(() => server.connectionCount() === 0);
    const d = await raw();
    d.query(encodeLiteQuery({ kind: 'liteServer.getTime' }));
    expect(await d.next()).not.toBeNull();
    d.close();
  });

  it('a LiteSingleEngine configured with the wrong key only times out', async () => {
    const otherKey = adnlKeyPairFromSeed(randomBytes(32)).publicKey;
    const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${server.port}`, publicKey: otherKey, reconnectTimeout: 60_000 });
    engine.on('error', () => {});
    await new Promise((r) => engine.once('connect', r));
    await expect(new LiteClient({ engine }).getCurrentTime({ timeout: 300 })).rejects.toThrow('Timeout');
    expect(engine.isReady()).toBe(false);
    engine.close();
  });
});

describe('ADNL server limits and shutdown', () => {
  it('throttles a connection at maxPendingQueries but answers everything', async () => {
    const th = createTestHandler({ slowMs: 30 });
    let peak = 0;
    const server = await startAdnlServer({
      seed: randomBytes(32),
      maxPendingQueries: 2,
      handler: async (q) => {
        const r = th.handler(q);
        peak = Math.max(peak, th.inFlight());
        return r;
      },
    });
    const c = await RawAdnlClient.connect({ host: '127.0.0.1', port: server.port, serverPublicKey: server.publicKey });
    const q = encodeLiteQuery({ kind: 'liteServer.getMasterchainInfoExt', mode: 0 });
    // separate writes, so the server sees them as they are read
    for (let i = 0; i < 8; i++) {
      c.query(q);
      await sleep(2);
    }
    for (let i = 0; i < 8; i++) expect(await c.next(2000)).not.toBeNull();
    expect(peak).toBeLessThanOrEqual(4);
    c.close();
    await server.close();
  });

  it('close() ends every connection and frees the port', async () => {
    const th = createTestHandler();
    const seed = randomBytes(32);
    const server = await startAdnlServer({ seed, handler: th.handler });
    const engine = await connectTcpEngine(server.port, server.publicKey);
    const engineClosed = new Promise((r) => engine.once('close', r));
    const c = await RawAdnlClient.connect({ host: '127.0.0.1', port: server.port, serverPublicKey: server.publicKey });
    const half = connect({ host: '127.0.0.1', port: server.port }); // mid-handshake
    half.on('error', () => {});
    const halfClosed = new Promise((r) => half.once('close', r));
    await new Promise((r) => half.once('connect', r));
    await waitFor(() => server.connectionCount() === 3);

    await Promise.all([server.close(), server.close()]);
    await Promise.all([c.closed, engineClosed, halfClosed]);
    expect(server.connectionCount()).toBe(0);
    engine.close();

    // the port is free: a plain listener and a new ADNL server can bind it
    const probe = createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(server.port, '127.0.0.1', () => resolve());
    });
    await new Promise((r) => probe.close(r));
    const again = await startAdnlServer({ port: server.port, seed, handler: th.handler });
    expect(again.port).toBe(server.port);
    await again.close();
  });

  it('rejects when the port is taken', async () => {
    const a = await startAdnlServer({ seed: randomBytes(32), handler: createTestHandler().handler });
    await expect(startAdnlServer({ port: a.port, seed: randomBytes(32), handler: createTestHandler().handler })).rejects.toThrow(/EADDRINUSE/);
    await a.close();
  });
});

describe('globalConfigFor', () => {
  it('builds a config.global that ton-lite-client style consumers can use', async () => {
    const th = createTestHandler();
    const server = await startAdnlServer({ seed: randomBytes(32), handler: th.handler });
    const cfg = globalConfigFor({ host: '127.0.0.1', port: server.port, publicKey: server.publicKey, zeroState: { rootHash: Buffer.alloc(32, 1), fileHash: Buffer.alloc(32, 2) } });
    expect(cfg['@type']).toBe('config.global');
    expect(cfg.liteservers).toEqual([{ ip: 2130706433, port: server.port, id: { '@type': 'pub.ed25519', key: server.publicKey.toString('base64') } }]);
    expect(cfg.validator.zero_state).toMatchObject({ workchain: -1, seqno: 0, root_hash: Buffer.alloc(32, 1).toString('base64') });

    const text = stringifyGlobalConfig(cfg);
    expect(text).toContain('"shard": -9223372036854775808');
    expect(text).not.toContain('9223372036854776000');
    const parsed = JSON.parse(text) as typeof cfg;

    // what ton-lite-client's example does with a global config
    const ls = parsed.liteservers[0];
    const engine = await connectTcpEngine(ls.port, Buffer.from(ls.id.key, 'base64'));
    expect(`${int32ToIpv4(ls.ip)}`).toBe('127.0.0.1');
    expect(await new LiteClient({ engine }).getCurrentTime()).toBe(TEST_NOW);
    engine.close();
    await server.close();
  });

  it('writes IPv4 addresses as signed int32', () => {
    expect(ipv4ToInt32('127.0.0.1')).toBe(2130706433);
    expect(ipv4ToInt32('192.168.1.10')).toBe(-1062731510);
    expect(int32ToIpv4(-1062731510)).toBe('192.168.1.10');
    expect(() => ipv4ToInt32('localhost')).toThrow();
  });
});

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0, 0);
  return b;
}

/** adnl.message.query payload; wraps `data` in liteServer.query unless wrap = false. */
function adnlQueryPayload(data: Buffer, wrap = true): Buffer {
  const inner = wrap ? Buffer.concat([u32(0x798c06df), tlBytes(data)]) : data;
  return Buffer.concat([u32(0xb48bf97a), randomBytes(32), tlBytes(inner)]);
}

function tlBytes(data: Buffer): Buffer {
  const header = data.length <= 253 ? Buffer.from([data.length]) : Buffer.concat([Buffer.from([254]), u32(data.length).subarray(0, 3)]);
  const len = header.length + data.length;
  return Buffer.concat([header, data, Buffer.alloc((4 - (len % 4)) % 4)]);
}
