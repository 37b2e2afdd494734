// Rendered pages shared by every visitor. Explorer pages are not personal (the theme is applied in the
// browser), so one render of a URL serves everyone until it may have changed: pages of things that
// cannot change (a transaction, a block) for minutes, everything else — the home page, lists, accounts,
// all of which follow the chain's head — for about a second, i.e. at most one render per block. Renders
// of one URL are single-flight: fifty visitors arriving together wait for one render instead of starting
// fifty. A render is known by its canonical URL (page-query.ts): a query parameter the page does not read
// is no part of it, so `?cb=N` neither misses the cache nor forces a render.
//
// Each answer has its own script nonce (README: one per response). A kept render is stored with the
// places its nonce appears (the policy header, every nonce attribute, Next's inline payload that repeats
// it) and each answer made from it gets a fresh nonce written over them. Renders are kept uncompressed
// for that (the render is asked for without compression), and each answer is gzipped off the main thread
// when the client accepts it.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { canonicalPageUrl } from './page-query';
import { onResponseClose } from './response-close';
import { newNonce } from './security-headers';

const gzip = promisify(zlib.gzip);

export interface PagePolicy {
  /** How long this process reuses a render. */
  ttlMs: number;
  /** What browsers and shared caches are told. */
  cacheControl: string;
}

const IMMUTABLE: PagePolicy = { ttlMs: 10 * 60_000, cacheControl: 'public, max-age=3600' };
const HEAD: PagePolicy = { ttlMs: 1000, cacheControl: 'public, max-age=1' };
// A transaction by hash; a block by workchain, shard and seqno.
const IMMUTABLE_PATHS = [/^\/tx\/[^/]+$/, /^\/block\/-?\d+\/[0-9A-Fa-f]{1,16}\/\d+$/];

/** The policy of a page path; null for what is not a page (API, built files, health). */
export function pagePolicy(path: string): PagePolicy | null {
  if (path === '/api' || path.startsWith('/api/') || path.startsWith('/_next/') || path === '/favicon.svg') return null;
  return IMMUTABLE_PATHS.some((r) => r.test(path)) ? IMMUTABLE : HEAD;
}

// Request headers a page answer depends on: Next's client navigations (RSC payloads). Not the encoding:
// renders are kept uncompressed and compressed per answer.
const KEY_HEADERS = ['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch', 'next-url'];
/** Answers smaller than this are sent as they are (compression would gain nothing). */
const COMPRESS_MIN_BYTES = 1024;
/**
 * gzip level of kept answers: on a 370 KB account page 7 % larger than the default level's output for about
 * two thirds of its CPU (1.7–2.0 ms against 2.5–3.2 ms, in libuv's thread pool, not on the main thread).
 */
const GZIP_LEVEL = 4;
// Headers of one connection or one moment, never replayed.
const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

interface Entry {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  /** The render's script nonce, and where it appears in the body (each answer gets a new one there). */
  nonce: string | null;
  nonceAt: number[];
  storedAt: number;
  expires: number;
}

export interface PageCacheOptions {
  /** Bytes of bodies kept at most; the oldest renders go first. */
  maxBytes?: number;
  /** A render larger than this is served but not kept. */
  maxEntryBytes?: number;
  now?: () => number;
}

export interface PageCacheStats {
  hits: number;
  misses: number;
  /** Requests that waited for another request's render of the same URL. */
  joined: number;
  entries: number;
  bytes: number;
}

/**
 * A page request as the cache knows it: its policy, the canonical URL it renders, and its key (that URL
 * and the router headers). Worked out once per request (pageOf) and handed to every step after it.
 */
export interface PageRequest {
  policy: PagePolicy;
  url: string;
  key: string;
}

export interface PageCache {
  /** The request as a page the cache may share; null for anything else (the API, built files, a POST). */
  pageOf(req: IncomingMessage, path: string): PageRequest | null;
  /** Answers a page request from a kept render at once (cheap: the edge does it before shedding load). */
  serveKept(req: IncomingMessage, res: ServerResponse, page: PageRequest): boolean;
  /**
   * When the same URL is being rendered: waits for that render and answers with it (true), or false when
   * it could not be shared (the caller renders). Null when no render is in progress. Waiting costs no
   * work, so the edge lets it past load shedding.
   */
  join(req: IncomingMessage, res: ServerResponse, page: PageRequest): Promise<boolean> | null;
  /** Answers a page request from a render (kept or in progress), else runs `render` and keeps its answer; not a page (null): runs `render`. */
  handle(req: IncomingMessage, res: ServerResponse, page: PageRequest | null, render: () => unknown): Promise<unknown>;
  readonly stats: PageCacheStats;
}

export function createPageCache(o: PageCacheOptions = {}): PageCache {
  const maxBytes = o.maxBytes ?? 64 * 1024 * 1024;
  const maxEntryBytes = o.maxEntryBytes ?? 2 * 1024 * 1024;
  const now = o.now ?? Date.now;
  // Insertion order is age order: a re-render deletes and re-inserts.
  const entries = new Map<string, Entry>();
  const rendering = new Map<string, Promise<Entry | null>>();
  const stats: PageCacheStats = { hits: 0, misses: 0, joined: 0, entries: 0, bytes: 0 };

  const drop = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    entries.delete(key);
    stats.bytes -= e.body.length;
  };
  const keep = (key: string, e: Entry) => {
    drop(key);
    entries.set(key, e);
    stats.bytes += e.body.length;
    for (const [k] of entries) {
      if (stats.bytes <= maxBytes) break;
      drop(k);
    }
    stats.entries = entries.size;
  };

  const write = (req: IncomingMessage, res: ServerResponse, e: Entry, policy: PagePolicy, how: 'hit' | 'joined') => {
    if (res.headersSent || res.destroyed) return;
    const { headers, body } = withFreshNonce(e);
    const vary = String(headers.vary ?? '');
    const head = {
      ...headers,
      vary: /accept-encoding/i.test(vary) ? vary : [vary, 'Accept-Encoding'].filter(Boolean).join(', '),
      'cache-control': policy.cacheControl,
      age: String(Math.floor((now() - e.storedAt) / 1000)),
      'x-atlas-cache': how,
    };
    if (req.method === 'HEAD') {
      res.writeHead(e.status, { ...head, 'content-length': String(body.length) });
      return void res.end();
    }
    const send = (bytes: Buffer, encoding?: string) => {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(e.status, { ...head, ...(encoding ? { 'content-encoding': encoding } : {}), 'content-length': String(bytes.length) });
      res.end(bytes);
    };
    if (!compressible(e, req)) return send(body);
    gzip(body, { level: GZIP_LEVEL }).then((z) => send(z, 'gzip'), () => send(body));
  };

  const pageOf = (req: IncomingMessage, path: string): PageRequest | null => {
    const policy = req.method === 'GET' || req.method === 'HEAD' ? pagePolicy(path) : null;
    if (!policy) return null;
    const url = canonicalPageUrl(req.url ?? '/') ?? req.url ?? '/';
    return { policy, url, key: [url, ...KEY_HEADERS.map((h) => String(req.headers[h] ?? ''))].join('\n') };
  };
  const serveKept = (req: IncomingMessage, res: ServerResponse, page: PageRequest) => {
    const kept = entries.get(page.key);
    if (!kept || kept.expires <= now()) return false;
    stats.hits++;
    write(req, res, kept, page.policy, 'hit');
    return true;
  };

  const join = (req: IncomingMessage, res: ServerResponse, page: PageRequest) => {
    const inProgress = rendering.get(page.key);
    if (!inProgress) return null;
    return inProgress.then((e) => {
      if (!e) return false;
      stats.joined++;
      write(req, res, e, page.policy, 'joined');
      return true;
    });
  };

  return {
    stats,
    pageOf,
    serveKept,
    join,
    async handle(req, res, page, render) {
      if (!page) return render();
      if (serveKept(req, res, page)) return;
      const joined = join(req, res, page);
      if (joined && (await joined)) return;
      const { key, policy } = page;
      if (rendering.has(key)) return render(); // a shared render failed: this one is not kept either
      stats.misses++;
      // HEAD answers have no body to keep: they are served, and only GETs fill the cache.
      if (req.method === 'HEAD') return render();
      // What is kept is the render of the canonical URL, uncompressed (each answer made from it is
      // compressed with its own nonce in it).
      req.url = page.url;
      req.headers['accept-encoding'] = 'identity';
      const captured = capture(res, policy, maxEntryBytes);
      const done = captured.then((e) => (e ? { ...e, storedAt: now(), expires: now() + policy.ttlMs } : null));
      rendering.set(key, done);
      void done.then((e) => {
        rendering.delete(key);
        if (e) keep(key, e);
      });
      return render();
    },
  };
}

/**
 * Passes the answer through to the client while copying it; resolves to the copy when it is a whole,
 * shareable page (200, no cookie, not too large), else null. Next's own no-store Cache-Control is
 * replaced by the policy's as the headers go out.
 */
function capture(res: ServerResponse, policy: PagePolicy, maxEntryBytes: number): Promise<Omit<Entry, 'storedAt' | 'expires'> | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    let headers: OutgoingHttpHeaders = {};
    const take = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || tooLarge) return;
      const b = Buffer.isBuffer(chunk) ? chunk : typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
      size += b.length;
      if (size > maxEntryBytes) {
        tooLarge = true;
        chunks.length = 0;
      } else chunks.push(Buffer.from(b));
    };
    const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => ServerResponse;
    res.writeHead = ((status: number, ...rest: unknown[]) => {
      // writeHead(status, [reason], [headers]): headers given here win over setHeader's, so set ours in both.
      const given = rest.find((r) => r && typeof r === 'object') as OutgoingHttpHeaders | undefined;
      if (given) for (const k of Object.keys(given)) if (k.toLowerCase() === 'cache-control') delete given[k];
      res.setHeader('cache-control', policy.cacheControl);
      res.setHeader('x-atlas-cache', 'miss');
      headers = { ...res.getHeaders(), ...(given ?? {}) };
      return writeHead(status, ...rest);
    }) as ServerResponse['writeHead'];
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      take(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      take(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as ServerResponse['end'];
    res.once('finish', () => {
      const shareable = res.statusCode === 200 && !tooLarge && !('set-cookie' in headers) && !res.getHeader('set-cookie');
      if (!shareable) return resolve(null);
      const kept: OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(headers)) if (!HOP_HEADERS.has(k.toLowerCase()) && v !== undefined) kept[k.toLowerCase()] = v;
      // A render still compressed (the app ignored the identity it was asked for) cannot take a new nonce.
      if (kept['content-encoding'] && kept['content-encoding'] !== 'identity') return resolve(null);
      const body = Buffer.concat(chunks);
      const nonce = nonceOf(kept['content-security-policy']);
      resolve({ status: 200, headers: kept, body, nonce, nonceAt: nonce ? positions(body, nonce) : [] });
    });
    onResponseClose(res, () => resolve(null)); // after finish this does nothing; before it the answer was cut
  });
}

/** The nonce of a page policy (`'nonce-…'`), if it has one. */
function nonceOf(policy: OutgoingHttpHeaders[string]): string | null {
  return /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(String(policy ?? ''))?.[1] ?? null;
}

/** Every offset of `needle` in `body`. */
function positions(body: Buffer, needle: string): number[] {
  const at: number[] = [];
  for (let i = body.indexOf(needle); i !== -1; i = body.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

/** A kept render's headers and body with a new nonce in place of its own: in the policy and at every place the body has it. */
export function withFreshNonce(e: Pick<Entry, 'headers' | 'body' | 'nonce' | 'nonceAt'>): { headers: OutgoingHttpHeaders; body: Buffer } {
  if (!e.nonce) return { headers: e.headers, body: e.body };
  const nonce = newNonce();
  const fresh = Buffer.from(nonce, 'latin1');
  const parts: Buffer[] = [];
  let from = 0;
  for (const at of e.nonceAt) {
    parts.push(e.body.subarray(from, at), fresh);
    from = at + e.nonce.length;
  }
  parts.push(e.body.subarray(from));
  const policy = String(e.headers['content-security-policy']).replaceAll(e.nonce, nonce);
  return { headers: { ...e.headers, 'content-security-policy': policy }, body: Buffer.concat(parts) };
}

/** Whether an answer made from `e` is gzipped for this client. */
function compressible(e: Pick<Entry, 'headers' | 'body'>, req: IncomingMessage): boolean {
  const type = String(e.headers['content-type'] ?? '');
  return acceptsGzip(String(req.headers['accept-encoding'] ?? '')) && e.body.length >= COMPRESS_MIN_BYTES && /^(text\/|application\/(json|javascript))/.test(type);
}

/** `gzip` (or `*`) listed in Accept-Encoding with a weight above 0. */
export function acceptsGzip(header: string): boolean {
  return header.split(',').some((part) => {
    const [name, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return (name === 'gzip' || name === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}
