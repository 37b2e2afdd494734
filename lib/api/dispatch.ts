// /api/v2/<method>, /api/v2/jsonRPC and /api/v3/<path> routed to their handlers as the app's route files
// do (app/api/v2/[...path], app/api/v2/jsonRPC, app/api/v3/[...path]), for callers in the same process:
// the HTTP edge (lib/server/direct-api.ts), the explorer's server-side reads (lib/client/server.ts) and
// the tests' API (lib/testing/api.ts).
import { v2JsonRpcRoutes, v2RestRoutes, v2RootRoutes } from './v2/http';
import { v3Routes } from './v3/http';
import type { ServicesSource, V2Services, V3Services } from './services';

type Handler = (req: Request, ctx: { params: Promise<{ path: string[] }> }) => Promise<Response>;
type Routes = Record<string, Handler | undefined>;
/** A request's handler with its route parameters bound. */
export type BoundHandler = (req: Request) => Promise<Response>;
/** The handler for a raw (still percent-encoded) path and a method, or undefined where no route file here exports one. */
export type RouteFinder = (rawPathname: string, method: string) => BoundHandler | undefined;

const API_PATH = /^\/api\/(v2|v3)\/(.+)$/;
const V2_ROOT = /^\/api\/v2\/?$/;
/**
 * Documents with a route file of their own (app/api/v2/openapi.json, app/api/v3/{openapi.json,doc.json,
 * index.html}): Next routes them before the catch-alls, so they are not the catch-alls' to answer here.
 */
const DOCUMENT_PATHS: ReadonlySet<string> = new Set(['/api/v2/openapi.json', '/api/v3/openapi.json', '/api/v3/doc.json', '/api/v3/index.html']);

/** True for a path this dispatcher answers (anything else, e.g. /api/health or a document, is not its). */
export const isDispatchedPath = (pathname: string) => !DOCUMENT_PATHS.has(pathname) && (API_PATH.test(pathname) || V2_ROOT.test(pathname));

/**
 * The handler a route file exports for `method` on a path, bound to the route's parameters (its segments
 * percent-decoded once, as Next decodes them), or undefined when no route file here exports one: the path
 * is not dispatched (a document, or not an API path), or the method is not a route's (Next answers those).
 */
export function apiRoutes(v2: ServicesSource<V2Services>, v3: ServicesSource<V3Services>): RouteFinder {
  const rest = v2RestRoutes(v2) as Routes;
  const rpc = v2JsonRpcRoutes(v2) as Routes;
  const index = v3Routes(v3) as Routes;
  const root = v2RootRoutes(v2) as Routes;
  const bind = (handler: Handler | undefined, path: string[]): BoundHandler | undefined => handler && ((req) => handler(req, { params: Promise.resolve({ path }) }));
  return (rawPathname, method) => {
    if (V2_ROOT.test(rawPathname)) return bind(root[method], []);
    const m = API_PATH.exec(rawPathname);
    if (!m) return undefined;
    let path: string[];
    try {
      path = m[2]!.split('/').map(decodeURIComponent);
    } catch {
      return undefined; // undecodable: the edge refuses these before routing
    }
    if (DOCUMENT_PATHS.has(`/api/${m[1]}/${path.join('/')}`)) return undefined;
    const routes = m[1] === 'v3' ? index : path.length === 1 && path[0] === 'jsonRPC' ? rpc : rest;
    return bind(routes[method], path);
  };
}

/** Routes a web Request as Next's router would, over `routeFor` (apiRoutes). */
export function apiDispatcher(routeFor: RouteFinder): BoundHandler {
  return async (req) => {
    const pathname = new URL(req.url).pathname;
    if (!isDispatchedPath(pathname)) return Response.json({ error: 'not an API route' }, { status: 404 });
    const handler = routeFor(pathname, req.method);
    if (!handler) return Response.json({ error: `method ${req.method} has no handler here` }, { status: 405 });
    return handler(req);
  };
}
