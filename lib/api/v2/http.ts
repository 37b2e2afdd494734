// HTTP glue for the v2 routes: REST per method and JSON-RPC, with request logging and envelopes.
import { apiRoute } from '../route';
import { v2Context } from './context';
import { bodyParams, callMethod, findMethod, queryParams } from './dispatch';
import { v2Failure, v2Internal, v2Result } from './envelope';
import { V2Error, invalidRequest } from './errors';

export function restHandler(verb: 'get' | 'post') {
  return apiRoute<{ params: Promise<{ path: string[] }> }>(v2Internal, async (req, { params }) => {
    const startedAt = performance.now();
    const { path } = await params;
    try {
      if (path.length !== 1) throw new V2Error(404, 'Not Found');
      const m = findMethod(path[0]!, verb);
      const input = verb === 'get' ? queryParams(m, new URL(req.url).searchParams) : await bodyParams(req, 'post');
      return v2Result(await callMethod(m, input, verb, v2Context(startedAt)), startedAt);
    } catch (err) {
      return v2Failure(err, startedAt);
    }
  });
}

export const jsonRpcHandler = apiRoute(v2Internal, async (req) => {
  const startedAt = performance.now();
  let id: unknown = null;
  try {
    const body = await bodyParams(req, 'jsonRPC');
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('failed to parse jsonRPC request: the body must be a JSON object');
    const { method, params, id: rpcId } = body as { method?: unknown; params?: unknown; id?: unknown };
    id = rpcId ?? null;
    if (typeof method !== 'string' || !method) throw invalidRequest('failed to parse jsonRPC request: method is required');
    if (Array.isArray(params) && params.length) throw invalidRequest('params must contain an object');
    const input = params === undefined || params === null || Array.isArray(params) ? {} : params;
    const m = findMethod(method, 'rpc');
    return v2Result(await callMethod(m, input, 'rpc', v2Context(startedAt)), startedAt, { id });
  } catch (err) {
    return v2Failure(err, startedAt, { id });
  }
});
