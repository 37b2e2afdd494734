// What an answer means for the run. Failures are what the hardening issue forbids: a 5xx other than the
// documented liteserver ones, and any request slower than the hang threshold. Rate limiting (429, or
// 503 with Retry-After when Atlas sheds load) is a valid answer to a flood of requests.
import type { RawAnswer } from './client';

export type Verdict = 'ok' | 'client error' | 'limited' | 'documented 5xx' | 'unexpected 5xx' | 'hang' | 'no answer';

export const FAILING: ReadonlySet<Verdict> = new Set(['unexpected 5xx', 'hang']);

/** The `error` of a v2 or v3 error envelope, if the body is one (or the start of one: bodies are kept cut). */
export function errorText(body: string): string | undefined {
  try {
    const e = (JSON.parse(body) as { error?: unknown }).error;
    return typeof e === 'string' ? e : undefined;
  } catch {
    const start = /^\s*\{.*?"error"\s*:\s*"((?:[^"\\]|\\.)*)/s.exec(body);
    if (!start) return undefined;
    try {
      return JSON.parse(`"${start[1]!.replace(/\\u[0-9a-fA-F]{0,3}$|\\$/, '')}"`) as string;
    } catch {
      return start[1];
    }
  }
}

/**
 * 5xx answers the APIs document (api-v2.md §1.3, §3.7, §4; lib/lite/errors.ts), and nothing else:
 * - 504 `LITE_SERVER_NETWORK timeout` when no lite server answers in time, and v3's 504 when a request
 *   spends its X-Timeout budget;
 * - 500 for what only the lite server can know: a block or transaction it does not have (a future
 *   seqno, hashes of no block), a query it does not serve, an external message the chain rejects
 *   (`cannot apply external message…`, unless the BoC did not parse: that is the client's mistake, 422);
 * - v2's 533 (result stack nested too deep) and 542 (unsupported stack entry type, no suitable liteserver:
 *   history the liteservers pruned and the index does not hold, lib/api/v2/errors.ts).
 * A `LITE_SERVER_UNKNOWN` that is really Atlas passing bad input on (a workchain that does not exist,
 * shard 0, a TL encoding error) is not one of them: it is an input error answered 500.
 */
const LITE_CONDITIONS = /not found|not a block of|not in db|cannot locate transaction|cannot answer|is not available|cannot apply external message/i;
const PARSE_FAILURE = /out of bounds|cannot parse|deseriali[sz]|bad magic|invalid boc/i;

export function documented5xx(status: number, error: string | undefined): boolean {
  if (error === undefined) return false;
  switch (status) {
    case 504:
      return error.startsWith('LITE_SERVER_NETWORK') || /X-Timeout/.test(error);
    case 500:
      return (/^LITE_SERVER_[A-Z_]+: /.test(error) || error.startsWith('cannot apply external message')) && LITE_CONDITIONS.test(error) && !PARSE_FAILURE.test(error);
    case 533:
      return true;
    case 542:
      return /^Unsupported stack entry type|liteserver/i.test(error);
    default:
      return false;
  }
}

export function verdict(a: RawAnswer, hangMs: number): Verdict {
  if (a.ms > hangMs || a.error === 'deadline') return 'hang';
  if (a.status === 0) return 'no answer';
  if (a.status === 429 || (a.status === 503 && a.headers['retry-after'] !== undefined)) return 'limited';
  if (a.status < 400) return 'ok';
  if (a.status < 500) return 'client error';
  return documented5xx(a.status, errorText(a.body)) ? 'documented 5xx' : 'unexpected 5xx';
}
