// The API reference pages' console (/api-docs/v2, /api-docs/v3): one request to any public route as its
// OpenAPI document describes it, answered with what came back (status, time, body), never thrown.
// The subset of OpenAPI 3.1 the reference reads is typed here; Atlas's own documents are all it reads.

export interface OpenApiSchema {
  type?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  example?: unknown;
  items?: OpenApiSchema;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
}

export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: OpenApiSchema;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> };
  responses?: Record<string, { description?: string }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Partial<Record<'get' | 'post', OpenApiOperation>>>;
}

export interface ConsoleRequest {
  method: 'get' | 'post';
  path: string;
  /** Query parameters; a list repeats the key. */
  query: Record<string, string | string[]>;
  /** A POST's JSON body, as the reader typed it (sent as is). */
  body?: string;
  apiKey?: string;
}

export interface ConsoleAnswer {
  status: number;
  ms: number;
  /** The body, pretty-printed when it is JSON. */
  text: string;
  url: string;
}

/** The request's URL (relative: the console calls the server that served the page). */
export function consoleUrl(r: Pick<ConsoleRequest, 'path' | 'query'>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(r.query)) for (const one of Array.isArray(v) ? v : [v]) q.append(k, one);
  const s = q.toString();
  return s ? `${r.path}?${s}` : r.path;
}

export async function sendConsoleRequest(r: ConsoleRequest): Promise<ConsoleAnswer> {
  const url = consoleUrl(r);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (r.apiKey) headers['x-api-key'] = r.apiKey;
  if (r.method === 'post') headers['content-type'] = 'application/json';
  const t0 = performance.now();
  try {
    const res = await fetch(url, { method: r.method.toUpperCase(), headers, body: r.method === 'post' ? (r.body ?? '{}') : undefined });
    const raw = await res.text();
    return { status: res.status, ms: Math.round(performance.now() - t0), text: pretty(raw), url };
  } catch (err) {
    return { status: 0, ms: Math.round(performance.now() - t0), text: `no answer: ${err instanceof Error ? err.message : String(err)}`, url };
  }
}

function pretty(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/**
 * A starting body for a POST operation: its properties, required ones first, each with its default or an
 * empty value; an optional number without a default is left out ("" is no number).
 */
export function bodyTemplate(schema: OpenApiSchema | undefined): string {
  const required = new Set(schema?.required ?? []);
  const props = Object.entries(schema?.properties ?? {}).filter(([k, s]) => required.has(k) || s.default !== undefined || (s.type !== 'integer' && s.type !== 'number'));
  props.sort(([a], [b]) => Number(required.has(b)) - Number(required.has(a)));
  const empty = (s: OpenApiSchema): unknown => (s.default !== undefined ? s.default : s.type === 'array' ? [] : s.type === 'boolean' ? false : '');
  return JSON.stringify(Object.fromEntries(props.map(([k, s]) => [k, empty(s)])), null, 2);
}
