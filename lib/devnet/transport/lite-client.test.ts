/**
 * The unmodified ton-lite-client LiteClient against the devnet transports: over TCP (its own
 * LiteSingleEngine → our ADNL server) and in-process (InProcessLiteEngine), same handler.
 */
import { Address } from '@ton/core';
import { LiteClient, type LiteEngine } from 'ton-lite-client';
import { Functions as LcFunctions } from 'ton-lite-client/dist/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdnlServer, type AdnlServer } from './adnl-server';
import { InProcessLiteEngine } from './in-process-engine';
import { Functions } from '../../lite/tl/codec';
import { MC_SHARD, TEST_LAST, TEST_NOW, connectTcpEngine, createTestHandler, testBlockData, type TestHandler } from '../../testing/lite-sample-handler';

const SEED = Buffer.alloc(32, 0x42);
const BLOCK_SIZE = 1 << 20;

let th: TestHandler;
let server: AdnlServer;

beforeAll(async () => {
  th = createTestHandler({ slowMs: 250, blockSize: BLOCK_SIZE });
  server = await startAdnlServer({ host: '127.0.0.1', port: 0, seed: SEED, handler: th.handler });
});

afterAll(async () => {
  await server.close();
});

const makers: Record<string, () => Promise<LiteEngine>> = {
  tcp: () => connectTcpEngine(server.port, server.publicKey),
  'in-process': async () => new InProcessLiteEngine(th.handler),
};

describe.each(Object.keys(makers))('LiteClient over %s', (mode) => {
  let engine: LiteEngine;
  let client: LiteClient;

  beforeAll(async () => {
    engine = await makers[mode]();
    client = new LiteClient({ engine });
  });

  afterAll(() => {
    engine.close();
  });

  it('round-trips getTime, getVersion, getMasterchainInfo', async () => {
    expect(await client.getCurrentTime()).toBe(TEST_NOW);
    expect(await client.getVersion()).toMatchObject({ kind: 'liteServer.version', version: 0x101, capabilities: '7', now: TEST_NOW });
    const info = await client.getMasterchainInfo();
    expect(info.last).toEqual(TEST_LAST);
    expect(info.init.rootHash.equals(Buffer.alloc(32, 0x33))).toBe(true);
    const ext = await client.getMasterchainInfoExt();
    expect(ext).toMatchObject({ kind: 'liteServer.masterchainInfoExt', lastUtime: TEST_NOW - 1, last: { seqno: 100 } });
  });

  it('surfaces liteServer.error answers as errors with the message', async () => {
    await expect(client.getConfig(TEST_LAST)).rejects.toThrow('state not ready');
    const addr = new Address(0, Buffer.alloc(32, 1));
    await expect(client.runMethod(addr, 'seqno', Buffer.alloc(0), TEST_LAST)).rejects.toThrow('boom');
    await expect(client.sendMessage(Buffer.alloc(0))).rejects.toThrow('cannot apply external message: empty');
    await expect(
      client.engine.query(LcFunctions.liteServer_getState, { kind: 'liteServer.getState', id: TEST_LAST }),
    ).rejects.toThrow('unsupported query liteServer.getState');
    // and the engine keeps working afterwards
    expect(await client.getCurrentTime()).toBe(TEST_NOW);
  });

  it('delivers answers out of order', async () => {
    const order: string[] = [];
    await Promise.all([
      client.getMasterchainInfoExt().then(() => order.push('slow')),
      client.getCurrentTime().then(() => order.push('fast-1')),
      client.getVersion().then(() => order.push('fast-2')),
    ]);
    expect(order[2]).toBe('slow');
  });

  it('sends the waitMasterchainSeqno prefix for queryArgs.awaitSeqno', async () => {
    const info = await client.getMasterchainInfo({ awaitSeqno: 100, timeout: 3000 });
    expect(info.last.seqno).toBe(100);
    const call = th.calls.filter((c) => c.fn.kind === 'liteServer.getMasterchainInfo').at(-1);
    expect(call?.waitMasterchainSeqno).toEqual({ seqno: 100, timeoutMs: 3000 });
    await expect(client.getMasterchainInfo({ awaitSeqno: 101, timeout: 2000 })).rejects.toThrow('timeout waiting for masterchain block 101');
    // a plain call carries no prefix
    await client.getCurrentTime();
    expect(th.calls.at(-1)).toEqual({ fn: { kind: 'liteServer.getTime' } });
  });

  it('answers block lookups, transaction lists, libraries and sendMessage', async () => {
    const hdr = await client.lookupBlockByID({ workchain: 0, shard: MC_SHARD, seqno: 7 });
    expect(hdr.id).toMatchObject({ workchain: 0, seqno: 7, shard: MC_SHARD });
    expect(hdr.id.rootHash.equals(Buffer.alloc(32, 7))).toBe(true);
    const txs = await client.listBlockTransactions(TEST_LAST);
    expect(txs.ids.map((t) => t.lt)).toEqual(['1000', '2000']);
    expect(txs.reqCount).toBe(100);
    const libs = await client.getLibraries([Buffer.alloc(32, 9)]);
    expect(libs.result[0].data.subarray(0, 3).toString()).toBe('lib');
    expect(await client.sendMessage(Buffer.from('b5ee9c72', 'hex'))).toEqual({ status: 1 });
  });

  it('runs functions ton-lite-client lacks through engine.query with the generated Functions', async () => {
    const res = await client.engine.query(Functions.liteServer_listBlockTransactionsExt, {
      kind: 'liteServer.listBlockTransactionsExt',
      id: TEST_LAST,
      mode: 7 + 64,
      count: 5,
      reverseOrder: true,
    });
    expect(res).toMatchObject({ kind: 'liteServer.blockTransactionsExt', incomplete: true, reqCount: 5 });
    expect(res.transactions.toString()).toBe('tx:71');
  });

  it('carries a 1 MiB answer', async () => {
    const res = await client.engine.query(LcFunctions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: { ...TEST_LAST, seqno: 9 } });
    expect(res.data.length).toBe(BLOCK_SIZE);
    expect(res.data.equals(testBlockData(9, BLOCK_SIZE))).toBe(true);
  });

  it('rejects queries after close()', async () => {
    const e = await makers[mode]();
    e.close();
    expect(e.isClosed()).toBe(true);
    await expect(new LiteClient({ engine: e }).getCurrentTime()).rejects.toThrow('Engine is closed');
  });
});
