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
import { answerWith } from '../server/direct-api';
import { createAtlasServer, type AtlasServer } from '../server/server';
import type { StreamEndpoints } from '../stream/gateway';

export interface HttpTestServer {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

/**
 * A node:http request handler over a web handler (what Next is to lib/server/server.ts in `npm start`):
 * the request as a web Request, its Response written back as the edge writes the APIs' answers
 * (lib/server/direct-api.ts).
 */
export function nodeHandler(handle: (req: Request) => Promise<Response>) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    answerWith(req, res, handle).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `test server: ${String(err)}` }));
    });
  };
}

/** `streams`: the Streaming API's endpoints, answered as the HTTP edge answers them (lib/server/server.ts). */
export async function startHttpTestServer(handle: (req: Request) => Promise<Response>, streams?: StreamEndpoints): Promise<HttpTestServer> {
  const web = nodeHandler(handle);
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
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

/**
 * `npm start`'s HTTP edge (lib/server/server.ts: limits, shedding, deadlines, client addresses) in front of
 * `handle` on a free port of `host` (0.0.0.0 lets a test reach it from a non-loopback address too).
 */
export async function startEdgeTestServer(config: Pick<Config, 'http' | 'corsOrigins'>, handle: (req: Request) => Promise<Response>, host = '127.0.0.1'): Promise<{ edge: AtlasServer; url: string; port: number }> {
  const edge = createAtlasServer({ config, handle: nodeHandler(handle), log });
  await new Promise<void>((resolve) => edge.server.listen(0, host, resolve));
  const { port } = edge.server.address() as AddressInfo;
  return { edge, url: `http://127.0.0.1:${port}`, port };
}
