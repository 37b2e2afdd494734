// Wraps every API route handler: request logging (method, path, status, duration), the client its
// emulator runs count against (the TVM pool's per-client backoff), the request's in-flight slot (taken by
// the access check, given back here once the answer is built: lib/auth/in-flight.ts), and a last-resort catch so an
// unexpected error still answers in the API version's own envelope, never an HTML 500.
import { withRequestSlots } from '../auth/in-flight';
import { clientIp } from '../http/client-ip';
import { log } from '../log';
import { withTvmClient } from '../tvm/client';

type Handler<C> = (req: Request, ctx: C) => Promise<Response> | Response;

export function apiRoute<C>(onError: (err: unknown) => Response, handler: Handler<C>): (req: Request, ctx: C) => Promise<Response> {
  return async (req, ctx) => {
    const t0 = performance.now();
    let res: Response;
    try {
      res = await withRequestSlots(async () => withTvmClient(clientIp(req), () => handler(req, ctx)));
    } catch (err) {
      log.error({ component: 'api', err }, 'unhandled error');
      res = onError(err);
    }
    const url = new URL(req.url);
    log.info(
      { component: 'api', method: req.method, path: url.pathname, status: res.status, ms: +(performance.now() - t0).toFixed(2) },
      'request',
    );
    return res;
  };
}
