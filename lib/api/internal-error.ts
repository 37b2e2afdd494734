// An unexpected failure inside a route: the details (message, stack, database or TVM text) go to the
// log under a short reference, and the client gets only that reference, never internals.
import { randomBytes } from 'node:crypto';
import { log } from '../log';

/** Logs `err` and returns the reference to give the client ("internal server error (ref 3f9a0c1e)"). */
export function logInternalError(api: 'v2' | 'v3', err: unknown): string {
  const ref = randomBytes(4).toString('hex');
  log.error({ component: 'api', api, ref, err }, 'internal error');
  return ref;
}
