/**
 * createLiteClient: the cache layer (counted against handler calls), error normalization for the
 * devnet's in-process engine, the stop/restart acceptance path, and liteSourceFor.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiteClient } from 'ton-lite-client';
import { Functions as LcFunctions } from 'ton-lite-client/dist/schema.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { globalConfigFor, stringifyGlobalConfig } from '../devnet/transport/adnl-server';
import { InProcessLiteEngine } from '../devnet/transport/in-process-engine';
import { ConstructorIds, createLiteDispatcher } from './tl/codec';
import { MC_SHARD, TEST_LAST, TEST_NOW, createTestHandler } from '../testing/lite-sample-handler';
import { CachedLiteEngine, TtlLru, cloneTl } from './cache';
import { createLiteClient, liteSourceFor } from './client';
import { LiteServerError, LiteTimeoutError } from './errors';
import { LitePool } from './pool';
import { sleep, startTestServer, waitFor, type TestLiteServer } from '../testing/lite-servers';

describe('createLiteClient over lite servers: the cache', () => {
  let server: TestLiteServer;
  let client: LiteClient;

  beforeAll(async () => {
    server = await startTestServer(10);
    client = createLiteClient(
      { kind: 'servers', servers: [server.endpoint] },
      { timeoutMs: 1000, cache: { headTtlMs: 400 }, pool: { reconnectMinMs: 50, reconnectMaxMs: 300 } },
    );
  });

  afterAll(async () => {
    client.engine.close();
    await server.stop();
  });

  it('answers a repeated immutable query without asking the server again, with a fresh copy each time', async () => {
    const getBlock = () => client.engine.query(LcFunctions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: { ...TEST_LAST, seqno: 42 } });
    const n0 = server.calls('liteServer.getBlock');
    const a = await getBlock();
    const b = await getBlock();
    expect(server.calls('liteServer.getBlock') - n0).toBe(1);
    expect(a.data.equals(b.data)).toBe(true);
    a.data.fill(0);
    expect((await getBlock()).data.equals(b.data)).toBe(true);
    expect(a.id.shard).toBe(MC_SHARD);

    // listBlockTransactions (LiteClient does not memoize it itself)
    const l0 = server.calls('liteServer.listBlockTransactions');
    await client.listBlockTransactions(TEST_LAST);
    const txs = await client.listBlockTransactions(TEST_LAST);
    expect(txs.ids.map((t) => t.lt)).toEqual(['1000', '2000']);
    expect(server.calls('liteServer.listBlockTransactions') - l0).toBe(1);
    // another page is another query
    await client.listBlockTransactions(TEST_LAST, { mode: 7, count: 5 });
    expect(server.calls('liteServer.listBlockTransactions') - l0).toBe(2);
    expect((client.engine as CachedLiteEngine).stats().hits).toBeGreaterThanOrEqual(3);
  });

  it('keeps negative 64-bit fields intact across cache hits (ton-tl mutates what it reads)', async () => {
    const lookup = () =>
      client.engine.query(LcFunctions.liteServer_lookupBlock, {
        kind: 'liteServer.lookupBlock',
        mode: 1,
        id: { kind: 'tonNode.blockId', workchain: -1, shard: MC_SHARD, seqno: 77 },
        lt: null,
        utime: null,
      });
    const n0 = server.calls('liteServer.lookupBlock');
    for (let i = 0; i < 3; i++) expect((await lookup()).id).toMatchObject({ shard: MC_SHARD, seqno: 77 });
    expect(server.calls('liteServer.lookupBlock') - n0).toBe(1);
  });

  it('does not cache lookups by utime, the clock, or errors', async () => {
    const byUtime = () =>
      client.engine.query(LcFunctions.liteServer_lookupBlock, {
        kind: 'liteServer.lookupBlock',
        mode: 4,
        id: { kind: 'tonNode.blockId', workchain: -1, shard: MC_SHARD, seqno: 0 },
        lt: null,
        utime: TEST_NOW,
      });
    const n0 = server.calls('liteServer.lookupBlock');
    await byUtime();
    await byUtime();
    expect(server.calls('liteServer.lookupBlock') - n0).toBe(2);

    const t0 = server.calls('liteServer.getTime');
    await client.getCurrentTime();
    await client.getCurrentTime();
    expect(server.calls('liteServer.getTime') - t0).toBe(2);

    const c0 = server.calls('liteServer.getConfigAll');
    await expect(client.getConfig(TEST_LAST)).rejects.toBeInstanceOf(LiteServerError);
    await expect(client.getConfig(TEST_LAST)).rejects.toMatchObject({ code: 651, message: 'state not ready' });
    expect(server.calls('liteServer.getConfigAll') - c0).toBe(2);
  });

  it('keeps the head briefly and shares concurrent requests for it', async () => {
    await sleep(500); // let an earlier head entry expire
    const h0 = server.calls('liteServer.getMasterchainInfo');
    const infos = await Promise.all(Array.from({ length: 10 }, () => client.getMasterchainInfo()));
    expect(infos.every((i) => i.last.seqno === TEST_LAST.seqno)).toBe(true);
    await client.getMasterchainInfo();
    expect(server.calls('liteServer.getMasterchainInfo') - h0).toBe(1);
    // awaitSeqno bypasses the cache
    await client.getMasterchainInfo({ awaitSeqno: 100 });
    expect(server.calls('liteServer.getMasterchainInfo') - h0).toBe(2);
    // and the entry expires (TTL 400 ms here)
    await sleep(1000);
    await client.getMasterchainInfo();
    expect(server.calls('liteServer.getMasterchainInfo') - h0).toBe(3);
  });

  it('stop the server mid-test: calls fail with LiteTimeoutError within the timeout, and succeed again once it is back', async () => {
    expect(await client.getCurrentTime()).toBe(TEST_NOW);
    await server.stop();
    const t0 = Date.now();
    const err = await client.getCurrentTime().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiteTimeoutError);
    expect(Date.now() - t0).toBeLessThan(1000 + 1000);

    await server.start();
    const back = Date.now();
    let ok = false;
    while (!ok && Date.now() - back < 5000) ok = await client.getCurrentTime().then(() => true, () => false);
    expect(ok).toBe(true);
    expect(Date.now() - back).toBeLessThan(3000);
  });
});

describe('createLiteClient over an in-process engine (the devnet source)', () => {
  it('answers, caches, and maps the engine errors onto LiteServerError / LiteTimeoutError', async () => {
    const th = createTestHandler();
    const hanging = createLiteDispatcher({
      'liteServer.getTime': () => new Promise(() => {}),
      'liteServer.getVersion': () => {
        throw new LiteServerError(651, 'not yet');
      },
    });
    const special = new Set<number>([ConstructorIds['liteServer.getTime'], ConstructorIds['liteServer.getVersion']]);
    const handler = (q: Buffer) => (special.has(q.readUInt32LE(0)) ? hanging(q) : th.handler(q));
    const client = createLiteClient({ kind: 'engine', engine: new InProcessLiteEngine(handler) }, { timeoutMs: 300 });
    try {
      expect((await client.getMasterchainInfo()).last.seqno).toBe(TEST_LAST.seqno);
      const n0 = th.calls.length;
      await client.engine.query(LcFunctions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: TEST_LAST });
      await client.engine.query(LcFunctions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: TEST_LAST });
      expect(th.calls.length - n0).toBe(1);

      const cfgErr = await client.getConfig(TEST_LAST).catch((e: unknown) => e);
      expect(cfgErr).toBeInstanceOf(LiteServerError);
      expect(cfgErr).toMatchObject({ code: 651, message: 'state not ready' });
      const verErr = await client.getVersion().catch((e: unknown) => e);
      expect(verErr).toBeInstanceOf(LiteServerError);
      expect(verErr).toMatchObject({ code: 651, message: 'not yet' });

      const t0 = Date.now();
      const timeErr = await client.getCurrentTime().catch((e: unknown) => e);
      expect(timeErr).toBeInstanceOf(LiteTimeoutError);
      expect(timeErr).toMatchObject({ timeoutMs: 300 });
      expect(Date.now() - t0).toBeLessThan(1300);
    } finally {
      client.engine.close();
    }
    expect(client.engine.isClosed()).toBe(true);
  });
});

describe('TtlLru and cloneTl', () => {
  it('evicts the least recently used entries beyond the entry and byte limits', () => {
    const lru = new TtlLru<string, Buffer>({ ttlMs: 60_000, maxEntries: 3, maxBytes: 100, sizeOf: (b) => b.length });
    lru.set('a', Buffer.alloc(10)).set('b', Buffer.alloc(10)).set('c', Buffer.alloc(10));
    lru.get('a');
    lru.set('d', Buffer.alloc(10));
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBeDefined();
    lru.set('e', Buffer.alloc(90));
    expect(lru.bytes).toBeLessThanOrEqual(100);
    expect(lru.get('e')).toBeDefined();
    lru.set('huge', Buffer.alloc(200));
    expect(lru.get('huge')).toBeUndefined();
  });

  it('expires entries after their TTL', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const lru = new TtlLru<string, number>({ ttlMs: 1000, maxEntries: 10 });
      lru.set('x', 1);
      lru.set('y', 2, 5000);
      vi.setSystemTime(Date.now() + 1500);
      expect(lru.get('x')).toBeUndefined();
      expect(lru.get('y')).toBe(2);
      expect(lru.size).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('deep-copies decoded TL values', () => {
    const v = { kind: 'k', id: { hash: Buffer.from([1, 2]) }, list: [{ b: Buffer.from([3]) }], n: 5, s: '-1', nul: null };
    const c = cloneTl(v);
    expect(c).toEqual(v);
    c.id.hash[0] = 9;
    c.list[0].b[0] = 9;
    expect(v.id.hash[0]).toBe(1);
    expect(v.list[0].b[0]).toBe(3);
    expect(Buffer.isBuffer(c.id.hash)).toBe(true);
  });
});

describe('liteSourceFor', () => {
  it('picks the bundled configs, a custom file, or the devnet engine', () => {
    const main = liteSourceFor({ network: 'mainnet', globalConfigPath: undefined, dataDir: '/nonexistent' });
    const test = liteSourceFor({ network: 'testnet', globalConfigPath: undefined, dataDir: '/nonexistent' });
    expect(main.kind === 'servers' && main.servers.length).toBeGreaterThan(5);
    expect(test.kind === 'servers' && test.servers.length).toBeGreaterThan(3);
    // LITE_VERIFY's anchor: the bundled config's init block (a key block), not its zero state
    expect(main.anchor?.seqno).toBeGreaterThan(0);
    expect(test.anchor?.seqno).toBeGreaterThan(0);

    const dir = mkdtempSync(join(tmpdir(), 'atlas-lite-'));
    const file = join(dir, 'global.config.json');
    const publicKey = Buffer.alloc(32, 0x5a);
    writeFileSync(file, stringifyGlobalConfig(globalConfigFor({ host: '10.1.2.3', port: 4924, publicKey })));
    const custom = liteSourceFor({ network: 'custom', globalConfigPath: file, dataDir: dir });
    expect(custom).toMatchObject({ kind: 'servers', servers: [{ host: '10.1.2.3', port: 4924, publicKey }], name: file, anchor: { seqno: 0 } });

    // Without the devnet in this process: its ADNL server, from the global config it wrote.
    expect(() => liteSourceFor({ network: 'devnet', globalConfigPath: undefined, dataDir: dir })).toThrow('start it first with `npm run devnet`');
    mkdirSync(join(dir, 'devnet'));
    writeFileSync(join(dir, 'devnet', 'global-config.json'), stringifyGlobalConfig(globalConfigFor({ host: '127.0.0.1', port: 46732, publicKey })));
    expect(liteSourceFor({ network: 'devnet', globalConfigPath: undefined, dataDir: dir })).toMatchObject({
      kind: 'servers',
      servers: [{ host: '127.0.0.1', port: 46732, publicKey }],
      name: 'devnet',
      anchor: { seqno: 0 },
    });
    const engine = new InProcessLiteEngine(createTestHandler().handler);
    expect(liteSourceFor({ network: 'devnet', globalConfigPath: undefined, dataDir: dir }, () => engine)).toMatchObject({ kind: 'engine', engine });
    engine.close();
  });

  it('builds a pool for server sources', async () => {
    const server = await startTestServer(11);
    const client = createLiteClient({ kind: 'servers', servers: [server.endpoint] }, { timeoutMs: 1000 });
    try {
      expect((client.engine as CachedLiteEngine).inner).toBeInstanceOf(LitePool);
      expect(await waitFor(() => client.engine.isReady(), 3000)).toBe(true);
      expect(await client.getCurrentTime()).toBe(TEST_NOW);
    } finally {
      client.engine.close();
      await server.stop();
    }
  });
});
