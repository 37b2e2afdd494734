// The edge answers /api/v2 and /api/v3 from their route handlers (direct-api.ts) as Next would: the
// handler's bytes, Next's security headers, Next's compression; everything else still reaches Next.
// Real devnet index, real handlers, real sockets; Next is a stub that says it was asked.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseConfig } from '../config';
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from '../http/security-headers';
import { log } from '../log';
import { startTestChain, type TestChain } from '../testing/chain';
import type { BoundHandler } from '../api/dispatch';
import { answerWith, directApi } from './direct-api';
import { createAtlasServer, type AtlasServer } from './server';

let chain: TestChain;
let edge: AtlasServer;
let base: string;
const nextSaw: string[] = [];

const stubNext = (req: IncomingMessage, res: ServerResponse) => {
  nextSaw.push(`${req.method} ${req.url}`);
  res.writeHead(200, { 'content-type': 'text/plain' }).end('next');
};

beforeAll(async () => {
  chain = await startTestChain({ seed: 'direct-api', rounds: 3, tps: 20, index: true });
  edge = createAtlasServer({ config: parseConfig({ VITEST: 'true' }), handle: directApi(chain.routes, stubNext), log });
  await new Promise<void>((resolve) => edge.server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(edge.server.address() as AddressInfo).port}`;
}, 300_000);
afterAll(async () => {
  await edge?.close();
  await chain?.close();
});

/** A request over a plain socket: fetch would add its own Accept-Encoding and undo the encoding. */
function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
    const req = request(`${base}${path}`, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const inProcess = async (path: string, init: RequestInit = {}) => (await chain.fetch(new Request(`http://atlas.test${path}`, init))).text();

it('an API answer from the edge is its handler\'s answer byte for byte, with the security headers, and Next never sees it', async () => {
  // transaction%2573 is decoded once, as Next decodes it: `transaction%73`, no route (twice would be /transactions).
  const gets = ['/api/v3/transaction%2573?limit=3', '/api/v3/transactions?limit=100', '/api/v3/blocks?limit=5&workchain=-1', '/api/v3/masterchainBlockShards?seqno=2', '/api/v3/nope', '/api/v3/transactions?limit=abc'];
  for (const path of gets) {
    const direct = await raw(path);
    expect(direct.body.toString(), path).toBe(await inProcess(path));
    expect(direct.headers['content-security-policy']).toBe(API_CONTENT_SECURITY_POLICY);
    for (const { key, value } of STATIC_SECURITY_HEADERS) expect(direct.headers[key.toLowerCase()], key).toBe(value);
  }
  const rpc = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'detectAddress', params: { address: chain.account('faucet').address } });
  const answered = await raw('/api/v2/jsonRPC', { method: 'POST', headers: { 'content-type': 'application/json' }, body: rpc });
  const expected = JSON.parse(await inProcess('/api/v2/jsonRPC', { method: 'POST', headers: { 'content-type': 'application/json' }, body: rpc })) as { result: unknown };
  expect(JSON.parse(answered.body.toString())).toMatchObject({ ok: true, id: 7, result: expected.result });
  expect(nextSaw).toEqual([]);
});

it('compresses as Next does: gzip when the client takes it, Vary on Accept-Encoding, the same bytes inside', async () => {
  for (const path of ['/api/v3/transactions?limit=100', '/api/v3/nope']) {
    const plain = await raw(path);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gzipped = await raw(path, { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(gzipped.headers['content-encoding'], path).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gzipped.body).toString()).toBe(plain.body.toString());
  }
});

it('leaves Next what no API handler serves: documents, HEAD, health, pages', async () => {
  for (const [method, path] of [
    ['GET', '/api/v3/openapi.json'],
    ['GET', '/api/v2/openapi.json'],
    ['GET', '/api/v3/index.html'],
    ['HEAD', '/api/v3/transactions'],
    ['GET', '/api/health'],
    ['GET', '/account/abc'],
  ] as const) {
    nextSaw.length = 0;
    const r = await raw(path, { method });
    expect(r.status, path).toBe(200);
    // (The edge's own health refreshes reach Next too: only this request's arrival is checked.)
    expect(nextSaw, `${method} ${path}`).toContain(`${method} ${path}`);
  }
});

it('a client that leaves mid-answer ends the answer: the handler\'s body is cancelled, the write settles, the slot is freed', async () => {
  // A handler whose body never ends (a long answer, compressed, to a client that stops reading).
  let cancelled = false;
  const endless: BoundHandler = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull: (c) => c.enqueue(randomBytes(64 * 1024)),
        cancel: () => void (cancelled = true),
      }),
      { headers: { 'content-type': 'application/json' } },
    );
  let settled = false;
  const server = createServer((req, res) => void answerWith(req, res, endless).finally(() => (settled = true)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await new Promise<void>((resolve) => {
      const req = request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        res.once('data', () => (req.destroy(), resolve()));
      });
      req.on('error', () => resolve());
      req.end();
    });
    await expect.poll(() => [settled, cancelled], { timeout: 5000 }).toEqual([true, true]);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  // Through the edge, a real answer left mid-way frees the request's slot.
  await new Promise<void>((resolve) => {
    const req = request(`${base}/api/v3/transactions?limit=1000`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      res.once('data', () => (req.destroy(), resolve()));
    });
    req.on('error', () => resolve());
    req.end();
  });
  await expect.poll(() => edge.load.in_flight, { timeout: 5000 }).toBe(0);
});
