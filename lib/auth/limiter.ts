// Request budgets: fixed one-second windows, one counter per bucket (a key's id, or an anonymous client's
// IP) and window. A counter is incremented atomically and the request allowed while it is within the
// limit, so concurrent requests never overshoot: in memory for one process, in Redis (one Lua script,
// INCR and expiry together) when several Atlas processes must share one budget.
import { Redis } from 'ioredis';
import type { Logger } from '../log';

export const WINDOW_MS = 1000;

export interface Take {
  allowed: boolean;
  /** Requests left in this window after this one. */
  remaining: number;
  /** Milliseconds until the window ends (when a refused request may be retried). */
  resetMs: number;
}

export interface RateLimiter {
  /** Spends one request of `bucket`'s budget of `limit` per window. */
  take(bucket: string, limit: number): Promise<Take>;
  close(): Promise<void>;
}

function outcome(count: number, limit: number, now: number): Take {
  return { allowed: count <= limit, remaining: Math.max(0, limit - count), resetMs: WINDOW_MS - (now % WINDOW_MS) };
}

/** Budgets of this process only. */
export function memoryLimiter(): RateLimiter {
  let window = -1;
  let counts = new Map<string, number>();
  return {
    async take(bucket, limit) {
      const now = Date.now();
      const w = Math.floor(now / WINDOW_MS);
      // Only the current window is ever read: starting a new one forgets every old counter at once.
      if (w !== window) {
        window = w;
        counts = new Map();
      }
      const count = (counts.get(bucket) ?? 0) + 1;
      counts.set(bucket, count);
      return outcome(count, limit, now);
    },
    async close() {},
  };
}

// KEYS[1] the window's counter; ARGV[1] its lifetime in ms (two windows: clocks of processes differ a little).
const INCR_SCRIPT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/**
 * Budgets shared by every process using the same Redis (`prefix` separates deployments). When Redis does
 * not answer within a short timeout the request is counted in this process's memory instead (a warning
 * is logged once per outage): limits then hold per process, and no request fails because Redis is down.
 */
export function redisLimiter(url: string, opts: { prefix?: string; log: Logger; timeoutMs?: number }): RateLimiter {
  const prefix = opts.prefix ?? 'atlas:rl:';
  const redis = new Redis(url, {
    // Fail fast instead of queueing requests behind a reconnect; the memory fallback answers meanwhile.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: opts.timeoutMs ?? 500,
    lazyConnect: false,
  });
  redis.defineCommand('atlasTake', { numberOfKeys: 1, lua: INCR_SCRIPT });
  redis.on('error', () => {}); // reported below, once per outage
  const fallback = memoryLimiter();
  let down = false;
  return {
    async take(bucket, limit) {
      const now = Date.now();
      const w = Math.floor(now / WINDOW_MS);
      try {
        const count = Number(await (redis as unknown as { atlasTake(k: string, ttl: number): Promise<number> }).atlasTake(`${prefix}${bucket}:${w}`, 2 * WINDOW_MS));
        if (down) opts.log.info({ component: 'ratelimit' }, 'Redis is back: rate limits are shared again');
        down = false;
        return outcome(count, limit, now);
      } catch (err) {
        if (!down) opts.log.warn({ component: 'ratelimit', err: (err as Error).message }, 'Redis unavailable: rate limits count per process until it is back');
        down = true;
        return fallback.take(bucket, limit);
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
