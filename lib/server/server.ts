// The HTTP edge of `npm start`: a node:http server in front of Next's request handler that refuses what
// would hurt every other request before any of it reaches the app — oversize bodies, URLs and headers,
// methods no route serves, undecodable paths — sheds load past a cap instead of queueing, answers a
// request running past its deadline with 504, and records who the client is. Its own answers use the
// envelope of the API the path belongs to (lib/api/edge-errors.ts). Built by scripts/start.ts; tested with a stub
// handler over real sockets (server.test.ts).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Config } from '../config';
import type { Logger } from '../log';
import { applyCors } from '../http/cors';
import { bodyTooLargeMessage } from '../http/body';
import { CLIENT_IP_HEADER, CLIENT_LOOPBACK_HEADER, isLoopbackAddress } from '../http/client-ip';
import { edgeError, withSecurityHeaders } from '../api/edge-errors';
import { rawPath } from '../http/request-target';
import { createHealthCache, HEALTH_REFRESH_HEADER } from '../http/health-cache';
import { LIMITS } from '../limits';
import { loadRecord, type LoadStatus } from '../http/load';
import { pagePolicy, type PageCache, type PageRequest } from '../http/page-cache';
import { onResponseClose } from '../http/response-close';
import { rendersPage, type PageGuard } from './page-guard';
import type { StreamEndpoints } from '../stream/gateway';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * Long-lived endpoints the edge serves itself, before load shedding and the request deadline (a stream
 * outlives both and holds no request slot): the Streaming API (lib/stream/gateway.ts), passed in.
 */
export interface AtlasServer {
  server: http.Server;
  /** Live load numbers (also what /api/health reports). */
  load: LoadStatus;
  /** Stops the event-loop monitor and closes the server. */
  close(): Promise<void>;
}

/** Methods some route serves (OPTIONS: CORS preflights); anything else is 405 before routing. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'OPTIONS']);
/**
 * Never shed: orchestrators must see the process is alive (and why it sheds) while it is overloaded, and
 * a page already rendered needs its (cheap, static) scripts and styles.
 */
/**
 * A lagging event loop sheds only while this many requests are in flight: with fewer, the lag is the
 * process's own work (the devnet sealing a block, the indexer parsing one), and refusing the few
 * requests there are would not relieve it.
 */
const LAG_SHED_MIN_IN_FLIGHT = 8;
/**
 * A lagging event loop sheds the requests of clients that already have this many in flight: the clients
 * whose work lags it (a burst of heavy reads on many connections). A client asking one thing at a time is
 * not the cause, and refusing it would hand the loop to the one that is.
 */
const LAG_SHED_CLIENT_IN_FLIGHT = 1;
// CORS preflights too: they cost nothing, and a browser reports a refused preflight as a bare network
// error that hides the Retry-After the real request would have carried.
const neverShed = (path: string, method: string | undefined) => path === '/api/health' || path.startsWith('/_next/static/') || method === 'OPTIONS';
/**
 * Node's own limit on the request line plus headers. Above LIMITS.urlChars so that a long URL reaches
 * the 414 check with its path known; past it Node stops parsing and clientError answers 414/431.
 */
const MAX_HEADER_BYTES = 32 * 1024;
/** How long a client may take to send its headers (slowloris). */
const HEADERS_TIMEOUT_MS = 10_000;
/** How old an /api/health answer the edge gives may be (health-cache.ts). */
const HEALTH_MAX_AGE_MS = 1000;
/** How often the event-loop delay window is read and reset. */
const DELAY_WINDOW_MS = 1000;

export function createAtlasServer({
  config,
  handle,
  log,
  pages,
  pageGuard,
  streams,
}: {
  config: Pick<Config, 'http' | 'corsOrigins'>;
  handle: NodeHandler;
  log: Logger;
  /** Rendered pages shared by all visitors (page-cache.ts); none: every page request renders. */
  pages?: PageCache;
  /** The pages' rate limit and render bound (page-guard.ts); none: neither. */
  pageGuard?: PageGuard;
  /** The Streaming API's endpoints; none: their paths go to the app like any other. */
  streams?: StreamEndpoints;
}): AtlasServer {
  const { trustProxy, maxInFlight, shedEventLoopDelayMs, requestTimeoutMs } = config.http;
  const load = loadRecord();
  if (pageGuard) load.pages = pageGuard.stats;

  const stopDelayWatch = watchEventLoopDelay(load);

  const send = (req: IncomingMessage, res: ServerResponse, status: number, error: string, extra?: Record<string, string>) => {
    const target = req.url ?? '/';
    const answer = edgeError(target, status, error, extra);
    if (rawPath(target).startsWith('/api/')) applyCors(answer.headers, config.corsOrigins, headerOf(req, 'origin'));
    void writeResponse(res, answer);
  };

  /** 413, and the connection closed only once the client has had the chance to read it (lingerOnClose). */
  const refuseBody = (req: IncomingMessage, res: ServerResponse) => {
    lingerOnClose(req.socket);
    send(req, res, 413, bodyTooLargeMessage(), { Connection: 'close' });
  };

  const health = createHealthCache({
    load,
    maxAgeMs: HEALTH_MAX_AGE_MS,
    fetchFresh: async () => {
      const { port } = server.address() as AddressInfo;
      const r = await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { [HEALTH_REFRESH_HEADER]: '1' }, signal: AbortSignal.timeout(10_000) });
      const body = (await r.json()) as Record<string, unknown>;
      // Only the route's own report is kept, never another layer's refusal (a rate limit, a shed answer).
      if (body.status !== 'ok' && body.status !== 'degraded') throw new Error(`health answered ${r.status}`);
      return { status: r.status, body };
    },
  });

  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: requestTimeoutMs, headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs) }, (req, res) => {
    const target = req.url ?? '/';
    const path = rawPath(target);
    stampClient(req, trustProxy);

    if (!METHODS.has(req.method ?? '')) return send(req, res, 405, `method ${req.method} is not allowed`, { Allow: [...METHODS].join(', '), Connection: 'close' });
    if (target.length > LIMITS.urlChars) return send(req, res, 414, `URL longer than ${LIMITS.urlChars} characters`, { Connection: 'close' });
    try {
      decodeURIComponent(path);
    } catch {
      return send(req, res, 400, 'malformed percent-encoding in the URL path');
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > LIMITS.bodyBytes) return refuseBody(req, res);
    if (streams?.handles(path)) return streams.request(req, res);
    const deadline = cutAtDeadline(req, res, path);

    if (path === '/api/health' && req.method === 'GET' && !req.headers[HEALTH_REFRESH_HEADER]) {
      const cached = health.answer();
      if (cached) return void writeResponse(res, withSecurityHeaders(Response.json(cached.body, { status: cached.status, headers: { 'Cache-Control': 'no-store' } })));
    }
    deadlines.set(req, deadline);
    route(req, res, path);
  });
  // Each request's deadline (made first, so kept pages and renders are cut at it too) for the run that answers it.
  const deadlines = new WeakMap<IncomingMessage, { onExpired?: () => void }>();
  const route = pageRouter((req, res, path, page) => run(req, res, path, page, deadlines.get(req) ?? {}), pages, pageGuard);

  const cutAtDeadline = deadlineCutter({ load, log, requestTimeoutMs, send });
  /** Requests in flight by client address (the lag shedding's fairness; entries go at zero). */
  const inFlightOf = new Map<string, number>();

  /** Sheds or runs a request within its deadline. */
  const run = (req: IncomingMessage, res: ServerResponse, path: string, page: PageRequest | null, deadline: { onExpired?: () => void }) => {
    const client = req.headers[CLIENT_IP_HEADER] as string;
    const clientInFlight = inFlightOf.get(client) ?? 0;
    if (!neverShed(path, req.method)) {
      const lagging =
        load.event_loop_delay_p99_ms > shedEventLoopDelayMs && load.in_flight >= LAG_SHED_MIN_IN_FLIGHT && clientInFlight >= LAG_SHED_CLIENT_IN_FLIGHT;
      if (load.in_flight >= maxInFlight || lagging) {
        load.shed++;
        return send(req, res, 503, 'server overloaded, retry later', { 'Retry-After': '1' });
      }
    }

    load.in_flight++;
    inFlightOf.set(client, clientInFlight + 1);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      load.in_flight--;
      const left = (inFlightOf.get(client) ?? 1) - 1;
      if (left > 0) inFlightOf.set(client, left);
      else inFlightOf.delete(client);
    };
    onResponseClose(res, finish);
    // A handler past its deadline: the client gets 504 (or, mid-answer, loses the connection) and the slot
    // is free again, whatever the handler still does.
    deadline.onExpired = finish;
    limitStreamedBody(req, () => {
      // Connection: close ends the socket once the answer is out; destroying it now would lose the answer.
      if (!res.headersSent) refuseBody(req, res);
      else req.destroy();
    });
    Promise.resolve()
      .then(() => (pages ? pages.handle(req, res, page, () => handle(req, res)) : handle(req, res)))
      .catch((err: unknown) => {
      log.error({ component: 'http', err }, 'request handler failed');
      if (!res.headersSent) send(req, res, 500, 'internal server error');
      else res.destroy();
    });
  };

  server.on('clientError', answerClientError);

  // WebSocket: only the Streaming API's endpoint upgrades.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    stampClient(req, trustProxy);
    if (streams?.handles(rawPath(req.url ?? '/'))) return streams.upgrade(req, socket, head);
    void rawAnswer(socket as Socket, edgeError(req.url ?? '/', 404, 'nothing here upgrades to another protocol'));
  });

  // CONNECT (proxy tunnels) bypasses the request handler in Node; Atlas is no proxy.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    void rawAnswer(socket, edgeError(req.url ?? '/', 405, 'method CONNECT is not allowed', { Allow: [...METHODS].join(', ') }));
  });

  return {
    server,
    load,
    close: () =>
      new Promise<void>((resolve, reject) => {
        stopDelayWatch();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}


/** Keeps `load.event_loop_delay_p99_ms` at the p99 event-loop delay of the last window (a blocked loop shows up once it runs again); returns the stop. */
function watchEventLoopDelay(load: LoadStatus): () => void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const window = setInterval(() => {
    load.event_loop_delay_p99_ms = Math.round(delay.percentile(99) / 1e6);
    delay.reset();
  }, DELAY_WINDOW_MS);
  window.unref();
  return () => {
    clearInterval(window);
    delay.disable();
  };
}

type EdgeSend = (req: IncomingMessage, res: ServerResponse, status: number, error: string, extra?: Record<string, string>) => void;

/**
 * Every answer the edge or the app gives must be delivered by REQUEST_TIMEOUT_MS after the request
 * came, whichever path made it (a kept page, a render, an API answer): past it a request still
 * unanswered gets 504, and one whose answer is still being written — a client reading 11 MB at 10 KB/s
 * — has its socket destroyed, which frees the answer buffered for it. `onExpired` lets the request's
 * slot accounting (run) close at the same moment.
 */
function deadlineCutter({ load, log, requestTimeoutMs, send }: { load: LoadStatus; log: Logger; requestTimeoutMs: number; send: EdgeSend }) {
  return (req: IncomingMessage, res: ServerResponse, path: string) => {
    const state: { onExpired?: () => void } = {};
    const timer = setTimeout(() => {
      load.timed_out++;
      const delivering = res.headersSent;
      log.warn({ component: 'http', method: req.method, path, ms: requestTimeoutMs, delivering }, delivering ? 'answer not delivered by the request deadline: connection cut' : 'request deadline passed');
      if (!delivering) send(req, res, 504, `request took longer than ${requestTimeoutMs} ms`, { Connection: 'close' });
      else {
        res.destroy();
        req.socket.destroy();
      }
      state.onExpired?.();
    }, requestTimeoutMs);
    onResponseClose(res, () => clearTimeout(timer));
    return state;
  };
}

/** An explorer page (or a client navigation's payload of one), as opposed to the API and built files. */
const isPage = (req: IncomingMessage, path: string) => (req.method === 'GET' || req.method === 'HEAD') && pagePolicy(path) !== null;

type Route = (req: IncomingMessage, res: ServerResponse, path: string) => void;
/** A request's run, with what the page cache knows it by (null: not a page it shares, or no cache). */
type Run = (req: IncomingMessage, res: ServerResponse, path: string, page: PageRequest | null) => void;

/**
 * Where a request that passed the edge's checks goes. A page request first spends its client's page
 * budget (page-guard.ts), kept renders included. A kept render costs a memory copy, and waiting for a
 * render in progress costs nothing: both come before load shedding (`run`), which exists to protect
 * renders. A page that must be rendered waits for a render slot, without holding a request slot meanwhile.
 */
function pageRouter(run: Run, pages?: PageCache, pageGuard?: PageGuard): Route {
  const dispatch: Run = (req, res, path, page) => {
    if (page && pages?.serveKept(req, res, page)) return;
    const joined = page && pages?.join(req, res, page);
    if (joined) return void joined.then((served) => served || run(req, res, path, page), () => run(req, res, path, page));
    if (pageGuard && isPage(req, path) && rendersPage(req)) {
      return pageGuard.render(page?.key ?? req.url ?? '/', req, res, () => run(req, res, path, page), () => dispatch(req, res, path, page));
    }
    run(req, res, path, page);
  };
  return (req, res, path) => {
    // The page's canonical URL and cache key, worked out once for every step that follows.
    const page = pages?.pageOf(req, path) ?? null;
    if (!pageGuard || !isPage(req, path)) return dispatch(req, res, path, page);
    pageGuard.admit(req, res).then(
      (admitted) => admitted && dispatch(req, res, path, page),
      () => dispatch(req, res, path, page),
    );
  };
}

/**
 * Requests Node cannot parse never reach the handler: answer them on the raw socket where it is still
 * writable. Oversize request lines or headers (HPE_HEADER_OVERFLOW) are 414 when the request line alone
 * is over the limit, else 431; the envelope follows the path when the request line was read. Node gives
 * only the read the parser failed in (`rawPacket`): a long request line that came over several reads is
 * seen from its middle, its path unknown, and the answer carries every envelope's fields.
 */
function answerClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): void {
  if (!socket.writable || (socket as Socket & { atlasAnswered?: boolean }).atlasAnswered) return void socket.destroy();
  (socket as Socket & { atlasAnswered?: boolean }).atlasAnswered = true;
  const head = err.rawPacket?.subarray(0, LIMITS.urlChars + 64).toString('latin1') ?? '';
  const requestLine = /^[A-Z]+ (\S+)( |\r|$)/.exec(head);
  const target = requestLine?.[1];
  const lineTooLong = !/\r\n/.test(head.slice(0, LIMITS.urlChars + 32)) || (target?.length ?? 0) > LIMITS.urlChars;
  const [status, error] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? lineTooLong
        ? [414, `URL longer than ${LIMITS.urlChars} characters`]
        : [431, `request headers larger than ${MAX_HEADER_BYTES} bytes`]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request not received in time']
        : [400, 'malformed HTTP request'];
  void rawAnswer(socket, edgeError(target, status, error));
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return typeof v === 'string' ? v : null;
}

/**
 * Who the client is, in the headers everything behind the edge reads (client-ip.ts): its address and
 * whether it is on loopback. Both are always overwritten — on plain requests and WebSocket upgrades alike —
 * so a client's own copy of either header is never believed.
 */
function stampClient(req: IncomingMessage, trustProxy: boolean): void {
  req.headers[CLIENT_IP_HEADER] = clientAddress(req, trustProxy);
  req.headers[CLIENT_LOOPBACK_HEADER] = clientOnLoopback(req, trustProxy) ? '1' : '0';
}

/**
 * The client's address: the socket's peer, or with TRUST_PROXY the last X-Forwarded-For hop — the one
 * the trusted proxy appended; earlier hops are whatever the client wrote and prove nothing.
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  return (trustProxy && lastForwardedHop(req)) || peer;
}

function lastForwardedHop(req: IncomingMessage): string | undefined {
  const forwarded = req.headers['x-forwarded-for'];
  return (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').map((s) => s.trim()).filter(Boolean).at(-1);
}

/**
 * Whether the client is on this machine's loopback: the socket's peer, or with TRUST_PROXY the address
 * the proxy forwarded. A proxy on loopback that forwards no address makes no one behind it local.
 */
export function clientOnLoopback(req: IncomingMessage, trustProxy: boolean): boolean {
  const client = trustProxy ? lastForwardedHop(req) : req.socket.remoteAddress;
  return client !== undefined && isLoopbackAddress(client);
}

/** How long, and for how many bytes, a refused body is still read after its 413 (lingerOnClose). */
const LINGER_MS = 2000;
const LINGER_BYTES = 16 * 1024 * 1024;
const LINGER_CHECK_MS = 100;

/**
 * A client refused a body may still be writing it. Node closes a `Connection: close` socket as soon as the
 * answer is out (destroySoon), and the bytes that keep coming then meet a closed socket: the kernel
 * resets the connection, and a client that had not yet read the 413 gets EPIPE or ECONNRESET instead.
 * So, as servers do with a lingering close, the write side is closed after the answer while what still
 * comes is read and dropped until the client closes its side — for at most LINGER_MS and LINGER_BYTES,
 * so a client that never stops costs a bounded amount of reading.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    const stopAt = socket.bytesRead + LINGER_BYTES;
    const started = Date.now();
    // Node's HTTP parser reads the socket (and drops a finished request's body); only its totals are visible here.
    const watch = setInterval(() => {
      if (socket.bytesRead > stopAt || Date.now() - started >= LINGER_MS) socket.destroy();
    }, LINGER_CHECK_MS);
    watch.unref();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearInterval(watch));
  };
}

/**
 * Chunked bodies carry no length up front: count bytes as Node's parser hands them to the request stream
 * (its push), so the limit holds before the handler has read the body — and whichever way it reads it.
 */
function limitStreamedBody(req: IncomingMessage, onExceeded: () => void): void {
  let seen = 0;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk && seen <= LIMITS.bodyBytes) {
      seen += (chunk as Buffer).length;
      if (seen > LIMITS.bodyBytes) onExceeded();
    }
    // Past the limit the rest is dropped, not held: the socket is still read, so the refused client is
    // not stalled mid-write before it can read its 413 (lingerOnClose bounds how long).
    return seen > LIMITS.bodyBytes ? true : push(chunk, encoding);
  };
}

async function writeResponse(res: ServerResponse, answer: Response): Promise<void> {
  const body = Buffer.from(await answer.arrayBuffer());
  if (res.headersSent || res.destroyed) return;
  res.writeHead(answer.status, { ...Object.fromEntries(answer.headers), 'content-length': String(body.length) });
  res.end(body);
}

async function rawAnswer(socket: Socket, answer: Response): Promise<void> {
  const body = Buffer.from(await answer.arrayBuffer());
  const headers = [...answer.headers].map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.write(`HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status] ?? ''}\r\n${headers}content-length: ${body.length}\r\nconnection: close\r\n\r\n`);
  socket.end(body);
}
