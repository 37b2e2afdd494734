// toncenter v2 envelopes: {ok:true, result, @extra} and {ok:false, code, error, @extra}; the HTTP status
// always equals `code`; every response carries X-API-Version. JSON-RPC answers add `jsonrpc` and `id`.
import { stringify as losslessStringify } from 'lossless-json';
import { V2_API_VERSION } from '../../version';
import { LiteServerError, LiteTimeoutError, LiteVerificationError, normalizeLiteError } from '../../lite/errors';
import { logInternalError } from '../internal-error';
import { V2Error } from './errors';

export interface RpcTag {
  id: unknown;
}

const headers = { 'X-API-Version': V2_API_VERSION };

// @extra as the C++ service prints it: unix time, liteserver indices ("_" unknown), elapsed ms.
const extra = (startedAt: number) => `${Math.floor(Date.now() / 1000)}:_:${(performance.now() - startedAt).toFixed(3)}`;

function withRpc(body: Record<string, unknown>, rpc?: RpcTag) {
  return rpc ? { ...body, jsonrpc: '2.0', id: rpc.id ?? null } : body;
}

/**
 * The body as JSON. A JSON-RPC id may be an integer past 2^53 (it is parsed as a bigint, json-body.ts):
 * it is echoed digit for digit, which JSON.stringify cannot do.
 */
function json(body: Record<string, unknown>, init: ResponseInit): Response {
  if (typeof body.id !== 'bigint') return Response.json(body, init);
  return new Response(losslessStringify(body), { ...init, headers: { ...(init.headers as Record<string, string>), 'content-type': 'application/json' } });
}

export function v2Result(result: unknown, startedAt: number, rpc?: RpcTag): Response {
  return json(withRpc({ ok: true, result, '@extra': extra(startedAt) }, rpc), { headers });
}

export function v2Error(code: number, error: string, startedAt = performance.now(), rpc?: RpcTag, retryAfterS?: number): Response {
  const h = retryAfterS === undefined ? headers : { ...headers, 'Retry-After': String(retryAfterS) };
  return json(withRpc({ ok: false, error, code, '@extra': extra(startedAt) }, rpc), { status: code, headers: h });
}

/**
 * Last resort for anything thrown: V2Errors keep their code; no lite server in time is 504
 * `LITE_SERVER_NETWORK timeout` (api-v2.md); a liteserver's error is 500 with its message; an answer whose
 * proofs did not check (LITE_VERIFY=on) is 502 `LITE_SERVER_PROOF: <what failed>`; the rest 500
 * with a log reference only (the details go to the log, never to the client).
 */
export function v2Failure(err: unknown, startedAt = performance.now(), rpc?: RpcTag): Response {
  if (err instanceof V2Error) return v2Error(err.code, err.message, startedAt, rpc, err.retryAfterS);
  const lite = normalizeLiteError(err, 0);
  if (lite instanceof LiteTimeoutError) return v2Error(504, 'LITE_SERVER_NETWORK timeout', startedAt, rpc);
  if (lite instanceof LiteServerError) return v2Error(500, `LITE_SERVER_UNKNOWN: ${lite.message}`, startedAt, rpc);
  if (lite instanceof LiteVerificationError) return v2Error(502, `LITE_SERVER_PROOF: ${lite.message}`, startedAt, rpc);
  return v2Error(500, `internal server error (ref ${logInternalError('v2', err)})`, startedAt, rpc);
}

export const v2Internal = (err: unknown) => v2Failure(err);
