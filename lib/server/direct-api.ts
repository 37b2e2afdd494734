// /api/v2 and /api/v3 answered by their route handlers straight from the edge, not through Next's
// request pipeline. Next's router, proxy matching and its request and response conversions cost an API
// answer more CPU than a small answer itself (issue 31's measurements), and the handlers are the ones the
// route files export (lib/api/dispatch.ts) and never use Next's request APIs. What Next adds to those
// answers is added here the same way: next.config.ts's security headers and the API's policy, then the
// handler's own headers, and compression through the middleware Next's server uses. A path or method no
// route handler serves here (the documents, HEAD, a path outside both APIs) is left to Next.
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { BoundHandler, RouteFinder } from '../api/dispatch';
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from '../http/security-headers';
import { rawPath } from '../http/request-target';
import { onResponseClose } from '../http/response-close';
import type { NodeHandler } from './server';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
// Next's own copy of the `compression` middleware (next/dist/server/lib/router-server.js applies it to
// every answer): the same encodings, threshold, Vary and no-transform rules as the answers Next writes.
const require = createRequire(import.meta.url);
const compress = (require('next/dist/compiled/compression') as () => Middleware)();
const { releaseCompressionStream } = require('next/dist/server/lib/release-compression-stream') as { releaseCompressionStream: (res: ServerResponse) => void };

/**
 * A request for /api/v2 or /api/v3 that a route handler serves goes to it (`routeFor`: lib/api/dispatch.ts
 * apiRoutes); every other request goes to `next`.
 */
export function directApi(routeFor: RouteFinder, next: NodeHandler): NodeHandler {
  return (req, res) => {
    // The raw path: routeFor decodes each segment once, as Next does (decoding here too would turn
    // `transaction%2573` into `transactions`).
    const handler = routeFor(rawPath(req.url ?? '/'), req.method ?? '');
    return handler ? answerWith(req, res, handler) : next(req, res);
  };
}

/** Answers a node request with what a web handler answers for it, as Next writes a route handler's answer. */
export async function answerWith(req: IncomingMessage, res: ServerResponse, handler: BoundHandler): Promise<void> {
  const response = await handler(webRequest(req));
  await writeAnswer(req, res, response);
}

/** Any Host a client sends is kept, as Next keeps it; one that cannot form a URL reads as localhost. */
function originOf(req: IncomingMessage): string {
  const host = req.headers.host;
  if (host && URL.canParse(`http://${host}/`)) return `http://${host}`;
  return 'http://localhost';
}

function webRequest(req: IncomingMessage): Request {
  // As Next builds its request: from Node's parsed headers, which include what the edge wrote into them
  // (who the client is: server.ts stampClient).
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    try {
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    } catch {
      // A value Node's parser let through but fetch's Headers refuses is dropped, as no route reads one.
    }
  }
  // No abort signal: no handler reads one (a client gone mid-answer cancels the answer's body in
  // writeAnswer), and a signal per request, aborted with a DOMException at every close, cost more CPU than
  // a small answer's routing.
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(originOf(req) + (req.url ?? '/'), {
    method: req.method,
    headers,
    ...(hasBody && { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' }),
  } as RequestInit);
}

async function writeAnswer(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  if (res.headersSent || res.destroyed) return void response.body?.cancel();
  for (const { key, value } of STATIC_SECURITY_HEADERS) res.setHeader(key, value);
  res.setHeader('Content-Security-Policy', API_CONTENT_SECURITY_POLICY);
  for (const [name, value] of response.headers) res.setHeader(name, value);
  res.statusCode = response.status;
  compress(req, res, () => {});
  // A client gone mid-answer leaves the middleware's zlib stream unended (as Next notes): release it.
  onResponseClose(res, () => {
    if (!res.writableFinished) releaseCompressionStream(res);
  });
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  const closed = new Promise<void>((resolve) => onResponseClose(res, resolve));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      // once: the middleware hands 'drain' listeners to its zlib stream while compressing.
      if (!res.write(value)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
    }
    res.end();
  } finally {
    if (res.destroyed) void reader.cancel().catch(() => {});
  }
}
