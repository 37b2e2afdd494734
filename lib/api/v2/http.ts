// HTTP glue for the v2 routes: REST per method and JSON-RPC, with request logging and envelopes. The
// app's route files build these handlers with the process's services; tests build them with their own.
import { withAccessHeaders } from '../../auth/access';
import { probeLiteServers, type LiteServerStatus } from '../../lite';
import { V2_API_VERSION } from '../../version';
import { corsPreflight, withCors } from '../cors';
import { docPage, redirectToDocs, wantsHtml } from '../doc-pages';
import { runMarked, withProofHeader } from '../proof-mark';
import { apiRoute } from '../route';
import type { ServicesSource, V2Services } from '../services';
import { v2Context } from './context';
import { bodyParams, callMethod, findMethod, queryParams } from './dispatch';
import { v2Error, v2Failure, v2Internal, v2Result } from './envelope';
import { V2Error, invalidRequest } from './errors';

type RestContext = { params: Promise<{ path: string[] }> };

const notAllowed = apiRoute(v2Internal, (req) => v2Error(405, `method ${req.method} is not supported`));

function restHandler(verb: 'get' | 'post', services: ServicesSource<V2Services>) {
  return apiRoute<RestContext>(v2Internal, async (req, { params }) => {
    const startedAt = performance.now();
    const { path } = await params;
    try {
      if (path.length !== 1) throw new V2Error(404, 'Not Found');
      const m = findMethod(path[0]!, verb);
      const input = verb === 'get' ? queryParams(m, new URL(req.url).searchParams) : await bodyParams(req, 'post');
      const access = await (await services()).access.check(req, 'v2', (input as { api_key?: unknown } | null)?.api_key);
      if (!access.allowed) return withAccessHeaders(v2Error(access.status, access.message, startedAt), access);
      const { value, verified } = await runMarked(m.liteOnly, () => callMethod(m, input, verb, v2Context(startedAt, services)));
      return withAccessHeaders(withProofHeader(v2Result(value, startedAt), verified), access);
    } catch (err) {
      return v2Failure(err, startedAt);
    }
  });
}

/** /api/v2/<method>: every method as GET (query string) and POST (JSON body), callable from any allowed origin. */
export function v2RestRoutes(services: ServicesSource<V2Services>) {
  const cors = <C>(h: (req: Request, ctx: C) => Promise<Response>) => withCors(services, h);
  return {
    GET: cors(restHandler('get', services)),
    POST: cors(restHandler('post', services)),
    OPTIONS: corsPreflight(services),
    PUT: cors(notAllowed),
    PATCH: cors(notAllowed),
    DELETE: cors(notAllowed),
  };
}

/** /api/v2/jsonRPC: `{jsonrpc, id, method, params}` in, the REST envelope plus `jsonrpc` and `id` out. */
export function v2JsonRpcRoutes(services: ServicesSource<V2Services>) {
  const POST = apiRoute(v2Internal, async (req) => {
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
      // The key may come in the URL, the envelope or the method's params.
      const access = await (await services()).access.check(req, 'v2', (body as { api_key?: unknown }).api_key ?? (input as { api_key?: unknown }).api_key);
      if (!access.allowed) return withAccessHeaders(v2Error(access.status, access.message, startedAt, { id }), access);
      const { value, verified } = await runMarked(m.liteOnly, () => callMethod(m, input, 'rpc', v2Context(startedAt, services)));
      return withAccessHeaders(withProofHeader(v2Result(value, startedAt, { id }), verified), access);
    } catch (err) {
      return v2Failure(err, startedAt, { id });
    }
  });
  const cors = <C>(h: (req: Request, ctx: C) => Promise<Response>) => withCors(services, h);
  return { POST: cors(POST), OPTIONS: corsPreflight(services), GET: cors(notAllowed), PUT: cors(notAllowed), PATCH: cors(notAllowed), DELETE: cors(notAllowed) };
}

/**
 * One lite server as the v2 root shows it. Named by its index in the global config, not its address: v2
 * is a public API, and a custom config may list private nodes (/api/health gives the address).
 */
function liteServerJson(s: LiteServerStatus) {
  return {
    index: s.index,
    state: s.state,
    answering: s.answering,
    latency_ms: s.latencyMs,
    last_seqno: s.lastSeqno,
    last_seqno_at: s.lastSeqnoAt,
    last_ok_at: s.lastSuccessAt,
    last_error: s.lastFailure ?? s.lastError,
    last_error_at: s.lastFailureAt,
  };
}

/**
 * GET /api/v2/: which implementation answers, where its description lives, and each lite server of the
 * pool (asked for its head first, at most once a second): up or not, answering, latency, last seqno,
 * last error. On the devnet's in-process engine there are none to list.
 */
export function v2RootRoutes(services: ServicesSource<V2Services>) {
  const GET = apiRoute(v2Internal, async (req: Request) => {
    const startedAt = performance.now();
    // A browser gets the interactive reference, as toncenter serves its documentation at /api/v2/.
    if (wantsHtml(req)) return redirectToDocs(req, 'v2');
    try {
      const { config, lite } = await services();
      const servers = await probeLiteServers(lite);
      const result = {
        name: 'Atlas toncenter API v2',
        version: V2_API_VERSION,
        openapi: '/api/v2/openapi.json',
        docs: docPage('v2'),
        json_rpc: '/api/v2/jsonRPC',
        network: config.network,
        ...(servers && { lite_servers: servers.map(liteServerJson) }),
      };
      const res = v2Result(result, startedAt);
      res.headers.set('Vary', 'Accept');
      return res;
    } catch (err) {
      return v2Failure(err, startedAt);
    }
  });
  const cors = <C>(h: (req: Request, ctx: C) => Promise<Response>) => withCors(services, h);
  return { GET: cors(GET), OPTIONS: corsPreflight(services) };
}
