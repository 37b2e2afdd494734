// Errors the HTTP edge answers itself (body too large, URL too long, method not allowed, overload…),
// in the envelope of the API the path belongs to, so clients parse them like the route's own errors:
// /api/v2/* → {ok:false,error,code} (JSON-RPC endpoints add jsonrpc and id:null: the id is in a body
// the edge did not read), /api/v3/* → {error}, anything else → {error}. A request whose path the edge
// never saw gets {ok:false,error,code}: what a v2 client reads, and the error any other client reads.
import { v2Error } from './v2/envelope';
import { v3Error } from './v3/envelope';
import { rawPath } from '../http/request-target';
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from '../http/security-headers';

/** The API a request path belongs to, as far as its error envelope goes. */
export function apiOf(pathname: string): 'v2' | 'v2-rpc' | 'v3' | 'other' {
  if (/^\/api\/v2\/jsonRPC\/?$/i.test(pathname)) return 'v2-rpc';
  if (pathname.startsWith('/api/v2/')) return 'v2';
  if (pathname === '/api/v3' || pathname.startsWith('/api/v3/')) return 'v3';
  return 'other';
}

/** The edge's answer to a request for `target`; `undefined` when the edge never saw its request line. */
export function edgeError(target: string | undefined, status: number, error: string, headers?: Record<string, string>): Response {
  const api = target === undefined ? 'unknown' : apiOf(rawPath(target));
  const res =
    api === 'v2' || api === 'unknown'
      ? v2Error(status, error)
      : api === 'v2-rpc'
        ? v2Error(status, error, undefined, { id: null })
        : api === 'v3'
          ? v3Error(status, error)
          : Response.json({ error }, { status });
  for (const [k, v] of Object.entries(headers ?? {})) res.headers.set(k, v);
  return withSecurityHeaders(res);
}

/** The security headers next.config.ts gives every answer, for the answers the edge gives without Next. */
export function withSecurityHeaders(res: Response): Response {
  for (const { key, value } of STATIC_SECURITY_HEADERS) res.headers.set(key, value);
  res.headers.set('Content-Security-Policy', API_CONTENT_SECURITY_POLICY);
  return res;
}
