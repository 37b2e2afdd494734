// Explorer pages at the HTTP edge, before Next sees them: a per-client rate limit like the API's
// (generous: a page load is one document, and the browser's navigations and prefetches fetch more), and a
// bound on the renders running at once. A render is React on the main thread plus the reads it makes, so
// a crowd of URLs no one asked for before (every account has a page) would otherwise take the event loop
// from everything else — the API, health, the devnet; past the bound renders wait in a short queue, and a
// request that cannot get a slot in time is told to come back (503, Retry-After) at once. Kept and
// in-progress renders (page-cache.ts) are served before any of this and cost no slot.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RateLimiter } from '../auth/limiter';
import { CLIENT_IP_HEADER, CLIENT_LOOPBACK_HEADER } from '../http/client-ip';
import type { PageLoad } from '../http/load';
import { onResponseClose } from '../http/response-close';
import { STATIC_SECURITY_HEADERS } from '../http/security-headers';

/** Renders waiting for a slot, per slot; one more is refused at once. */
const QUEUE_PER_RENDER = 8;
/** How long a render may wait for a slot before its request is refused. */
const MAX_WAIT_MS = 5000;
/** Renders one client (address) may have waiting or running at once; a browser tab needs one at a time. */
const PER_CLIENT_RENDERS = 4;

export interface PageGuardOptions {
  limiter: RateLimiter;
  /** Page requests per second per client address (RATE_LIMIT_PAGES_RPS). */
  rps: number;
  /** Clients on loopback, as the edge found them (TRUST_PROXY applied), are not counted. */
  exemptLoopback: boolean;
  /** Renders at once (PAGE_RENDERS). */
  maxRenders: number;
  maxWaitMs?: number;
}

/** What /api/health reports as `load.pages`. */
export type PageGuardStats = PageLoad;

export interface PageGuard {
  /** Spends one page request of the client's budget; false when refused (the 429 page is then sent). */
  admit(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /**
   * Runs `render` when a render slot is free (held until the answer ends). `key` names the render (the
   * page cache's key): a request whose render is already waiting in the queue waits for it and then calls
   * `again` instead, to be served from that render. Past the queue, the wait or the client's share of
   * renders (4 waiting or running): a 503 page.
   */
  render(key: string, req: IncomingMessage, res: ServerResponse, render: () => void, again: () => void): void;
  readonly stats: PageGuardStats;
}

export function createPageGuard(o: PageGuardOptions): PageGuard {
  const maxWaitMs = o.maxWaitMs ?? MAX_WAIT_MS;
  const stats: PageGuardStats = { limited: 0, rendering: 0, queued: 0, refused: 0 };
  const queue: { go: () => void; res: ServerResponse }[] = [];
  // Keys waiting in the queue, and the requests for the same key that wait on them.
  const followers = new Map<string, (() => void)[]>();
  // Renders each client has waiting or running: one client cannot take the whole queue.
  const perClient = new Map<string, number>();

  const wake = (key: string) => {
    const waiting = followers.get(key);
    followers.delete(key);
    waiting?.forEach((f) => f());
  };
  /** Counts a render against its client until `res` is over; false when the client has its share already. */
  const holdClientShare = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (o.exemptLoopback && req.headers[CLIENT_LOOPBACK_HEADER] === '1') return true;
    const client = String(req.headers[CLIENT_IP_HEADER] ?? 'unknown');
    const n = perClient.get(client) ?? 0;
    if (n >= PER_CLIENT_RENDERS) return false;
    perClient.set(client, n + 1);
    onResponseClose(res, () => {
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    });
    return true;
  };

  const start = (key: string, res: ServerResponse, render: () => void) => {
    stats.rendering++;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      stats.rendering--;
      next();
    };
    // The slot is the render's work: it ends when the app ends the answer, not when a slow client has read it.
    const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
    res.end = ((...a: unknown[]) => {
      release();
      return end(...a);
    }) as ServerResponse['end'];
    onResponseClose(res, release);
    render();
    // Those waiting on this render ask again once it has registered with the page cache (the app's
    // handler starts in a later microtask), so they join it there.
    if (followers.has(key)) setImmediate(() => wake(key));
  };
  const next = () => {
    while (stats.rendering < o.maxRenders && queue.length) {
      const w = queue.shift()!;
      stats.queued = queue.length;
      if (!w.res.destroyed) w.go();
    }
  };

  return {
    stats,
    async admit(req, res) {
      if (o.exemptLoopback && req.headers[CLIENT_LOOPBACK_HEADER] === '1') return true;
      const t = await o.limiter.take(`page:${String(req.headers[CLIENT_IP_HEADER] ?? 'unknown')}`, o.rps);
      if (t.allowed) return true;
      stats.limited++;
      const retry = String(Math.max(1, Math.ceil(t.resetMs / 1000)));
      const loopback = o.exemptLoopback ? ' Visitors on this machine are not limited.' : '';
      sendPage(res, 429, 'Too many requests', `This address asked for more than ${o.rps} pages in a second. Try again in a moment.${loopback}`, {
        'Retry-After': retry,
        'X-RateLimit-Limit': String(o.rps),
        'X-RateLimit-Remaining': '0',
      });
      return false;
    },
    render(key, req, res, render, again) {
      const waiting = followers.get(key);
      if (waiting) return void waiting.push(() => res.destroyed || again());
      if (!holdClientShare(req, res)) return refuse(res, stats);
      if (stats.rendering < o.maxRenders) return start(key, res, render);
      if (queue.length >= o.maxRenders * QUEUE_PER_RENDER) return refuse(res, stats);
      followers.set(key, []);
      const leave = () => {
        const i = queue.indexOf(entry);
        if (i === -1) return false;
        clearTimeout(timer);
        queue.splice(i, 1);
        stats.queued = queue.length;
        // Whoever waited on this render asks again (and waits in the queue itself, or is refused).
        wake(key);
        return true;
      };
      const timer = setTimeout(() => leave() && refuse(res, stats), maxWaitMs);
      const entry = {
        res,
        go: () => {
          clearTimeout(timer);
          start(key, res, render);
        },
      };
      queue.push(entry);
      stats.queued = queue.length;
      onResponseClose(res, leave);
    },
  };
}

/**
 * Whether answering this page request renders the page. Next's link prefetches (`Next-Router-Prefetch`)
 * ask only for the route's tree or the part above its first loading boundary, never for the page's data:
 * they take a few milliseconds and no render slot, so a page full of links does not queue its own
 * prefetches behind real renders. Anyone can send the header, but all it gets is that partial answer.
 */
export const rendersPage = (req: IncomingMessage): boolean => req.headers['next-router-prefetch'] === undefined;

function refuse(res: ServerResponse, stats: PageGuardStats) {
  stats.refused++;
  sendPage(res, 503, 'Busy', 'The explorer is rendering many pages right now. Try again in a moment.', { 'Retry-After': '1' });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A small page of its own for the edge's refusals: no script, no style, nothing loaded, so its policy can
 * forbid everything. A client navigation (an RSC request) that gets it loads the URL as a document and
 * shows this page.
 */
export function sendPage(res: ServerResponse, status: number, title: string, message: string, headers: Record<string, string> = {}) {
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)} · Atlas</title></head>` +
      `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/">Atlas</a></p></body></html>`,
  );
  const security = Object.fromEntries(STATIC_SECURITY_HEADERS.map(({ key, value }) => [key, value]));
  res.writeHead(status, {
    ...security,
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': String(body.length),
    ...headers,
  });
  res.end(body);
}
