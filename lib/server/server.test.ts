// The HTTP edge over real sockets, in front of a stub handler that stands for Next: what it refuses before
// the app sees a byte, in which envelope, and that refusing or shedding never stalls other requests.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../config';
import { log } from '../log';
import { CLIENT_IP_HEADER, CLIENT_LOOPBACK_HEADER } from '../http/client-ip';
import { LIMITS } from '../limits';
import { createAtlasServer, type AtlasServer } from './server';

let running: AtlasServer | undefined;

afterEach(async () => {
  healthStuck = false;
  await running?.close();
  running = undefined;
});

/** What /big answers: an 11 MB body, as /api/v3/traces?limit=1000 was before answer budgets. */
const BIG = Buffer.alloc(11 * 1024 * 1024, 'x');

/** While set, the stub's /api/health never answers (a route stuck behind overload). */
let healthStuck = false;
let healthAnswers = 0;

/** A stub app: /api/health answers {status:'ok', answers}; the rest echoes what it saw; /slow waits `?ms`; /block blocks the event loop `?ms` (/block/slow then also waits as long); /hang never answers; /big answers 11 MB. */
async function stubHandler(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://x');
  let bytes = 0;
  for await (const chunk of req) bytes += (chunk as Buffer).length;
  if (url.pathname.endsWith('/hang')) return;
  if (url.pathname === '/api/health') {
    if (healthStuck) return;
    res.setHeader('content-type', 'application/json');
    return void res.end(JSON.stringify({ status: 'ok', answers: ++healthAnswers }));
  }
  if (url.pathname.startsWith('/block')) for (const end = Date.now() + Number(url.searchParams.get('ms')); Date.now() < end; );
  if (url.pathname.endsWith('/slow')) await new Promise((r) => setTimeout(r, Number(url.searchParams.get('ms'))));
  if (url.pathname.endsWith('/big')) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(BIG.length) });
    return void res.end(BIG);
  }
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ path: url.pathname, bytes, ip: req.headers[CLIENT_IP_HEADER] }));
}

async function start(env: Record<string, string> = {}) {
  const config = parseConfig({ VITEST: 'true', ...env });
  running = createAtlasServer({ config, handle: stubHandler, log });
  await new Promise<void>((resolve) => running!.server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(running.server.address() as AddressInfo).port}`;
}

/** Sends raw bytes and returns the answer (complete by its Content-Length, or whatever came before the close). */
/** One request on a socket of its own; `bytes` as parts is written part by part, 100 ms apart (separate reads). */
function raw(base: string, bytes: string | Buffer | string[]): Promise<{ status: number; headers: string; body: string }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let got = '';
    const done = () => {
      const [head, ...rest] = got.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head!)?.[1]), headers: head!.toLowerCase(), body: rest.join('\r\n\r\n') });
      socket.destroy();
    };
    socket.on('data', (d) => {
      got += d.toString('latin1');
      const m = /content-length: (\d+)\r\n[\s\S]*?\r\n\r\n([\s\S]*)$/i.exec(got);
      if (m && Buffer.byteLength(m[2]!, 'latin1') >= Number(m[1])) done();
    });
    socket.on('end', done);
    socket.on('error', (err) => (got ? done() : reject(err)));
    const parts = Array.isArray(bytes) ? bytes : [bytes];
    parts.forEach((part, i) => setTimeout(() => socket.writable && socket.write(part), i * 100));
  });
}

describe('HTTP edge', () => {
  it('answers 413 to a 60 MB body as soon as its length is declared, while other requests stay fast', async () => {
    const base = await start();
    const { port } = new URL(base);
    const socket = net.connect(Number(port), '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let got = '';
      socket.on('data', (d) => {
        got += d.toString();
        if (got.includes('}')) resolve(got);
      });
    });
    socket.on('error', () => {});
    socket.write(`POST /api/v2/runGetMethod HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${60 * 1024 * 1024}\r\n\r\n`);
    // The body trickles in: 64 KB now and then, far from complete when the answer must arrive.
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const trickle = setInterval(() => socket.writable && socket.write(chunk), 50);
    try {
      const text = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 413/);
      expect(JSON.parse(text.slice(text.indexOf('{')))).toMatchObject({ ok: false, code: 413, error: `request body larger than ${LIMITS.bodyBytes} bytes` });
      const t0 = performance.now();
      const other = await fetch(`${base}/api/v3/masterchainInfo`);
      expect(other.status).toBe(200);
      expect(performance.now() - t0).toBeLessThan(1000);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });

  it('lets a client that writes a whole 8 MB body before it reads still read its 413 (no reset under it)', async () => {
    const base = await start();
    const message = `request body larger than ${LIMITS.bodyBytes} bytes`;
    const body = Buffer.alloc(8 * 1024 * 1024, 0x20);
    const declared = `POST /api/v3/runGetMethod HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const chunked = `POST /api/v2/runGetMethod HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n`;
    for (const head of [declared, chunked]) {
      const { port } = new URL(base);
      const socket = net.connect(Number(port), '127.0.0.1');
      // A client busy writing does not read: the answer waits in its socket until the body is out.
      socket.pause();
      socket.on('error', () => {});
      const written = await new Promise<Error | undefined>((resolve) => socket.write(Buffer.concat([Buffer.from(head), body]), (err) => resolve(err ?? undefined)));
      expect(written?.message).toBeUndefined();
      const text = await new Promise<string>((resolve) => {
        let got = '';
        socket.on('data', (d) => (got += d.toString()));
        socket.on('end', () => resolve(got));
        socket.on('error', () => resolve(got));
        socket.resume();
      });
      socket.destroy();
      expect(text).toMatch(/^HTTP\/1\.1 413/);
      expect(JSON.parse(text.slice(text.indexOf('{')))).toMatchObject({ error: message });
    }
  });

  it('answers 413 to a chunked body once it passes the limit, without waiting for the rest', async () => {
    const base = await start();
    const part = Buffer.alloc(256 * 1024, 0x20);
    const res = await raw(
      base,
      Buffer.concat([
        Buffer.from('POST /api/v3/runGetMethod HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n'),
        ...Array.from({ length: 6 }, () => Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')])),
      ]),
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ error: `request body larger than ${LIMITS.bodyBytes} bytes` });
  });

  it('passes bodies within the limit to the app whole', async () => {
    const base = await start();
    const res = await fetch(`${base}/api/v2/jsonRPC`, { method: 'POST', body: 'x'.repeat(LIMITS.bodyBytes) });
    expect(await res.json()).toMatchObject({ bytes: LIMITS.bodyBytes });
  });

  it('answers 414 in the API envelope to a 100 KB URL', async () => {
    const base = await start();
    const v2 = await raw(base, `GET /api/v2/getAddressInformation?address=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(v2.status).toBe(414);
    expect(JSON.parse(v2.body)).toMatchObject({ ok: false, code: 414, error: `URL longer than ${LIMITS.urlChars} characters` });
    // Under Node's header limit the server parses the request and still refuses it.
    const v3 = await fetch(`${base}/api/v3/transactions?hash=${'a'.repeat(LIMITS.urlChars + 1)}`);
    expect(v3.status).toBe(414);
    expect(await v3.json()).toEqual({ error: `URL longer than ${LIMITS.urlChars} characters` });
  });

  it('answers 414 with both envelopes\' fields when the request line came in an earlier read than the overflow', async () => {
    // Node hands the error only the read it failed in: here the URL's middle, so the path is unknown. The
    // answer then carries v2's ok and code and the error every envelope has.
    const base = await start();
    const res = await raw(base, [`GET /api/v2/getAddressInformation?address=${'a'.repeat(20_000)}`, `${'a'.repeat(80_000)} HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expect(res.status).toBe(414);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, code: 414, error: `URL longer than ${LIMITS.urlChars} characters` });
  });

  it('answers 431 with a JSON body to oversize headers', async () => {
    const base = await start();
    const res = await raw(base, `GET /api/v3/masterchainInfo HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(40_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({ error: expect.stringMatching(/^request headers larger than \d+ bytes$/) });
  });

  it('answers 405 to TRACE, CONNECT and unknown methods, and 400 to an undecodable path', async () => {
    const base = await start();
    const trace = await raw(base, 'TRACE /api/v2/getMasterchainInfo HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(trace.status).toBe(405);
    expect(trace.headers).toContain('allow: get, head, post, options');
    expect(trace.headers).toContain('x-content-type-options: nosniff'); // as every answer Next sends
    expect(JSON.parse(trace.body)).toMatchObject({ ok: false, code: 405, error: 'method TRACE is not allowed' });
    const connect = await raw(base, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect([connect.status, JSON.parse(connect.body)]).toEqual([405, { error: 'method CONNECT is not allowed' }]);
    const brew = await raw(base, 'BREW /api/v3/masterchainInfo HTTP/1.1\r\nHost: x\r\n\r\n');
    expect([brew.status, JSON.parse(brew.body || '{}')]).toEqual([400, { error: 'malformed HTTP request' }]); // Node's parser knows no BREW
    const del = await fetch(`${base}/api/v3/masterchainInfo`, { method: 'DELETE' });
    expect([del.status, await del.json()]).toEqual([405, { error: 'method DELETE is not allowed' }]);

    const bad = await fetch(`${base}/api/v2/%ff`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, code: 400, error: 'malformed percent-encoding in the URL path' });
    const rpc = await raw(base, 'PUT /api/v2/jsonRPC HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    expect(JSON.parse(rpc.body)).toMatchObject({ ok: false, code: 405, jsonrpc: '2.0', id: null });
  });

  it('records the socket address as the client IP, replacing what the client sent; behind TRUST_PROXY the last forwarded hop', async () => {
    let base = await start();
    const direct = await fetch(`${base}/x`, { headers: { [CLIENT_IP_HEADER]: '6.6.6.6', 'X-Forwarded-For': '7.7.7.7' } });
    expect((await direct.json()).ip).toBe('127.0.0.1');
    await running!.close();
    base = await start({ TRUST_PROXY: 'on' });
    const proxied = await fetch(`${base}/x`, { headers: { 'X-Forwarded-For': '6.6.6.6, 203.0.113.9' } });
    expect((await proxied.json()).ip).toBe('203.0.113.9');
  });

  it('sheds requests past MAX_IN_FLIGHT with a fast 503 and Retry-After, while health is answered', async () => {
    const base = await start({ MAX_IN_FLIGHT: '4' });
    const busy = Array.from({ length: 4 }, () => fetch(`${base}/slow?ms=1500`));
    await new Promise((r) => setTimeout(r, 200));
    const shed = await fetch(`${base}/api/v3/masterchainInfo`, { headers: { Origin: 'https://app.example' } });
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('1');
    // A browser dApp can read the answer and its Retry-After (CORS_ORIGINS defaults to every origin).
    expect(shed.headers.get('access-control-allow-origin')).toBe('*');
    expect(shed.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(await shed.json()).toEqual({ error: 'server overloaded, retry later' });
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    // A preflight is never shed: the browser then sends the request and can read its 503 and Retry-After.
    const preflight = await fetch(`${base}/api/v3/masterchainInfo`, { method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' } });
    expect(preflight.status).not.toBe(503);
    expect(running!.load).toMatchObject({ shed: 1 });
    expect((await Promise.all(busy)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await fetch(`${base}/api/v3/masterchainInfo`)).status).toBe(200);
  });

  it('sheds with 503 while the event loop lags past SHED_EVENT_LOOP_DELAY_MS, health still answered', async () => {
    const base = await start({ SHED_EVENT_LOOP_DELAY_MS: '100' });
    // Sustained lag (one long pause alone is not overload): the loop blocked 150 ms at a time until the
    // monitor's one-second window shows it and the blocking requests themselves are shed.
    // Ten at a time, so the lag comes with requests queueing (a lag with a few requests in flight is
    // the process's own work and sheds nothing).
    let served = 0;
    for (let round = 0; round < 10 && served === round * 10; round++) {
      const statuses = await Promise.all(Array.from({ length: 10 }, () => fetch(`${base}/block/slow?ms=150`).then((r) => r.status)));
      served += statuses.filter((s) => s === 200).length;
    }
    expect(served).toBeLessThan(100);
    expect(running!.load.event_loop_delay_p99_ms).toBeGreaterThan(100);
    // With the loop still lagging and requests queueing, an API request is refused at once.
    const queued = Array.from({ length: 9 }, () => fetch(`${base}/block/slow?ms=150`));
    const shed = await fetch(`${base}/api/v2/getMasterchainInfo`);
    await Promise.all(queued);
    expect([shed.status, shed.headers.get('retry-after')]).toEqual([503, '1']);
    expect(await shed.json()).toMatchObject({ ok: false, code: 503, error: 'server overloaded, retry later' });
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });

  it('while the loop lags, sheds the client whose requests queue and serves one asking one thing at a time', async () => {
    const base = await start({ SHED_EVENT_LOOP_DELAY_MS: '100', TRUST_PROXY: 'on' });
    const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
    const heavy = from('203.0.113.7');
    // The heavy client lags the loop until its own requests are shed, as in the test above.
    let shedding = false;
    for (let round = 0; round < 10 && !shedding; round++) {
      const statuses = await Promise.all(Array.from({ length: 10 }, () => fetch(`${base}/block/slow?ms=150`, heavy).then((r) => r.status)));
      shedding = statuses.includes(503);
    }
    expect(shedding).toBe(true);
    // Its next requests wait (without blocking the loop) while the lag is still measured.
    const held = Array.from({ length: 9 }, () => fetch(`${base}/hold/slow?ms=1500`, heavy));
    await expect.poll(() => running!.load.in_flight, { timeout: 1000, interval: 5 }).toBeGreaterThanOrEqual(8);
    expect(running!.load.event_loop_delay_p99_ms).toBeGreaterThan(100);
    const more = await fetch(`${base}/api/v2/getMasterchainInfo`, heavy);
    const other = await fetch(`${base}/x`, from('198.51.100.9'));
    await Promise.all(held);
    expect(more.status).toBe(503);
    expect(other.status).toBe(200);
  });

  it("answers /api/health from the route's latest answer, with live load numbers, while the route is stuck", async () => {
    const base = await start();
    const first = await fetch(`${base}/api/health`);
    expect([first.status, await first.json()]).toMatchObject([200, { status: 'ok' }]);
    const passedThrough = healthAnswers;
    // The first request passed through and asked for a background refresh; wait for it to land.
    const deadline = Date.now() + 3000;
    while (healthAnswers === passedThrough && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 50)); // its body parsed and kept
    healthStuck = true;
    const cached = await fetch(`${base}/api/health`);
    expect(cached.status).toBe(200);
    expect(cached.headers.get('cache-control')).toBe('no-store');
    expect(await cached.json()).toMatchObject({ status: 'ok', answers: expect.any(Number), load: { in_flight: expect.any(Number), shed: expect.any(Number) } });
  });

  it('answers 504 to a request past REQUEST_TIMEOUT_MS and frees its socket', async () => {
    const base = await start({ REQUEST_TIMEOUT_MS: '1000' });
    const res = await fetch(`${base}/api/v2/hang`);
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ ok: false, code: 504, error: 'request took longer than 1000 ms' });
    expect(running!.load.in_flight).toBe(0);
    // A handler that answers after its deadline writes into a finished response: nothing breaks.
    const late = await fetch(`${base}/api/v3/slow?ms=1300`);
    expect([late.status, await late.json()]).toEqual([504, { error: 'request took longer than 1000 ms' }]);
    await new Promise((r) => setTimeout(r, 500));
    expect((await fetch(`${base}/x`)).status).toBe(200);
  });

  it('cuts a client reading an 11 MB answer at 10 KB/s at REQUEST_TIMEOUT_MS: its answer ends short, its socket destroyed, the answer released', async () => {
    const base = await start({ REQUEST_TIMEOUT_MS: '1000' });
    const timedOutBefore = running!.load.timed_out;
    const served: net.Socket[] = [];
    running!.server.on('connection', (s: net.Socket) => served.push(s));
    const readers = Array.from({ length: 4 }, () => {
      const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
      socket.write('GET /api/v3/big HTTP/1.1\r\nHost: atlas.test\r\n\r\n');
      socket.pause();
      socket.on('error', () => {}); // a cut connection may end in a reset
      let read = 0;
      const drip = setInterval(() => (read += socket.read(10 * 1024)?.length ?? 0), 1000);
      /** Reads the rest as fast as it comes: resolves with all the client got once the connection ended (or the whole answer came). */
      const rest = () =>
        new Promise<number>((resolve) => {
          clearInterval(drip);
          socket.once('close', () => resolve(read));
          socket.on('data', (d: Buffer) => {
            read += d.length;
            if (read > BIG.length) resolve(read);
          });
          socket.resume(); // (paused explicitly, a socket stays paused when a 'data' listener comes)
        });
      return { socket, rest };
    });
    await expect.poll(() => served.length, { timeout: 5000 }).toBe(4);
    await expect.poll(() => running!.load.timed_out - timedOutBefore, { timeout: 5000, interval: 50 }).toBe(4);
    // Past the deadline, a reader that speeds up gets only what was already on its way (the kernel's socket
    // buffers), then the end of the connection: never the whole answer (head and body together < the body).
    for (const got of await Promise.all(readers.map((r) => r.rest()))) expect(got).toBeLessThan(BIG.length);
    // The server's end of each connection is gone, with nothing of the answer left queued in this process.
    expect(served.every((s) => s.destroyed)).toBe(true);
    // Node empties a destroyed socket's write queue as it finishes destroying it, a tick or two later.
    await expect.poll(() => served.map((s) => s.writableLength), { timeout: 2000, interval: 50 }).toEqual([0, 0, 0, 0]);
    expect(running!.load.in_flight).toBe(0);
    for (const r of readers) r.socket.destroy();
    // Everyone else is served as before.
    expect((await fetch(`${base}/x`)).status).toBe(200);
  });
});

describe('who the client is, on a WebSocket upgrade', () => {
  it('overwrites the client address and loopback headers a client sends, as on plain requests', async () => {
    const seen: Record<string, string | string[] | undefined>[] = [];
    const config = parseConfig({ VITEST: 'true', TRUST_PROXY: 'on' });
    running = createAtlasServer({
      config,
      handle: stubHandler,
      log,
      streams: {
        handles: (path) => path === '/ws',
        request: (_req, res) => void res.end(),
        upgrade: (req, socket) => {
          seen.push({ ip: req.headers[CLIENT_IP_HEADER], loopback: req.headers[CLIENT_LOOPBACK_HEADER] });
          socket.destroy();
        },
      },
    });
    await new Promise<void>((resolve) => running!.server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(running.server.address() as AddressInfo).port}`;
    // A remote client behind the proxy claims both headers; the proxy appended the address it saw.
    await raw(base, `GET /ws HTTP/1.1\r\nHost: atlas.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nX-Forwarded-For: 203.0.113.9\r\n${CLIENT_IP_HEADER}: 127.0.0.1\r\n${CLIENT_LOOPBACK_HEADER}: 1\r\n\r\n`);
    expect(seen).toEqual([{ ip: '203.0.113.9', loopback: '0' }]);
  });
});
