// toncenter v2 envelopes: {ok:true, result, @extra} and {ok:false, code, error, @extra}; the HTTP status
// always equals `code`; every response carries X-API-Version. JSON-RPC answers add `jsonrpc` and `id`.
import { stringify as losslessStringify } from 'lossless-json';
import { V2_API_VERSION } from '../../version';
import { logInternalError } from '../internal-error';
import { chainFailure, V2Error } from './errors';

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
 * Last resort for anything thrown: V2Errors keep their code; chain, TVM and lite-client failures as
 * chainFailure says (lite ones: 504 `LITE_SERVER_NETWORK timeout` naming why each server gave no answer,
 * 542 for pruned history, 500 with the liteserver's message); the rest 500 with a log reference only (the details go to the log,
 * never to the client).
 */
export function v2Failure(err: unknown, startedAt = performance.now(), rpc?: RpcTag): Response {
  if (err instanceof V2Error) return v2Error(err.code, err.message, startedAt, rpc, err.retryAfterS);
  const below = chainFailure(err);
  if (below) return v2Error(below.code, below.message, startedAt, rpc, below.retryAfterS);
  return v2Error(500, `internal server error (ref ${logInternalError('v2', err)})`, startedAt, rpc);
}

export const v2Internal = (err: unknown) => v2Failure(err);
