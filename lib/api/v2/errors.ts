// Every v2 failure is a V2Error: its code is both the envelope's `code` and the HTTP status.
import { ChainError, type ChainErrorKind } from '../../chain/errors';
import { describeServerOutcomes, isHistoryGone, LiteServerError, LiteTimeoutError, LiteVerificationError, normalizeLiteError } from '../../lite/errors';
import { TvmRefused, type TvmRefusalKind } from '../../tvm/pool';

export class V2Error extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** Seconds to wait before retrying, sent as Retry-After (503s that pass). */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/** 422: the request itself is wrong (missing or malformed parameter, rule violated). */
export const invalidRequest = (message: string) => new V2Error(422, message);

/**
 * The status and message of a lite-client failure, as v2 answers it (and v3 forwards it): no server in
 * time is 504 `LITE_SERVER_NETWORK timeout` with each server of the pool and why it gave no answer;
 * history the lite servers pruned and the index does not hold (the history methods asked it first) is
 * 542, toncenter's "no suitable liteserver", keeping the node's words; an answer whose proofs did not check
 * (LITE_VERIFY=on) is 502 `LITE_SERVER_PROOF: <what failed>`; any other liteServer.error is 500 with its
 * message. Undefined for anything else.
 */
export function liteFailure(err: unknown): { code: number; message: string } | undefined {
  const lite = normalizeLiteError(err, 0);
  if (lite instanceof LiteTimeoutError) {
    const servers = describeServerOutcomes(lite);
    return { code: 504, message: `LITE_SERVER_NETWORK timeout${servers ? ` (${servers})` : ''}` };
  }
  if (isHistoryGone(lite)) {
    return { code: 542, message: `LITE_SERVER_UNKNOWN: ${(lite as Error).message}: the liteservers no longer keep this block, transaction or state, and the index does not hold it` };
  }
  if (lite instanceof LiteVerificationError) return { code: 502, message: `LITE_SERVER_PROOF: ${lite.message}` };
  if (lite instanceof LiteServerError) return { code: 500, message: `LITE_SERVER_UNKNOWN: ${lite.message}` };
  return undefined;
}

/** v2's status for each kind of chain failure (lib/chain/errors.ts). */
const CHAIN_STATUS: Record<ChainErrorKind, number> = { invalid_input: 422, not_found: 404, failed: 500 };

/** v2's status for each kind of TVM refusal (lib/tvm/pool.ts): what the contract did is 422, never a 500. */
const TVM_STATUS: Record<TvmRefusalKind, number> = { crash: 422, result: 422, deadline: 504, backoff: 429, busy: 503, closed: 503, unavailable: 503 };

/**
 * The status, message and Retry-After of a failure below the API (lib/chain, the TVM pool, the lite
 * client) as v2 answers it, and v3 forwards it; undefined for anything else.
 */
export function chainFailure(err: unknown): { code: number; message: string; retryAfterS?: number } | undefined {
  if (err instanceof ChainError) return { code: CHAIN_STATUS[err.kind], message: err.message };
  if (err instanceof TvmRefused) return { code: TVM_STATUS[err.kind], message: err.message, retryAfterS: err.retryAfterS };
  return liteFailure(err);
}
