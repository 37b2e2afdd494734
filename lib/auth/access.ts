// Who may call the APIs, and how often: one check per request, answered before any work is done.
// A key (X-API-Key header, or the api_key parameter as toncenter accepts it) spends its own budget;
// a request without one spends its client IP's anonymous budget (RATE_LIMIT_ANON_RPS), unless the client
// is on this machine's loopback (RATE_LIMIT_EXEMPT_LOOPBACK): a local instance never throttles its owner.
// Both also hold at most MAX_IN_FLIGHT_PER_CLIENT requests in flight at once (in-flight.ts). With
// API_KEYS_REQUIRED, a request without a key is refused (401) instead, loopback or not.
import { clientIp, isLoopbackClient } from '../http/client-ip';
import { log } from '../log';
import type { PrismaClient } from '../db/generated/client';
import { isInternal } from './internal';
import { releaseLastSlot, takeSlot } from './in-flight';
import { findActiveKey, hashKey, isExpired, type ApiKeyInfo, type ApiName } from './keys';
import type { RateLimiter } from './limiter';

/** How long a key lookup is remembered: a revoked key stops working within this time. */
export const KEY_CACHE_MS = 5000;
/** Remembered lookups at most (unknown keys included, so a flood of random keys cannot reach the database). */
const KEY_CACHE_SIZE = 10_000;

export type AccessDecision =
  /** `keyId`: the API key the request spent, when it carried one (streams count connections per key). */
  | { allowed: true; headers: Record<string, string>; keyId?: string }
  | { allowed: false; status: 401 | 403 | 429 | 503; message: string; headers: Record<string, string> };

export interface Access {
  /** `bodyKey`: the api_key of a JSON body already read (v2 POST and JSON-RPC). */
  check(req: Request, api: ApiName, bodyKey?: unknown): Promise<AccessDecision>;
}

/** The key a request carries: the header first, then the query, then the body. */
export function requestKey(req: Request, bodyKey?: unknown): string | undefined {
  const key = req.headers.get('x-api-key') ?? new URL(req.url).searchParams.get('api_key') ?? (typeof bodyKey === 'string' ? bodyKey : undefined);
  return key || undefined;
}

function refused(limit: number, resetMs: number, message: string): AccessDecision {
  const headers = { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': '0', 'Retry-After': String(Math.max(1, Math.ceil(resetMs / 1000))) };
  return { allowed: false, status: 429, message, headers };
}

const KEY_REQUIRED = 'an API key is required: send it in the X-API-Key header or the api_key parameter';

/** A client past its in-flight cap: retrying once one of its answers arrived succeeds. */
function busy(cap: number, keyed: boolean, loopbackNote: string): AccessDecision {
  const message = keyed
    ? `too many requests at once: this key may have ${cap} requests in flight; wait for an answer before sending more`
    : `too many requests at once: ${cap} requests in flight per client address without an API key; wait for an answer before sending more${loopbackNote}`;
  return { allowed: false, status: 429, message, headers: { 'Retry-After': '1' } };
}

/**
 * `keyCacheMs`: how long a lookup is remembered (KEY_CACHE_MS unless given). `exemptLoopback`: requests
 * without a key from loopback clients (as lib/server/server.ts found them) are not counted.
 * `maxInFlightPerClient`: requests one key, or one address without a key, may have in flight (none: no cap).
 */
export function createAccess(deps: {
  prisma: PrismaClient;
  limiter: RateLimiter;
  anonRps: number;
  keyCacheMs?: number;
  exemptLoopback?: boolean;
  maxInFlightPerClient?: number;
  /** API_KEYS_REQUIRED: a request without a key is 401 (the explorer's own server-side reads excepted). */
  keysRequired?: boolean;
}): Access {
  const cacheMs = deps.keyCacheMs ?? KEY_CACHE_MS;
  // Said in every anonymous 429, so that whoever meets the limit on their own machine knows why.
  const loopbackNote = deps.exemptLoopback ? '; clients on this machine\'s loopback are not limited' : '';
  const cache = new Map<string, { key: ApiKeyInfo | undefined; until: number }>();

  async function lookup(key: string): Promise<ApiKeyInfo | undefined> {
    const id = Buffer.from(hashKey(key)).toString('base64');
    const hit = cache.get(id);
    if (hit && hit.until > Date.now()) return hit.key;
    const found = await findActiveKey(deps.prisma, key);
    if (cache.size >= KEY_CACHE_SIZE) cache.clear();
    cache.set(id, { key: found, until: Date.now() + cacheMs });
    return found;
  }

  return {
    async check(req, api, bodyKey) {
      if (isInternal(req)) return { allowed: true, headers: {} };
      const key = requestKey(req, bodyKey);
      let bucket: string;
      let limit: number;
      if (key) {
        let found: ApiKeyInfo | undefined;
        try {
          found = await lookup(key);
        } catch (err) {
          // The database is down or overloaded: the key cannot be judged, and guessing would let anyone in.
          log.warn({ component: 'access', err: (err as Error).message }, 'API key lookup failed');
          return { allowed: false, status: 503, message: 'API keys cannot be checked right now, retry later', headers: { 'Retry-After': '1' } };
        }
        if (!found) {
          // Guessing keys costs the address's anonymous budget: a flood of random keys cannot reach the database faster.
          const t = await deps.limiter.take(`ip:${clientIp(req)}`, deps.anonRps);
          if (!t.allowed) return refused(deps.anonRps, t.resetMs, `rate limit exceeded: ${deps.anonRps} requests per second without a valid API key${loopbackNote}`);
          return { allowed: false, status: 401, message: 'API key is unknown or revoked', headers: {} };
        }
        if (isExpired(found)) return { allowed: false, status: 401, message: 'API key expired', headers: {} };
        if (!found.apis.includes(api)) return { allowed: false, status: 403, message: `this API key may not call /api/${api}`, headers: {} };
        bucket = `key:${found.id}`;
        limit = found.rps;
      } else {
        if (deps.keysRequired) return { allowed: false, status: 401, message: KEY_REQUIRED, headers: {} };
        if (deps.exemptLoopback && isLoopbackClient(req)) return { allowed: true, headers: {} };
        bucket = `ip:${clientIp(req)}`;
        limit = deps.anonRps;
      }
      const cap = deps.maxInFlightPerClient;
      if (cap !== undefined && !takeSlot(bucket, cap)) return busy(cap, key !== undefined, loopbackNote);
      const t = await deps.limiter.take(bucket, limit);
      const headers = { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(t.remaining) };
      if (!t.allowed && cap !== undefined) releaseLastSlot();
      if (t.allowed) return { allowed: true, headers, ...(key ? { keyId: bucket.slice('key:'.length) } : {}) };
      const message = key
        ? `rate limit exceeded: this key allows ${limit} requests per second`
        : `rate limit exceeded: ${limit} requests per second without an API key (send one in X-API-Key${loopbackNote})`;
      return refused(limit, t.resetMs, message);
    },
  };
}

/** No keys checked, no limits: for test APIs that exercise routes, not access. */
export const unlimitedAccess: Access = { check: async () => ({ allowed: true, headers: {} }) };

/** The decision's headers (rate-limit figures, Retry-After) on an answer the caller built. */
export function withAccessHeaders(res: Response, decision: AccessDecision): Response {
  for (const [name, value] of Object.entries(decision.headers)) res.headers.set(name, value);
  return res;
}
