// Rendered pages shared by every visitor. Explorer pages are not personal (the theme is applied in the
// browser), so one render of a URL serves everyone until it may have changed: pages of things that
// cannot change (a transaction, a block) for minutes, everything else — the home page, lists, accounts,
// all of which follow the chain's head — for about a second, i.e. at most one render per block. Renders
// of one URL are single-flight: fifty visitors arriving together wait for one render instead of starting
// fifty. Each render keeps its own answer whole (status, headers with its CSP nonce, body): a nonce is
// random per render and the body was fixed when it was made, so reusing the pair gives an attacker
// nothing a fresh render would not.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

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

// Request headers a page answer depends on: Next's client navigations (RSC payloads) and the encoding.
const KEY_HEADERS = ['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch', 'next-url', 'accept-encoding'];
// Headers of one connection or one moment, never replayed.
const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

interface Entry {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
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

export interface PageCache {
  /** Answers a page request from a kept render at once (cheap: the edge does it before shedding load). */
  serveKept(req: IncomingMessage, res: ServerResponse, path: string): boolean;
  /**
   * When the same URL is being rendered: waits for that render and answers with it (true), or false when
   * it could not be shared (the caller renders). Null when no render is in progress. Waiting costs no
   * work, so the edge lets it past load shedding.
   */
  join(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> | null;
  /** Answers a page request from a render (kept or in progress), else runs `render` and keeps its answer. */
  handle(req: IncomingMessage, res: ServerResponse, path: string, render: () => unknown): Promise<unknown>;
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
    res.writeHead(e.status, {
      ...e.headers,
      'cache-control': policy.cacheControl,
      age: String(Math.floor((now() - e.storedAt) / 1000)),
      'x-atlas-cache': how,
      'content-length': String(e.body.length),
    });
    res.end(req.method === 'HEAD' ? undefined : e.body);
  };

  const policyOf = (req: IncomingMessage, path: string) => (req.method === 'GET' || req.method === 'HEAD' ? pagePolicy(path) : null);
  const keyOf = (req: IncomingMessage) => [req.url ?? '/', ...KEY_HEADERS.map((h) => String(req.headers[h] ?? ''))].join('\n');
  const serveKept = (req: IncomingMessage, res: ServerResponse, path: string) => {
    const policy = policyOf(req, path);
    const kept = policy ? entries.get(keyOf(req)) : undefined;
    if (!policy || !kept || kept.expires <= now()) return false;
    stats.hits++;
    write(req, res, kept, policy, 'hit');
    return true;
  };

  const join = (req: IncomingMessage, res: ServerResponse, path: string) => {
    const policy = policyOf(req, path);
    const inProgress = policy ? rendering.get(keyOf(req)) : undefined;
    if (!policy || !inProgress) return null;
    return inProgress.then((e) => {
      if (!e) return false;
      stats.joined++;
      write(req, res, e, policy, 'joined');
      return true;
    });
  };

  return {
    stats,
    serveKept,
    join,
    async handle(req, res, path, render) {
      const policy = policyOf(req, path);
      if (!policy) return render();
      if (serveKept(req, res, path)) return;
      const joined = join(req, res, path);
      if (joined && (await joined)) return;
      const key = keyOf(req);
      if (rendering.has(key)) return render(); // a shared render failed: this one is not kept either
      stats.misses++;
      // HEAD answers have no body to keep: they are served, and only GETs fill the cache.
      if (req.method === 'HEAD') return render();
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
      resolve({ status: 200, headers: kept, body: Buffer.concat(chunks) });
    });
    res.once('close', () => resolve(null)); // after finish this does nothing; before it the answer was cut
  });
}
