// Route handlers keep the body limit where no Atlas server fronts them (next dev, tests): a streamed body
// is cut off once it passes LIMITS.bodyBytes, and a declared oversize length is refused without reading.
import { describe, expect, it } from 'vitest';
import { testApi } from '../testing/api';
import { LIMITS } from '../limits';

const api = testApi({});
const message = `request body larger than ${LIMITS.bodyBytes} bytes`;

/** A body without a declared length, produced chunk by chunk; `pulled` counts the chunks the reader took. */
function streamed(totalBytes: number) {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const state = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled * chunk.length >= totalBytes) return controller.close();
      state.pulled++;
      controller.enqueue(chunk);
    },
  });
  return { body, state, chunkBytes: chunk.length };
}

const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  api.fetch(new Request(`http://atlas.test${path}`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers }, duplex: 'half' } as RequestInit));

describe('request bodies in the route handlers', () => {
  it('v2 POST and JSON-RPC answer 413 in their envelope once a streamed body passes the limit, reading no further', async () => {
    const s = streamed(60 * 1024 * 1024);
    const res = await post('/api/v2/runGetMethod', s.body);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ ok: false, code: 413, error: message });
    expect(s.state.pulled * s.chunkBytes).toBeLessThan(LIMITS.bodyBytes + 3 * s.chunkBytes);

    const rpc = await post('/api/v2/jsonRPC', streamed(2 * LIMITS.bodyBytes).body);
    expect(await rpc.json()).toMatchObject({ ok: false, code: 413, error: message, jsonrpc: '2.0' });
  });

  it('v3 POST answers 413 {error} to a declared length over the limit without reading the body', async () => {
    const s = streamed(LIMITS.bodyBytes * 4);
    const res = await post('/api/v3/runGetMethod', s.body, { 'Content-Length': String(LIMITS.bodyBytes * 4) });
    expect([res.status, await res.json()]).toEqual([413, { error: message }]);
    expect(s.state.pulled).toBeLessThanOrEqual(1);
  });
});
