// A v2 method: its name, which HTTP verbs reach it, its parameter schema and what it does.
import type { z } from 'zod';
import type { V2Context } from './context';

export interface V2Method<S extends z.ZodObject = z.ZodObject> {
  name: string;
  /** `read` methods answer GET and POST; `post` methods only POST (sending, fees, get-methods). */
  verbs: 'read' | 'post';
  summary: string;
  params: S;
  /**
   * The answer is built from lite-client answers alone (lib/api/proof-mark.ts): with LITE_VERIFY=on and
   * every read checked, it carries `X-Atlas-Verified: proof`.
   */
  liteOnly?: true;
  /** Kept for old clients only (the Python service's hidden *Simple methods): marked deprecated in the OpenAPI. */
  deprecated?: true;
  run(params: z.output<S>, ctx: V2Context): Promise<unknown>;
}

export function defineMethod<S extends z.ZodObject>(m: V2Method<S>): V2Method<S> {
  return m;
}
