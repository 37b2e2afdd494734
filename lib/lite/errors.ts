// Errors of the lite-client layer. The API maps LiteTimeoutError to 504 `LITE_SERVER_NETWORK timeout`
// and LiteServerError (a liteServer.error answer) to 500 with the server's message.
// Next bundles route handlers and instrumentation (where the lite client is created) separately, so one
// process may hold two copies of these classes, and a plain instanceof would not recognise an error
// thrown by the other copy. Each error therefore carries a Symbol.for brand, shared by every copy, and
// `instanceof` checks the brand (Symbol.hasInstance) instead of the prototype chain.

const TIMEOUT_BRAND = Symbol.for('atlas.lite.LiteTimeoutError');
const SERVER_BRAND = Symbol.for('atlas.lite.LiteServerError');
const VERIFY_BRAND = Symbol.for('atlas.lite.LiteVerificationError');

const branded = (v: unknown, brand: symbol): boolean => typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[brand] === true;

/** What became of a request on one lite server of a pool: its index in the config and why it gave no answer. */
export interface LiteServerOutcome {
  index: number;
  /** Words only (no address, no system error text): API answers show it. */
  reason: string;
}

/** No lite server answered in time (all down, unreachable, or too slow). */
export class LiteTimeoutError extends Error {
  static [Symbol.hasInstance](v: unknown): boolean {
    return branded(v, TIMEOUT_BRAND);
  }
  readonly [TIMEOUT_BRAND] = true;
  /** The request's time budget. */
  readonly timeoutMs: number;
  /** A pool's servers and why none answered (absent for a single engine). */
  readonly servers?: readonly LiteServerOutcome[];

  constructor(message: string, timeoutMs: number, options?: { cause?: unknown; servers?: readonly LiteServerOutcome[] }) {
    super(message, options);
    this.name = 'LiteTimeoutError';
    this.timeoutMs = timeoutMs;
    if (options?.servers) this.servers = options.servers;
  }
}

/** "liteserver #0: connection refused; #1: no answer within 500 ms" for a pool's timeout, or "". */
export function describeServerOutcomes(err: LiteTimeoutError): string {
  return (err.servers ?? []).map((s, i) => `${i === 0 ? 'liteserver ' : ''}#${s.index}: ${s.reason}`).join('; ');
}

/** A `liteServer.error code:int message:string` answer. */
export class LiteServerError extends Error {
  static [Symbol.hasInstance](v: unknown): boolean {
    return branded(v, SERVER_BRAND);
  }
  readonly [SERVER_BRAND] = true;
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.name = 'LiteServerError';
    this.code = code;
  }
}

/**
 * A lite server's answer whose proofs do not check (LITE_VERIFY=on): tampered, or from another chain.
 * Never retried as if the data were fine; the API answers 502.
 */
export class LiteVerificationError extends Error {
  static [Symbol.hasInstance](v: unknown): boolean {
    return branded(v, VERIFY_BRAND);
  }
  readonly [VERIFY_BRAND] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LiteVerificationError';
  }
}

/** liteServer.error codes (TON's common/errorcode.h). */
export const LiteErrorCodes = {
  failure: 601,
  error: 602,
  warning: 603,
  protoviolation: 621,
  notready: 651,
  timeout: 652,
} as const;

// What a node says of a block or state it has pruned: its archive's 651 "lt not in db", "seqno not in
// db", "ts not in db", "block handle not in db" (validator/db/archive-manager.cpp), 602 "state already
// gc'd" (rootdb.cpp), "block is not applied"; the devnet's "is no longer kept" (its state window).
const PRUNED = /not in db|state already gc'd|block is not applied|no longer kept/i;

/**
 * A liteserver's answer that it no longer keeps the state of the block asked for (liteServer.error 651
 * "notready" on real nodes; non-archival nodes and a devnet reopened from disk keep only recent states).
 */
export function isStateGone(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  // ton-lite-client's own engines keep only the message of a liteServer.error.
  return code === LiteErrorCodes.notready || PRUNED.test(err.message);
}

/**
 * A liteserver's answer that it has pruned the block, transaction or state asked for (a non-archival
 * node past its history). Narrower than isStateGone: a plain 651 ("ltdb: block not found", a block not
 * produced yet) is not history that is gone.
 */
export function isHistoryGone(err: unknown): boolean {
  const lite = normalizeLiteError(err, 0);
  return lite instanceof LiteServerError && PRUNED.test(lite.message);
}

/**
 * Maps what other LiteEngines throw onto our classes: ton-lite-client's engines and the devnet's
 * InProcessLiteEngine reject with `Error('Timeout')`; the devnet's own LiteServerError carries a
 * numeric `code`. Anything else is returned unchanged.
 */
export function normalizeLiteError(e: unknown, timeoutMs: number): unknown {
  if (e instanceof LiteTimeoutError || e instanceof LiteServerError || e instanceof LiteVerificationError) return e;
  if (!(e instanceof Error)) return e;
  if (e.message === 'Timeout') {
    return new LiteTimeoutError(`lite server did not answer within ${timeoutMs} ms`, timeoutMs, { cause: e });
  }
  const code = (e as { code?: unknown }).code;
  if (e.name === 'LiteServerError' && typeof code === 'number') return new LiteServerError(code, e.message);
  return e;
}
