// The explorer's own server-side reads: server components prefetch the public /api routes (handed to the
// route handlers in process, /api/health over loopback), so without an exemption every visitor's page
// render would be counted against one anonymous budget shared by all visitors, on top of the visitor's own
// browser requests. Those reads carry this process's secret token instead; it is random per process, lives
// only in memory and never leaves the server (the browser fetches without it).
import { randomBytes } from 'node:crypto';

export const INTERNAL_HEADER = 'x-atlas-internal';

// Next.js bundles route handlers and server components separately: the one token lives on globalThis.
const KEY = Symbol.for('atlas.internalToken');
const store = globalThis as Record<symbol, string | undefined>;

export function internalToken(): string {
  return (store[KEY] ??= randomBytes(32).toString('base64url'));
}

/** Whether the request is one of this process's own server-side reads. */
export function isInternal(req: Request): boolean {
  const token = req.headers.get(INTERNAL_HEADER);
  return token !== null && token === store[KEY];
}
