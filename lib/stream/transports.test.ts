// The Streaming API's endpoints with real clients, behind the real HTTP edge (lib/server/server.ts): a plain
// HTTP reader and fetch() on SSE, the `ws` package on WebSocket (the browser's EventSource and WebSocket:
// e2e/streaming.spec.ts). Devnet traffic sent through /api/v2/sendBoc, the protocol's replies and errors,
// API keys, CORS, connection limits, slow consumers and shutdown.
import net from 'node:net';
import { Address, toNano, type Message } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../auth/keys';
import { createHealth } from '../health';
import { normalizedHash } from '../ton/normalized-hash';
import { messageBoc, signedTransfer, type TestWallet } from '../testing/devnet';
import { startStreamChain, type ServedStreams, type StreamChain } from '../testing/stream';
import { openSse, openWs, type SseClient } from '../testing/stream-clients';
import { modelProblems } from '../testing/v3';
import { genesisWallet } from '../testing/wallets';
import { rawUpper } from '../ton/address';
import type { TraceEvent } from './events';
import { Notification, type NotificationJson } from './protocol';

let s: StreamChain;
let server: ServedStreams;
let alice: TestWallet;
let captured: TraceEvent | undefined;
const raw = (name: string) => rawUpper(Address.parse(s.chain.account(name).address));
const norm = (m: Message) => normalizedHash(m)!.toString('base64');

beforeAll(async () => {
  s = await startStreamChain({ seed: 'stream-transports' });
  s.bus.subscribe((e) => {
    if (e.kind === 'trace' && e.finality === 'finalized') captured ??= e;
  });
  server = await s.serve({ STREAM_KEEPALIVE_MS: '1000' });
  alice = await genesisWallet(s.chain, 'alice');
}, 180_000);
afterAll(() => s?.close());

async function sendTransfer(comment: string): Promise<string> {
  const msg = await signedTransfer(alice, [{ to: Address.parse(s.chain.account('bob').address), value: toNano('0.01'), body: comment }]);
  const r = await s.chain.callV2('post', 'sendBoc', { boc: messageBoc(msg).toString('base64') });
  expect(r.body.ok).toBe(true);
  return norm(msg);
}

const notes = (c: SseClient) => c.notifications() as NotificationJson[];
const problems = (n: NotificationJson) => modelProblems(n, Notification.options.find((o) => o.shape.type.value === n.type)!);

describe('SSE', () => {
  it('a plain HTTP reader: connected, then the transfer pending, confirmed and finalized, then keep-alives', async () => {
    const c = await openSse(server.url, { subscription: { id: 'sub-1', types: ['transactions'], addresses: [s.chain.account('alice').address], min_finality: 'pending' } });
    expect(c.status).toBe(200);
    expect(c.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(c.frames[0] ?? (await c.waitFor((f) => f[0], 'connected'))).toEqual({ event: 'connected', data: '{"id":"sub-1","status":"subscribed"}', comments: [] });
    const key = await sendTransfer('over sse');
    await s.settle();
    await s.sealAndIndex();
    const mine = await c.waitFor(() => {
      const list = notes(c).filter((n) => n.type === 'transactions' && n.trace_external_hash_norm === key);
      return list.length >= 3 && list;
    }, 'three finalities');
    expect(mine.map((n) => ('finality' in n ? n.finality : ''))).toEqual(['pending', 'confirmed', 'finalized']);
    for (const n of mine) expect(problems(n)).toEqual([]);
    await c.waitFor((f) => f.some((x) => x.comments.includes('keepalive')), 'a keep-alive', 5_000);
    expect(server.hub.status().sse).toBe(1);
    c.close();
    await expect.poll(() => server.hub.status().sse).toBe(0);
  }, 60_000);

  it("fetch()'s stream reader on the GET form (EventSource's): the same notifications, subscribed by query", async () => {
    const res = await fetch(`${server.url}/api/streaming/v2/sse?types=transactions,actions&addresses=${encodeURIComponent(raw('alice'))}&min_finality=finalized`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const key = await sendTransfer('over fetch');
    await s.sealAndIndex();
    let text = '';
    while (!text.includes(key) || !text.includes('"type":"actions"')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text.startsWith('event: connected\ndata: {"status":"subscribed"}\n\n')).toBe(true);
    const datas = text.split('\n\n').filter((f) => f.startsWith('data: ')).map((f) => JSON.parse(f.slice(6)) as NotificationJson);
    const tx = datas.find((n) => n.type === 'transactions' && n.trace_external_hash_norm === key)!;
    expect(tx).toMatchObject({ finality: 'finalized' });
    expect(datas.find((n) => n.type === 'actions' && n.actions.some((a) => a.type === 'ton_transfer' && a.details.comment === 'over fetch'))).toBeDefined();
    await reader.cancel();
  }, 60_000);

  it('answers a bad subscription with 400 and the reason, before any stream', async () => {
    const cases: [unknown, string][] = [
      [{ id: 7, types: [] }, 'types are required for subscription'],
      [{ types: ['transactions'], addresses: ['nope'] }, 'invalid address: "nope"'],
      [{ types: ['trace'] }, 'trace_external_hash_norms are required for trace subscription'],
      [{ types: ['transactions'], addresses: [raw('alice')], min_finality: 'soon' }, 'invalid min_finality: "soon" (one of pending, confirmed, finalized)'],
    ];
    for (const [subscription, error] of cases) {
      const c = await openSse(server.url, { subscription });
      expect([c.status, JSON.parse(c.body)]).toEqual([400, { ...(subscription as { id?: number }).id ? { id: 7 } : {}, error }]);
    }
    const bad = await openSse(server.url, { rawBody: '{"types": [' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatch(/^invalid subscription request: /);
    // Under the edge's 1 MiB, over a stream request's 256 KiB.
    const big = await openSse(server.url, { rawBody: JSON.stringify({ types: ['transactions'], addresses: Array(5_000).fill(raw('alice')) }) });
    expect([big.status, JSON.parse(big.body)]).toEqual([413, { error: 'request body larger than 262144 bytes' }]);
    const viaGet = await openSse(server.url, { query: 'types=transactions' });
    expect([viaGet.status, JSON.parse(viaGet.body)]).toEqual([400, { error: 'addresses are required for subscription' }]);
  });

  it('routes: a plain GET of the WebSocket endpoint is 426, unknown paths 404, other methods 405, preflights 204 with CORS', async () => {
    const ws = await fetch(`${server.url}/api/streaming/v2/ws`);
    expect(ws.status).toBe(426);
    expect(ws.headers.get('upgrade')).toBe('websocket');
    expect((await fetch(`${server.url}/api/streaming/v1/sse`)).status).toBe(404);
    const put = await fetch(`${server.url}/api/streaming/v2/sse`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-api-key' } });
    expect(put.status).toBe(204);
    expect(put.headers.get('access-control-allow-origin')).toBe('*');
    expect(put.headers.get('access-control-allow-headers')).toBe('content-type,x-api-key');
    const del = await fetch(`${server.url}/api/streaming/v2/sse`, { method: 'PATCH' });
    expect(del.status).toBe(405);
  });
});

describe('WebSocket (the ws package)', () => {
  it('ping, subscribe, notifications, unsubscribe; replies carry the request id', async () => {
    const c = await openWs(server.url);
    expect(await c.request({ operation: 'ping' })).toEqual({ id: expect.any(String), status: 'pong' });
    expect(await c.request({ operation: 'subscribe', types: ['transactions', 'actions'], addresses: [raw('alice'), raw('bob')], min_finality: 'pending', include_address_book: true })).toMatchObject({ status: 'subscribed' });
    const key = await sendTransfer('over ws');
    await s.sealAndIndex();
    const finalized = await c.waitFor((m) => m.find((n) => n.type === 'actions' && n.finality === 'finalized' && n.trace_external_hash_norm === key), 'finalized actions');
    expect(problems(finalized as NotificationJson)).toEqual([]);
    const kinds = c.messages.filter((n) => n.trace_external_hash_norm === key).map((n) => `${n.type}:${n.finality}`);
    expect(kinds).toEqual(['transactions:pending', 'actions:pending', 'transactions:confirmed', 'actions:confirmed', 'transactions:finalized', 'actions:finalized']);

    // Without alice and bob, nothing more arrives for their transfers.
    expect(await c.request({ operation: 'unsubscribe', addresses: [s.chain.account('alice').address, raw('bob')] })).toMatchObject({ status: 'unsubscribed' });
    const before = c.messages.length;
    await sendTransfer('after unsubscribe');
    await s.sealAndIndex();
    expect(c.messages.length).toBe(before);
    c.close();
  }, 60_000);

  it('answers bad requests with the error, on a connection that stays open', async () => {
    const c = await openWs(server.url);
    expect(await c.request({ operation: 'subscribe', types: ['transfers'], addresses: [raw('alice')] })).toEqual({ id: expect.any(String), error: expect.stringMatching(/^invalid event type: "transfers"/) });
    expect(await c.request({ operation: 'subscribe', types: ['transactions'] })).toMatchObject({ error: 'addresses are required for subscription' });
    expect(await c.request({ operation: 'unsubscribe' })).toMatchObject({ error: 'addresses or trace_external_hash_norms are required' });
    expect(await c.request({ operation: 'dance' })).toMatchObject({ error: 'unknown operation: "dance" (subscribe, unsubscribe or ping)' });
    c.ws.send('{not json');
    await c.waitFor((m) => m.find((x) => typeof x.error === 'string' && x.error.startsWith('invalid request envelope')), 'the envelope error');
    expect(await c.request({ operation: 'ping' })).toMatchObject({ status: 'pong' });
    // A message over the request limit closes the connection (1009: message too big).
    c.ws.send(JSON.stringify({ operation: 'subscribe', types: ['transactions'], addresses: Array(20_000).fill(raw('alice')) }));
    expect((await c.closed).code).toBe(1009);
  });

  it('a trace subscription by its hash gets the whole trace at each finality', async () => {
    const msg = await signedTransfer(alice, [{ to: Address.parse(s.chain.account('bob').address), value: toNano('0.02'), body: 'by trace' }]);
    const key = norm(msg);
    const c = await openWs(server.url);
    await c.request({ operation: 'subscribe', types: ['trace'], trace_external_hash_norms: [Buffer.from(key, 'base64').toString('hex')], min_finality: 'pending' });
    await s.chain.callV2('post', 'sendBoc', { boc: messageBoc(msg).toString('base64') });
    await s.sealAndIndex();
    const traces = await c.waitFor((m) => {
      const list = m.filter((n) => n.type === 'trace');
      return list.length >= 3 && list;
    }, 'three trace notifications');
    expect(traces.map((n) => [n.type, n.finality, n.trace_external_hash_norm])).toEqual(['pending', 'confirmed', 'finalized'].map((f) => ['trace', f, key]));
    expect(Object.keys((traces[2] as { transactions: object }).transactions)).toHaveLength(2);
    c.close();
  }, 60_000);
});

describe('access', () => {
  it('API keys: unknown ones are refused on both transports; a key\'s streams are held to its limit', async () => {
    const limited = await s.serve({ STREAM_MAX_CONNECTIONS_PER_KEY: '1', STREAM_MAX_CONNECTIONS_PER_IP: '1' });
    const { key } = await createKey(s.chain.db!.db.prisma, { name: 'streams' });
    const sub = { types: ['transactions'], addresses: [raw('alice')] };
    const unknown = await openSse(limited.url, { subscription: sub, headers: { 'X-API-Key': 'atlas_000000000000_nope' } });
    expect([unknown.status, JSON.parse(unknown.body)]).toEqual([401, { error: 'API key is unknown or revoked' }]);
    const wsUnknown = await openWs(limited.url, { 'X-API-Key': 'atlas_000000000000_nope' });
    expect(await wsUnknown.waitFor((m) => m[0], 'the refusal')).toEqual({ error: 'API key is unknown or revoked' });
    expect(await wsUnknown.closed).toEqual({ code: 1008, reason: 'API key is unknown or revoked' });

    const first = await openSse(limited.url, { subscription: { ...sub, api_key: key } });
    expect(first.status).toBe(200);
    const second = await openSse(limited.url, { subscription: sub, headers: { 'X-API-Key': key } });
    expect([second.status, JSON.parse(second.body)]).toEqual([429, { error: 'connection limit reached: this API key has 1 open streams (at most 1)' }]);
    // The key's slot does not count against the address's own.
    const anonymous = await openWs(limited.url);
    expect(await anonymous.request({ operation: 'ping' })).toMatchObject({ status: 'pong' });
    const anonymous2 = await openWs(limited.url);
    expect(await anonymous2.closed).toEqual({ code: 1008, reason: expect.stringMatching(/^connection limit reached: this client address without an API key has 1 open streams/) });
    first.close();
    await expect.poll(async () => (await openSse(limited.url, { subscription: sub, headers: { 'X-API-Key': key } })).status).toBe(200);
    await limited.close();
  }, 30_000);

  it('CORS: the SSE answer names the allowed origin; a WebSocket from another origin is refused', async () => {
    const only = await s.serve({ CORS_ORIGINS: 'https://app.example' });
    const ok = await openSse(only.url, { subscription: { types: ['blocks'] }, headers: { origin: 'https://app.example' } });
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example');
    ok.close();
    await expect(openWs(only.url, { origin: 'https://evil.example' })).rejects.toThrow('WebSocket handshake answered 403');
    const fine = await openWs(only.url, { origin: 'https://app.example' });
    expect(await fine.request({ operation: 'ping' })).toMatchObject({ status: 'pong' });
    fine.close();
    await only.close();
  });
});

describe('slow consumers and shutdown', () => {
  it('a consumer that stops reading is dropped with the reason; a reading one gets every event', async () => {
    const small = await s.serve({ STREAM_BUFFER_KB: '16' });
    // A real finalized trace, published again and again under new keys (each its own trace), ~10 MB in all.
    const template = captured!;
    expect(template).toBeDefined();
    const sub = { types: ['transactions'], addresses: [template.transactions[0]!.account], include_address_book: true };
    const reader = await openWs(small.url);
    await reader.request({ operation: 'subscribe', ...sub });
    const stalled = await openWs(small.url);
    await stalled.request({ operation: 'subscribe', ...sub });
    // SSE over a raw socket that never reads after the request.
    const socket = net.connect(Number(new URL(small.url).port), '127.0.0.1');
    const body = JSON.stringify(sub);
    socket.write(`POST /api/streaming/v2/sse HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    await expect.poll(() => small.hub.status().connections).toBe(3);
    socket.pause();
    (stalled.ws as unknown as { _socket: net.Socket })._socket.pause();
    const N = 1500;
    for (let i = 0; i < N; i++) {
      await s.bus.publish({ ...template, norm: Buffer.alloc(32, 0).fill(i % 256, 0, 1).fill(Math.floor(i / 256), 1, 2).toString('base64') });
      if (i % 100 === 0) await new Promise((r) => setImmediate(r));
    }
    await reader.waitFor((m) => m.filter((n) => n.type === 'transactions').length === N && true, `${N} notifications`, 60_000);
    // /api/health counts them.
    const health = await createHealth(async () => ({ config: { network: 'devnet' }, db: s.chain.db!.db, lite: s.chain.lite, stream: { hub: small.hub } }))();
    expect(health.streaming).toMatchObject({ connections: 1, sse: 0, websocket: 1, dropped_slow_consumers: 2 });
    // Once they read again, each learns why it was dropped.
    let sse = '';
    socket.on('data', (d) => (sse += d.toString()));
    socket.resume();
    await expect.poll(() => sse.includes('event: error\ndata: {"error":"slow consumer:'), { timeout: 10_000 }).toBe(true);
    (stalled.ws as unknown as { _socket: net.Socket })._socket.resume();
    expect(await stalled.closed).toMatchObject({ code: 1008, reason: expect.stringMatching(/^slow consumer/) });
    socket.destroy();
    reader.close();
    await small.close();
  }, 120_000);

  it('shutdown ends every stream with its reason: SSE an error event, WebSocket close 1001', async () => {
    const going = await s.serve();
    const sse = await openSse(going.url, { subscription: { types: ['blocks'] } });
    const ws = await openWs(going.url);
    await ws.request({ operation: 'subscribe', types: ['blocks'] });
    going.hub.close();
    await sse.ended;
    expect(sse.frames.at(-1)).toEqual({ event: 'error', data: '{"error":"the server is shutting down; reconnect in a moment"}', comments: [] });
    expect(await ws.closed).toEqual({ code: 1001, reason: 'the server is shutting down; reconnect in a moment' });
    await going.close();
  });
});
