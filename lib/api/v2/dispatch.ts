// The three call modes of api-v2.md §1.4 funnel into callMethod: find the method, check the verb,
// validate the parameters with the method's schema, run it.
import { z } from 'zod';
import { BodyTooLargeError, readBodyLimited } from '../../http/body';
import type { V2Context } from './context';
import { V2Error, invalidRequest } from './errors';
import { parseJsonBody } from './json-body';
import type { V2Method } from './method';
import { v2Methods } from './registry';

export type CallMode = 'get' | 'post' | 'rpc';

// Keys a gateway may put on any request; never part of a method's parameters.
const IGNORED_KEYS = new Set(['api_key']);

/**
 * The method a call names. A path that names none is 404 `Not Found`, as any unknown route; a JSON-RPC
 * call naming none is 422 `Unknown method`, as the Python service answers it (the C++ one forwards the
 * call to a route that does not exist).
 */
export function findMethod(name: string, mode: CallMode): V2Method {
  const m = v2Methods.get(name);
  if (!m) throw mode === 'rpc' ? invalidRequest('Unknown method') : new V2Error(404, 'Not Found');
  if (mode === 'get' && m.verbs === 'post') throw new V2Error(405, 'method GET is not supported');
  return m;
}

/** A GET query as method input: only the method's own keys; a repeated key is a list. */
export function queryParams(m: V2Method, query: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(m.params.shape)) {
    const values = query.getAll(key);
    if (values.length) out[key] = values.length === 1 ? values[0] : values;
  }
  return out;
}

export async function bodyParams(req: Request, kind: 'post' | 'jsonRPC'): Promise<unknown> {
  try {
    return parseJsonBody(await readBodyLimited(req), kind);
  } catch (err) {
    throw err instanceof BodyTooLargeError ? new V2Error(413, err.message) : err;
  }
}

function describeIssue(issue: z.core.$ZodIssue, input: Record<string, unknown>): string {
  const key = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
  if (issue.path.length && input[String(issue.path[0])] === undefined) return `${key} is required`;
  return key ? `${key}: ${issue.message}` : issue.message;
}

// One strict schema per method: zod compiles a schema's parser on its first use, so a fresh
// .strict() per request cost ~3 ms of every POST.
const strictSchemas = new WeakMap<V2Method, z.ZodObject>();

function strictParams(m: V2Method): z.ZodObject {
  let schema = strictSchemas.get(m);
  if (!schema) {
    schema = m.params.strict();
    strictSchemas.set(m, schema);
  }
  return schema;
}

export async function callMethod(m: V2Method, input: unknown, mode: CallMode, ctx: V2Context): Promise<unknown> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw invalidRequest('failed to parse post request: the body must be a JSON object');
  }
  const raw = Object.fromEntries(Object.entries(input).filter(([k]) => !IGNORED_KEYS.has(k)));
  // POST bodies are closed, as in the C++ service; GET ignores unknown keys (queryParams drops them).
  const schema = mode === 'get' ? m.params : strictParams(m);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw invalidRequest(`failed to validate request: ${describeIssue(parsed.error.issues[0]!, raw)}`);
  }
  return m.run(parsed.data, ctx);
}
