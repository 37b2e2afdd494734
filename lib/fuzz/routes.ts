// The routes to fuzz, read from Atlas's own OpenAPI documents (/api/v2/openapi.json, /api/v3/openapi.json).
// Those documents are generated from the zod schemas the routes validate with (lib/api/*/openapi.ts), so
// the fuzzer follows the routes without a second description of them.

export type JsonSchema = Record<string, unknown>;
export type Api = 'v2' | 'v3';
/** How a route is called: query string, JSON body, or (v2 only) the JSON-RPC endpoint. */
export type CallMode = 'get' | 'post' | 'rpc';

export interface FuzzParam {
  name: string;
  required: boolean;
  schema: JsonSchema;
  /** `header` for v3's X-* settings, which are sent as headers. */
  in: 'query' | 'body' | 'header';
}

export interface FuzzRoute {
  api: Api;
  /** The path below /api/<api>/ (`getTransactions`, `nft/items`). */
  path: string;
  modes: CallMode[];
  params: FuzzParam[];
}

type Operation = { parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } };
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
}

function bodyParams(op: Operation): FuzzParam[] {
  const schema = op.requestBody?.content?.['application/json']?.schema ?? {};
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({ name, required: required.has(name), schema: s, in: 'body' as const }));
}

function queryParams(op: Operation): FuzzParam[] {
  return (op.parameters ?? []).map((p) => ({ name: p.name, required: p.required ?? false, schema: p.schema ?? {}, in: p.in === 'header' ? ('header' as const) : ('query' as const) }));
}

/** The routes whose class (`v2 rpc getTransactions`, `v3 get blocks`) matches, with only the matching modes. */
export function onlyRoutes(routes: FuzzRoute[], pattern: RegExp): FuzzRoute[] {
  return routes
    .map((r) => ({ ...r, modes: r.modes.filter((m) => pattern.test(`${r.api} ${m} ${r.path}`)) }))
    .filter((r) => r.modes.length > 0);
}

/** Every route of both documents, with the call modes each one answers. */
export function fuzzRoutes(docs: Record<Api, OpenApiDoc>): FuzzRoute[] {
  const routes: FuzzRoute[] = [];
  for (const [path, ops] of Object.entries(docs.v2.paths)) {
    const name = path.replace(/^\/api\/v2\//, '');
    if (name === 'jsonRPC') continue; // reached through every method's `rpc` mode
    const modes: CallMode[] = ops.get ? ['get', 'post', 'rpc'] : ['post', 'rpc'];
    // The GET parameters and the POST body describe the same schema; the body one keeps `required`.
    routes.push({ api: 'v2', path: name, modes, params: bodyParams(ops.post ?? {}) });
  }
  for (const [path, ops] of Object.entries(docs.v3.paths)) {
    const name = path.replace(/^\/api\/v3\//, '');
    if (ops.get) routes.push({ api: 'v3', path: name, modes: ['get'], params: queryParams(ops.get) });
    if (ops.post) routes.push({ api: 'v3', path: name, modes: ['post'], params: bodyParams(ops.post) });
  }
  return routes;
}
