// The CORS headers of lib/http/cors.ts on the API routes' answers and preflights, with the allowed
// origins from the running services' config (CORS_ORIGINS).
import type { Config } from '../config';
import { applyCors, preflightHeaders } from '../http/cors';
import type { ServicesSource } from './services';

type Handler<C> = (req: Request, ctx: C) => Promise<Response>;

/** The handler's answers carry the CORS headers of the request's origin. */
export function withCors<C>(services: ServicesSource<{ config: Config }>, handler: Handler<C>): Handler<C> {
  return async (req, ctx) => {
    const res = await handler(req, ctx);
    // Services that failed to start have already turned the answer into an error; it goes out as it is.
    const config = await services().then((s) => s.config, () => undefined);
    if (!config) return res;
    // A fetch Response's headers may be immutable: a copy carries the CORS headers.
    const out = new Response(res.body, res);
    applyCors(out.headers, config.corsOrigins, req.headers.get('origin'));
    return out;
  };
}

/** OPTIONS: a preflight answer (204) for allowed origins; 204 without CORS headers otherwise (the browser then refuses). */
export function corsPreflight(services: ServicesSource<{ config: Config }>): (req: Request) => Promise<Response> {
  return async (req) => {
    const { config } = await services();
    const headers = preflightHeaders(config.corsOrigins, req.headers.get('origin'), req.headers.get('access-control-request-headers'));
    return new Response(null, { status: 204, headers });
  };
}
