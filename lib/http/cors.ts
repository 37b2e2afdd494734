// Cross-origin access to /api/v2 and /api/v3 (CORS_ORIGINS, default every origin): browsers running
// TonClient, tonweb or a TonConnect dApp call Atlas directly, as they call toncenter. Preflights allow the
// methods and headers toncenter clients send; responses expose the headers a client may read (rate-limit
// answers' Retry-After included). The route wrappers that apply them to the API routes: lib/api/cors.ts.
import type { Config } from '../config';

/** Request headers the APIs read (api-v2.md §1.9, api-v3.md §1.1). */
const ALLOWED_HEADERS = ['Content-Type', 'X-API-Key', 'X-Timeout', 'X-No-Address-Book', 'X-No-Metadata', 'X-Debug-Request', 'X-Actions-Version'];
const ALLOWED_METHODS = 'GET, POST, OPTIONS';
const EXPOSED_HEADERS = 'X-API-Version, Server-Timing, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-Atlas-Verified';
/** Browsers cap it lower (Chromium: 2 h); a day asks for the most. */
const PREFLIGHT_MAX_AGE_S = 86_400;

/** The Access-Control-Allow-Origin value for a request's Origin, or undefined when that origin is not allowed. */
export function allowedOrigin(origins: Config['corsOrigins'], origin: string | null): string | undefined {
  if (origins === '*') return '*';
  return origin !== null && origins.includes(origin) ? origin : undefined;
}

export function applyCors(headers: Headers, origins: Config['corsOrigins'], origin: string | null): void {
  const allow = allowedOrigin(origins, origin);
  // With a list, the answer depends on Origin: caches must keep one copy per origin.
  if (origins !== '*') headers.append('Vary', 'Origin');
  if (!allow) return;
  headers.set('Access-Control-Allow-Origin', allow);
  headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
}

/**
 * A preflight's answer headers: the methods, the headers asked for and the origin's CORS headers.
 * Whatever headers a client asks for are fine: the APIs use no cookies or ambient credentials, so an
 * extra header (a client library's own X-Requested-With, say) grants nothing; unasked, the known list.
 */
export function preflightHeaders(origins: Config['corsOrigins'], origin: string | null, requestedHeaders: string | null): Headers {
  const headers = new Headers({ 'Access-Control-Allow-Methods': ALLOWED_METHODS, 'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S) });
  headers.set('Access-Control-Allow-Headers', requestedHeaders?.trim() || ALLOWED_HEADERS.join(', '));
  applyCors(headers, origins, origin);
  if (origins !== '*') headers.append('Vary', 'Access-Control-Request-Headers');
  return headers;
}
