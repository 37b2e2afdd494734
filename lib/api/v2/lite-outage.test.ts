// Acceptance (issue 4): with the lite server gone, v2 calls answer 504 within the configured timeout,
// and answer again once it is back, with the same process and the same lite client.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { LiteClient } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adnlSeedOf } from '../../devnet';
import { startAdnlServer, type AdnlServer } from '../../devnet/transport/adnl-server';
import { createLiteClient, LiteTimeoutError } from '../../lite';
import { startTestChain, type TestChain } from '../../testing/chain';
import { MODES, testApi, type TestApi } from '../../testing/api';
import { v2Failure } from './envelope';

const TIMEOUT_MS = 1000;
let chain: TestChain;
let server: AdnlServer | undefined;
let client: LiteClient;
/** The API over `client`, which reads the devnet through the ADNL server the test stops and starts. */
let api: TestApi;
let port: number;

/** The devnet's lite_api over ADNL on a port of our own, so the test can stop and restart it. */
async function startServer(p = 0): Promise<AdnlServer> {
  return startAdnlServer({ host: '127.0.0.1', port: p, seed: adnlSeedOf(chain.devnet.seed), handler: chain.devnet.handler });
}

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v2-outage', rounds: 1 });
  server = await startServer();
  port = server.port;
  client = createLiteClient(
    { kind: 'servers', servers: [{ host: '127.0.0.1', port, publicKey: server.publicKey }] },
    { timeoutMs: TIMEOUT_MS, cache: false, pool: { reconnectMinMs: 50, reconnectMaxMs: 200 } },
  );
  api = testApi({ lite: client });
}, 60_000);

afterAll(async () => {
  client?.engine.close();
  await server?.close();
  await chain?.close();
});

describe('lite server outage', () => {
  it('504 within the timeout while the server is down, 200 again once it is back', async () => {
    for (const mode of MODES) expect((await api.callV2(mode, 'getMasterchainInfo')).status).toBe(200);

    await server!.close();
    server = undefined;
    for (const mode of MODES) {
      const started = performance.now();
      const r = await api.callV2(mode, 'getMasterchainInfo');
      const elapsed = performance.now() - started;
      expect(r.status).toBe(504);
      // The one server, and why it gave no answer.
      expect(r.body).toMatchObject({ ok: false, code: 504, error: expect.stringMatching(/^LITE_SERVER_NETWORK timeout \(liteserver #0: (not connected|connection lost)/) });
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 500);
    }
    const tx = await api.callV2('get', 'getTransactions', { address: chain.account('alice').address });
    expect(tx.status).toBe(504);

    server = await startServer(port);
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) status = (await api.callV2('get', 'getMasterchainInfo')).status;
    expect(status).toBe(200);
    for (const mode of MODES) {
      const r = await api.callV2(mode, 'getTransactions', { address: chain.account('alice').address, limit: 2 });
      expect(r.status).toBe(200);
      expect(r.body.result).toHaveLength(2);
    }
  }, 30_000);
});

/** A port on 127.0.0.1 where nothing listens (bound, then released); the key is a valid one of another server. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port: free } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return free;
}

describe('unreachable lite server', () => {
  it('answers 504 LITE_SERVER_NETWORK timeout through GET, POST and JSON-RPC when no server was ever reachable', async () => {
    const unreachable = createLiteClient(
      { kind: 'servers', servers: [{ host: '127.0.0.1', port: await closedPort(), publicKey: server!.publicKey }] },
      { timeoutMs: TIMEOUT_MS, cache: false, pool: { reconnectMinMs: 50, reconnectMaxMs: 200 } },
    );
    try {
      const offline = testApi({ lite: unreachable });
      for (const mode of MODES) {
        const r = await offline.callV2(mode, 'getMasterchainInfo');
        expect([mode, r.status, r.body]).toMatchObject([mode, 504, { ok: false, code: 504, error: 'LITE_SERVER_NETWORK timeout (liteserver #0: not connected (connection refused))' }]);
      }
      const rpc = await offline.callV2('rpc', 'getAddressBalance', { address: chain.account('alice').address });
      expect(rpc.body).toMatchObject({ ok: false, code: 504, jsonrpc: '2.0' });
    } finally {
      unreachable.engine.close();
    }
  }, 20_000);

  // Next bundles the route (which classifies) apart from instrumentation (which creates the lite client):
  // the errors may come from another copy of lib/lite/errors.ts. A second module instance stands for it.
  it('classifies lite errors thrown by another bundled copy of the error classes', async () => {
    const secondCopy = '../../lite/errors?second-copy'; // a query makes Vite load the module again
    const copy = (await import(/* @vite-ignore */ secondCopy)) as typeof import('../../lite/errors');
    expect(copy.LiteTimeoutError).not.toBe(LiteTimeoutError);
    const timeout = v2Failure(new copy.LiteTimeoutError('no answer', 1000));
    expect([timeout.status, await timeout.json()]).toMatchObject([504, { error: 'LITE_SERVER_NETWORK timeout' }]);
    const failed = v2Failure(new copy.LiteServerError(651, 'not ready'));
    expect([failed.status, await failed.json()]).toMatchObject([500, { error: 'LITE_SERVER_UNKNOWN: not ready' }]);
  });
});
