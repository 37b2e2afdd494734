/**
 * A real HTTP server for tests of unmodified HTTP clients (@ton/ton's TonClient, tonweb, the explorer's
 * fetchers): node:http on 127.0.0.1 with a free port, handing each request to `handle` as a web Request
 * and writing its Response back. Built by lib/testing/api.ts's `serve()`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
 * A node:http request handler over a web handler (what Next is to lib/http/server.ts in `npm start`):
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

export async function startHttpTestServer(handle: (req: Request) => Promise<Response>): Promise<HttpTestServer> {
  let base = '';
  const server = createServer(nodeHandler(handle, () => base));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
