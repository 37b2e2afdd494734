// /api/v2/<method>, /api/v2/jsonRPC and /api/v3/<path> routed to their handlers as the app's route files
// do (app/api/v2/[...path], app/api/v2/jsonRPC, app/api/v3/[...path]), for callers in the same process:
// the explorer's server-side reads (lib/client/server.ts) and the tests' API (lib/testing/api.ts).
import { v2JsonRpcRoutes, v2RestRoutes, v2RootRoutes } from './v2/http';
import { v3Routes } from './v3/http';
import type { ServicesSource, V2Services, V3Services } from './services';

type Handler = (req: Request, ctx: { params: Promise<{ path: string[] }> }) => Promise<Response>;
type Routes = Record<string, Handler | undefined>;

const API_PATH = /^\/api\/(v2|v3)\/(.+)$/;
const V2_ROOT = /^\/api\/v2\/?$/;

/** True for a path this dispatcher answers (anything else, e.g. /api/health, is not its). */
export const isDispatchedPath = (pathname: string) => API_PATH.test(pathname) || V2_ROOT.test(pathname);

export function apiDispatcher(v2: ServicesSource<V2Services>, v3: ServicesSource<V3Services>): (req: Request) => Promise<Response> {
  const rest = v2RestRoutes(v2) as Routes;
  const rpc = v2JsonRpcRoutes(v2) as Routes;
  const index = v3Routes(v3) as Routes;
  const root = v2RootRoutes(v2) as Routes;
  return async (req) => {
    const pathname = new URL(req.url).pathname;
    if (V2_ROOT.test(pathname)) {
      const handler = root[req.method];
      return handler ? handler(req, { params: Promise.resolve({ path: [] }) }) : Response.json({ error: `method ${req.method} has no handler here` }, { status: 405 });
    }
    const m = API_PATH.exec(pathname);
    if (!m) return Response.json({ error: 'not an API route' }, { status: 404 });
    const path = m[2]!.split('/').map(decodeURIComponent);
    const routes = m[1] === 'v3' ? index : path.length === 1 && path[0] === 'jsonRPC' ? rpc : rest;
    const handler = routes[req.method];
    if (!handler) return Response.json({ error: `method ${req.method} has no handler here` }, { status: 405 });
    return handler(req, { params: Promise.resolve({ path }) });
  };
}
