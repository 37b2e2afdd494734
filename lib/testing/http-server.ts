/**
 * A real HTTP server for tests of unmodified HTTP clients (@ton/ton's TonClient, tonweb, the explorer's
 * fetchers): node:http on 127.0.0.1 with a free port, handing each request to `handle` as a web Request
 * and writing its Response back. Built by lib/testing/api.ts's `serve()`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config';
import { CLIENT_IP_HEADER } from '../http/client-ip';
import { log } from '../log';
import { createAtlasServer, type AtlasServer } from '../server/server';
import type { StreamEndpoints } from '../stream/gateway';

export interface HttpTestServer {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * A node:http request handler over a web handler (what Next is to lib/server/server.ts in `npm start`):
 * the request as a web Request against `base()`, its Response written back.
 */
export function nodeHandler(handle: (req: Request) => Promise<Response>, base: () => string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    void (async () => {
      const method = req.method ?? 'GET';
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req);
      const response = await handle(new Request(new URL(req.url ?? '/', base()), { method, headers, body }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `test server: ${String(err)}` }));
    });
  };
}

/** `streams`: the Streaming API's endpoints, answered as the HTTP edge answers them (lib/server/server.ts). */
export async function startHttpTestServer(handle: (req: Request) => Promise<Response>, streams?: StreamEndpoints): Promise<HttpTestServer> {
  let base = '';
  const web = nodeHandler(handle, () => base);
  const isStream = (req: IncomingMessage) => streams?.handles(new URL(req.url ?? '/', 'http://x').pathname) ?? false;
  // A stream's connection slot is its client address's (the edge records it; plain requests go without, as before).
  const server = createServer((req, res) => {
    if (!isStream(req)) return web(req, res);
    req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? 'unknown';
    streams!.request(req, res);
  });
  server.on('upgrade', (req, socket, head) => {
    req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? 'unknown';
    if (isStream(req)) streams!.upgrade(req, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

/**
 * `npm start`'s HTTP edge (lib/server/server.ts: limits, shedding, deadlines, client addresses) in front of
 * `handle` on a free port of `host` (0.0.0.0 lets a test reach it from a non-loopback address too).
 */
export async function startEdgeTestServer(config: Pick<Config, 'http' | 'corsOrigins'>, handle: (req: Request) => Promise<Response>, host = '127.0.0.1'): Promise<{ edge: AtlasServer; url: string; port: number }> {
  let port = 0;
  const edge = createAtlasServer({ config, handle: nodeHandler(handle, () => `http://127.0.0.1:${port}`), log });
  await new Promise<void>((resolve) => edge.server.listen(0, host, resolve));
  port = (edge.server.address() as AddressInfo).port;
  return { edge, url: `http://127.0.0.1:${port}`, port };
}
