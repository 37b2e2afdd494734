// The Streaming API's HTTP endpoints, served by the HTTP edge (lib/server/server.ts) itself: a stream
// outlives any request deadline and must not hold a request slot, and Next's route handlers cannot
// upgrade to WebSocket. `POST /api/streaming/v2/sse` (or GET with the subscription in the query, for the
// browser's EventSource) and `/api/streaming/v2/ws`. Each connection is checked like any API request —
// API key (X-API-Key or api_key), rate limit, CORS origin — then takes a connection slot of its key or
// client address. Errors are `{id?, error}` with the HTTP status saying what kind.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { allowedOrigin, applyCors, preflightHeaders } from '../http/cors';
import type { Access, AccessDecision } from '../auth/access';
import type { Config } from '../config';
import { bodyTooLargeMessage } from '../http/body';
import { CLIENT_IP_HEADER } from '../http/client-ip';
import { withSecurityHeaders } from '../api/edge-errors';
import { rawPath } from '../http/request-target';
import { LIMITS } from '../limits';
import type { Logger } from '../log';
import type { StreamHub } from './hub';
import type { RequestIdJson } from './protocol';
import { serveSse } from './sse';
import { parseSubscription, subscriptionFromQuery } from './subscription';
import { refuseWebSocket, serveWebSocket } from './ws';

/** What the HTTP edge (lib/server/server.ts) hands the streaming paths. */
export interface StreamEndpoints {
  /** True for the paths they answer (every other path goes to the app). */
  handles(path: string): boolean;
  request(req: IncomingMessage, res: ServerResponse): void;
  /** A WebSocket upgrade request for one of their paths. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

export const SSE_PATH = '/api/streaming/v2/sse';
export const WS_PATH = '/api/streaming/v2/ws';
/** The Streaming API's OpenAPI document (lib/stream/openapi.ts), served by the app's route like v2's and v3's. */
export const DOC_PATH = '/api/streaming/v2/openapi.json';

export interface GatewayOptions {
  hub: StreamHub;
  config: Pick<Config, 'stream' | 'corsOrigins'>;
  /** API keys and rate limits (the runtime's: resolved when a connection arrives). */
  access: () => Promise<Access>;
  log: Logger;
  /** The clock (ms) a WebSocket's message budget counts its one-second windows by: performance.now unless a test moves time. */
  now?: () => number;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly id?: RequestIdJson,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : null;
};

/** The request as the access check reads it (headers and query: the key, the client address). */
function asRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  return new Request(new URL(req.url ?? '/', 'http://atlas.local'), { headers });
}

function refusedBy(decision: Exclude<AccessDecision, { allowed: true }>): Refusal {
  return new Refusal(decision.status, decision.message, undefined, decision.headers);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // Past the limit the rest is read and dropped, so a client still writing reads the 413 instead of a
    // reset (leaving the loop destroys the request and its socket); past the edge's body limit it is cut.
    if (size > LIMITS.bodyBytes) break;
    if (size <= LIMITS.streamRequestBytes) chunks.push(chunk as Buffer);
  }
  if (size > LIMITS.streamRequestBytes) throw new Refusal(413, bodyTooLargeMessage(LIMITS.streamRequestBytes));
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (err) {
    throw new Refusal(400, `invalid subscription request: ${(err as Error).message}`);
  }
}

export function streamGateway(o: GatewayOptions): StreamEndpoints {
  const { stream, corsOrigins } = o.config;
  const wss = new WebSocketServer({ noServer: true, maxPayload: LIMITS.streamRequestBytes, perMessageDeflate: false, clientTracking: false });

  const cors = (req: IncomingMessage, headers: Headers) => applyCors(headers, corsOrigins, header(req, 'origin'));

  const answer = (req: IncomingMessage, res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) => {
    const r = withSecurityHeaders(Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...extra } }));
    cors(req, r.headers);
    const text = JSON.stringify(body);
    if (!res.headersSent) res.writeHead(status, { ...Object.fromEntries(r.headers), 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
  };

  /** Access and a connection slot; `bodyKey`: an api_key in the SSE body (as v2 reads one). */
  async function admit(req: IncomingMessage, bodyKey?: unknown): Promise<{ owner: string; decision: AccessDecision }> {
    const decision = await (await o.access()).check(asRequest(req), 'v3', bodyKey);
    if (!decision.allowed) throw refusedBy(decision);
    const slot = o.hub.admit(decision.keyId ?? null, header(req, CLIENT_IP_HEADER) ?? 'unknown');
    if (!slot.ok) throw new Refusal(429, slot.error, undefined, { 'Retry-After': '5' });
    return { owner: slot.owner, decision };
  }

  async function sse(req: IncomingMessage, res: ServerResponse) {
    const input = req.method === 'POST' ? await readJson(req) : subscriptionFromQuery(new URL(req.url ?? '/', 'http://atlas.local').searchParams);
    const sub = parseSubscription(input, { maxAddresses: stream.maxAddresses, actionsVersion: header(req, 'x-actions-version') });
    if (!sub.ok) throw new Refusal(400, sub.error, sub.id);
    const bodyKey = input && typeof input === 'object' ? (input as { api_key?: unknown }).api_key : undefined;
    const { owner, decision } = await admit(req, bodyKey);
    const headers = new Headers(decision.headers);
    cors(req, headers);
    serveSse(req, res, o.hub, { owner, sub: sub.value, id: sub.id }, { keepaliveMs: stream.keepaliveMs, bufferBytes: stream.bufferBytes, headers: Object.fromEntries(headers) });
  }

  async function request(req: IncomingMessage, res: ServerResponse) {
    const path = rawPath(req.url ?? '/');
    if (path === WS_PATH) throw new Refusal(426, 'this is the WebSocket endpoint: connect with a WebSocket client (Upgrade: websocket); SSE is at ' + SSE_PATH, undefined, { Upgrade: 'websocket' });
    if (path !== SSE_PATH) throw new Refusal(404, `not found: the Streaming API serves ${SSE_PATH} and ${WS_PATH}`);
    if (req.method === 'OPTIONS') {
      const headers = preflightHeaders(corsOrigins, header(req, 'origin'), header(req, 'access-control-request-headers'));
      res.writeHead(204, Object.fromEntries(headers));
      return void res.end();
    }
    if (req.method !== 'POST' && req.method !== 'GET') throw new Refusal(405, `method ${req.method} is not allowed: POST a subscription (or GET it as a query)`, undefined, { Allow: 'GET, POST, OPTIONS' });
    await sse(req, res);
  }

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    socket.on('error', () => socket.destroy());
    const path = rawPath(req.url ?? '/');
    const refuse = (status: number, error: string) => {
      const body = JSON.stringify({ error });
      socket.end(`HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Forbidden'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    };
    if (path !== WS_PATH) return refuse(404, `not found: the Streaming API's WebSocket endpoint is ${WS_PATH}`);
    // Browsers send Origin with every WebSocket: a page of an origin CORS_ORIGINS does not list may not connect.
    const origin = header(req, 'origin');
    if (origin !== null && !allowedOrigin(corsOrigins, origin)) return refuse(403, `origin ${origin} may not connect (CORS_ORIGINS)`);
    let admitted: { owner: string } | { error: string };
    try {
      admitted = await admit(req);
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      admitted = { error: err.message };
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if ('error' in admitted) return refuseWebSocket(ws, admitted.error);
      serveWebSocket(ws, socket, o.hub, admitted.owner, { keepaliveMs: stream.keepaliveMs, bufferBytes: stream.bufferBytes, messagesPerSecond: stream.wsMessagesPerSecond, now: o.now, maxAddresses: stream.maxAddresses, actionsVersion: header(req, 'x-actions-version') });
    });
  }

  const failed = (what: string) => (err: unknown) => {
    o.log.error({ component: 'stream', err, what }, 'stream endpoint failed');
  };

  return {
    // The OpenAPI document is a plain route of the app (served under `next dev` too).
    handles: (path) => (path === '/api/streaming' || path.startsWith('/api/streaming/')) && path !== DOC_PATH,
    request(req, res) {
      request(req, res).catch((err: unknown) => {
        if (err instanceof Refusal) return answer(req, res, err.status, { ...(err.id !== undefined ? { id: err.id } : {}), error: err.message }, err.headers);
        failed('request')(err);
        answer(req, res, 500, { error: 'internal server error' });
      });
    },
    upgrade(req, socket, head) {
      upgrade(req, socket, head).catch((err: unknown) => {
        failed('upgrade')(err);
        socket.destroy();
      });
    },
  };
}
