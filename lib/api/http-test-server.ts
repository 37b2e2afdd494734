/**
 * A real HTTP server for tests of unmodified HTTP clients (@ton/ton's TonClient, tonweb): node:http on
 * 127.0.0.1 with a free port, handing each request to the real Next route handlers of /api/v2 as a
 * web Request and writing their Response back.
 *
 *   const server = await startHttpTestServer();
 *   const client = new TonClient({ endpoint: `${server.url}/api/v2/jsonRPC` });
 *   afterAll(() => server.close());
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jsonRpcRoute from '@/app/api/v2/jsonRPC/route';
import * as restRoute from '@/app/api/v2/[...path]/route';

export interface HttpTestServer {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

type Handler = (req: Request, ctx: { params: Promise<{ path: string[] }> }) => Promise<Response>;

function handlerFor(method: string, path: string[]): { handler: Handler | undefined; params: string[] } {
  const routes: Record<string, unknown> = path.length === 1 && path[0] === 'jsonRPC' ? jsonRpcRoute : restRoute;
  return { handler: routes[method] as Handler | undefined, params: path };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function serve(req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
  const url = new URL(req.url ?? '/', base);
  const match = /^\/api\/v2\/(.+)$/.exec(url.pathname);
  const method = req.method ?? 'GET';
  const { handler, params } = match ? handlerFor(method, match[1].split('/').map(decodeURIComponent)) : { handler: undefined, params: [] };
  if (!handler) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, error: 'Not Found', code: 404 }));
    return;
  }
  const body = method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(await readBody(req));
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const response = await handler(new Request(url, { method, headers, body }), { params: Promise.resolve({ path: params }) });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

export async function startHttpTestServer(): Promise<HttpTestServer> {
  let base = '';
  const server = createServer((req, res) => {
    serve(req, res, base).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, error: String(err), code: 500 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
