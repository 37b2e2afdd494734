// A v3 route: its path under /api/v3, the zod schema of its query (which also documents it), the model
// of its answer (models/, one file per entity) and the handler — like ton-index-go's typed request/response models.
import type { z } from 'zod';
import type { V3Context } from './context';

export interface V3Route<Q extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> {
  /** Path below /api/v3 (`masterchainInfo`, `nft/items`). */
  path: string;
  tag: 'blockchain' | 'accounts' | 'jettons' | 'nft' | 'dns' | 'vesting' | 'multisig' | 'search';
  summary: string;
  description?: string;
  query: Q;
  /** The answer's model; one of MODELS (models/index.ts), so it is a named OpenAPI component. */
  response: R;
  /** Error answers the route gives on purpose, for the OpenAPI document. */
  errors: Partial<Record<401 | 404 | 409 | 422, string>>;
  /**
   * The answer is built from lite-client answers alone, no index rows (lib/api/proof-mark.ts): with
   * LITE_VERIFY=on and every read checked, it carries `X-Atlas-Verified: proof`.
   */
  liteOnly?: true;
  run(query: z.output<Q>, ctx: V3Context): Promise<z.output<R>>;
}

export function defineRoute<Q extends z.ZodObject, R extends z.ZodType>(route: V3Route<Q, R>): V3Route<Q, R> {
  return route;
}

/** A POST route: its JSON body validated by `body` (plain zod), answered with `response`. */
export interface V3PostRoute<B extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> {
  path: string;
  /** OpenAPI tag; default `api/v2` (the v2-style live routes). */
  tag?: V3Route['tag'] | 'emulate';
  summary: string;
  description?: string;
  body: B;
  response: R;
  errors: Partial<Record<401 | 404 | 409 | 422, string>>;
  run(body: z.output<B>, ctx: V3Context): Promise<z.output<R>>;
}

export function definePostRoute<B extends z.ZodObject, R extends z.ZodType>(route: V3PostRoute<B, R>): V3PostRoute<B, R> {
  return route;
}
