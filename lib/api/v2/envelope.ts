// toncenter v2 envelopes: {ok:true, result, @extra} and {ok:false, code, error, @extra}; the HTTP status
// always equals `code`; every response carries X-API-Version. JSON-RPC answers add `jsonrpc` and `id`.
import { V2_API_VERSION } from '../../version';
import { LiteServerError, LiteTimeoutError, normalizeLiteError } from '../../lite/errors';
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

export function v2Result(result: unknown, startedAt: number, rpc?: RpcTag): Response {
  return Response.json(withRpc({ ok: true, result, '@extra': extra(startedAt) }, rpc), { headers });
}

export function v2Error(code: number, error: string, startedAt = performance.now(), rpc?: RpcTag): Response {
  return Response.json(withRpc({ ok: false, error, code, '@extra': extra(startedAt) }, rpc), { status: code, headers });
}

/**
 * Last resort for anything thrown: V2Errors keep their code; no lite server in time is 504
 * `LITE_SERVER_NETWORK timeout` (api-v2.md); a liteserver's error is 500 with its message; the rest 500
 * with a log reference only (the details go to the log, never to the client).
 */
export function v2Failure(err: unknown, startedAt = performance.now(), rpc?: RpcTag): Response {
  if (err instanceof V2Error) return v2Error(err.code, err.message, startedAt, rpc);
  const lite = normalizeLiteError(err, 0);
  if (lite instanceof LiteTimeoutError) return v2Error(504, 'LITE_SERVER_NETWORK timeout', startedAt, rpc);
  if (lite instanceof LiteServerError) return v2Error(500, `LITE_SERVER_UNKNOWN: ${lite.message}`, startedAt, rpc);
  return v2Error(500, `internal server error (ref ${logInternalError('v2', err)})`, startedAt, rpc);
}

export const v2Internal = (err: unknown) => v2Failure(err);
