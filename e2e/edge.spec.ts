import net from 'node:net';
import { expect, test } from '@playwright/test';

// The HTTP edge of `npm start` (lib/server/server.ts) against the real server: oversize bodies and URLs
// and TRACE are refused in the API's envelope, and the server stays healthy afterwards. HTTP only.

/** Writes raw bytes to the server and returns status and JSON body of its answer. */
function raw(baseURL: string, head: string, trickleBody = false): Promise<{ status: number; body: Record<string, unknown> }> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let got = '';
    let trickle: NodeJS.Timeout | undefined;
    const done = () => {
      clearInterval(trickle);
      socket.destroy();
      const start = got.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(got)?.[1]), body: JSON.parse(got.slice(start + 4) || '{}') });
    };
    socket.on('data', (d) => {
      got += d.toString('latin1');
      const m = /content-length: (\d+)/i.exec(got);
      const start = got.indexOf('\r\n\r\n');
      if (m && start >= 0 && Buffer.byteLength(got.slice(start + 4), 'latin1') >= Number(m[1])) done();
    });
    socket.on('error', (err) => (got ? done() : reject(err)));
    socket.write(head);
    // A body that would take minutes to arrive: the answer must not wait for it.
    if (trickleBody) trickle = setInterval(() => socket.writable && socket.write(Buffer.alloc(16 * 1024, 0x20)), 100);
  });
}

test.describe('HTTP edge @desktop-only', () => {
  test('refuses a 60 MB body with 413, a 100 KB URL with 414 and TRACE with 405, in the v2 envelope; health stays ok', async ({ baseURL, request }) => {
    const big = await raw(baseURL!, `POST /api/v2/runGetMethod HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${60 * 1024 * 1024}\r\n\r\n`, true);
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ ok: false, code: 413, error: expect.stringMatching(/^request body larger than \d+ bytes$/) });

    const longUrl = await raw(baseURL!, `GET /api/v2/getAddressInformation?address=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(longUrl.status).toBe(414);
    expect(longUrl.body).toMatchObject({ ok: false, code: 414 });
    const v3Url = await request.get(`/api/v3/transactions?hash=${'a'.repeat(9000)}`);
    expect(v3Url.status()).toBe(414);
    expect(await v3Url.json()).toEqual({ error: expect.stringMatching(/^URL longer than \d+ characters$/) });

    const trace = await raw(baseURL!, 'TRACE /api/v2/getMasterchainInfo HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(trace).toEqual({ status: 405, body: expect.objectContaining({ ok: false, code: 405, error: 'method TRACE is not allowed' }) });
    const badPath = await request.get('/api/v2/%ff');
    expect(badPath.status()).toBe(400);

    await expect.poll(async () => (await request.get('/api/health')).status(), { timeout: 60_000 }).toBe(200);
    const h = await (await request.get('/api/health')).json();
    expect(h).toMatchObject({ status: 'ok', load: { in_flight: expect.any(Number), shed: 0 }, memory: { rss: expect.any(Number) } });
  });
});
