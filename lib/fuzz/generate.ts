// Fuzz cases: a route and call mode, then parameters that are valid, at a boundary, or invalid in one
// way (a wrong value, a missing or unknown or repeated parameter, a malformed body, a wrong content
// type, an odd HTTP method, a bad %-escape, a huge URL...). Deterministic for a given Rng.
import type { RawRequest } from './client';
import type { Corpus } from './corpus';
import type { Rng } from './rng';
import type { CallMode, FuzzParam, FuzzRoute } from './routes';
import { boundaryValue, invalidValue, isList, kindOf, pickAnchor, validValue, type Anchor, type Value } from './values';

export type Flavor = 'valid' | 'boundary' | 'invalid';

export interface FuzzCase extends RawRequest {
  /** The route class the answer is counted under: `v2 rpc getTransactions`, `v3 get blocks`. */
  route: string;
  flavor: Flavor;
  /** What was done to the request, for the report (`valid`, `boundary seqno`, `odd method TRACE`...). */
  note: string;
  /** True when the change is to the HTTP request itself (method, path, escapes, body framing) or the
   * JSON-RPC envelope, so a failure it causes is one finding whatever route it was aimed at. */
  transport: boolean;
}

export interface GenerateOptions {
  apiKey?: string;
}

/** JSON text of a value; bigints are written as plain numbers (the way big 64-bit values arrive). */
export function toJson(v: Value): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The three bytes a lone surrogate would take in UTF-8 (invalid UTF-8: what a careless client sends). */
const surrogateBytes = (c: string) => {
  const n = c.charCodeAt(0);
  return [0xe0 | (n >> 12), 0x80 | ((n >> 6) & 63), 0x80 | (n & 63)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
};

/** A query component; lone surrogates, which encodeURIComponent refuses, go out as their raw bytes. */
function encode(v: string): string {
  let out = '';
  let last = 0;
  for (const m of v.matchAll(LONE_SURROGATE)) {
    out += encodeURIComponent(v.slice(last, m.index)) + surrogateBytes(m[0]);
    last = m.index + 1;
  }
  return out + encodeURIComponent(v.slice(last));
}

const queryText = (v: Value): string => (typeof v === 'string' ? v : typeof v === 'object' && v !== null ? toJson(v) : String(v));

function queryString(params: Record<string, Value>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    const values = Array.isArray(v) && k !== 'stack' ? v : [v];
    for (const x of values) parts.push(`${encode(k)}=${encode(queryText(x))}`);
  }
  return parts.join('&');
}

const ODD_METHODS = ['PUT', 'PATCH', 'DELETE', 'TRACE', 'OPTIONS', 'HEAD', 'PROPFIND', 'FOO'];
const BAD_ESCAPES = ['%ZZ', '%', '%f', '%ff', '%00', '%E0%A4', '%C0%AF', '%2e%2e%2f', '%u0041'];
const MALFORMED_BODIES = ['', '{', '{"a":', 'null', '[]', '"x"', '1', 'NaN', '{"a":1,}', "{'a':1}", '\ufeff{}', '[['.repeat(5000), '{"a":'.repeat(2000), '\u0000'];
const CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/jsonx', ''];

type Mutation = (c: Draft, rng: Rng) => string | undefined;

/** A request being built: the route, its parameters, and the raw parts a mutation may override. */
interface Draft {
  route: FuzzRoute;
  corpus: Corpus;
  anchor: Anchor;
  mode: CallMode;
  params: Record<string, Value>;
  headers: Record<string, string>;
  method?: string;
  path?: string;
  rawQuery?: string;
  rawBody?: string;
  rpcId: Value;
  rpcExtra?: Record<string, Value>;
}

const own = (r: FuzzRoute) => r.params.filter((p) => p.in !== 'header');
const settings = new Set(['api_key', 'x_no_address_book', 'x_no_metadata', 'x_timeout', 'x_debug_request']);

function valueFor(p: FuzzParam, d: Draft, rng: Rng): Value {
  const kind = kindOf(p);
  if (!isList(p)) return validValue(kind, p, d.corpus, rng, d.anchor);
  return Array.from({ length: 1 + rng.int(3) }, () => validValue(kind, p, d.corpus, rng, d.anchor));
}

function someParam(d: Draft, rng: Rng): FuzzParam | undefined {
  const ps = own(d.route).filter((p) => !settings.has(p.name));
  return ps.length ? rng.pick(ps) : undefined;
}

// Mutations of the HTTP request or the JSON-RPC envelope rather than of a route's parameters.
const TRANSPORT = new Set(['malformed body', 'content type', 'odd method', 'bad escape', 'path spelling', 'huge url', 'huge body', 'rpc envelope']);

const MUTATIONS: Record<string, Mutation> = {
  'wrong value': (d, rng) => {
    const p = someParam(d, rng);
    if (!p) return undefined;
    d.params[p.name] = invalidValue(kindOf(p), rng);
    return p.name;
  },
  'missing required': (d, rng) => {
    const req = own(d.route).filter((p) => p.required);
    if (!req.length) return undefined;
    const p = rng.pick(req);
    delete d.params[p.name];
    return p.name;
  },
  'unknown param': (d, rng) => {
    const name = rng.pick(['zzz', 'Address', 'LIMIT', 'limit[]', '__proto__', 'constructor', '']);
    d.params[name] = rng.pick<Value>([1, 'x', {}]);
    return name;
  },
  'repeated param': (d, rng) => {
    const p = someParam(d, rng);
    if (!p) return undefined;
    const kind = kindOf(p);
    const values = [validValue(kind, p, d.corpus, rng, d.anchor), invalidValue(kind, rng)];
    if (d.mode === 'get') d.params[p.name] = values;
    else d.rawBody = `{${Object.entries(d.params).map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).concat(values.map((v) => `${JSON.stringify(p.name)}:${toJson(v)}`)).join(',')}}`;
    return p.name;
  },
  'malformed body': (d, rng) => {
    if (d.mode === 'get') return undefined;
    d.rawBody = rng.pick(MALFORMED_BODIES);
    return JSON.stringify(d.rawBody.slice(0, 12));
  },
  'content type': (d, rng) => {
    if (d.mode === 'get') return undefined;
    const t = rng.pick(CONTENT_TYPES);
    if (t) d.headers['content-type'] = t;
    else delete d.headers['content-type'];
    return t || 'none';
  },
  'odd method': (d, rng) => {
    d.method = rng.pick(ODD_METHODS);
    return d.method;
  },
  'bad escape': (d, rng) => {
    const e = rng.pick(BAD_ESCAPES);
    if (rng.chance(0.5)) d.path = `${d.route.path}${e}`;
    else d.rawQuery = `${e}=${e}&address=${e}`;
    return e;
  },
  'path spelling': (d, rng) => {
    const spellings: Record<string, string> = {
      'upper case': d.route.path.toUpperCase(),
      'trailing slash': `${d.route.path}/`,
      'extra segment': `${d.route.path}/x`,
      'dot segment': `./${d.route.path}`,
      'dot-dot segment': `../${d.route.api}/${d.route.path}`,
      'non-ASCII': `${d.route.path}\u00e9`,
      'jsonRPC/x': 'jsonRPC/x',
    };
    const name = rng.pick(Object.keys(spellings));
    d.path = spellings[name];
    return name;
  },
  'huge body': (d, rng) => {
    if (d.mode === 'get') return undefined;
    const mb = rng.pick([2, 8]);
    d.rawBody = toJson({ ...d.params, padding: 'x'.repeat(mb << 20) });
    return `${mb} MB`;
  },
  'huge url': (d, rng) => {
    d.rawQuery = `address=${'A'.repeat(rng.pick([9_000, 20_000, 100_000]))}`;
    return `${d.rawQuery.length} chars`;
  },
  'rpc envelope': (d, rng) => {
    if (d.mode !== 'rpc') return undefined;
    const what = rng.pick(['id', 'params', 'method', 'batch']);
    if (what === 'id') d.rpcId = rng.pick<Value>([2n ** 53n + 1n, 2n ** 64n, -1, {}, [], 'x'.repeat(1000), 1.5, true]);
    if (what === 'params') d.rpcExtra = { params: rng.pick<Value>([[1], 'x', 1, [{}]]) };
    if (what === 'method') d.rpcExtra = { method: rng.pick<Value>(['', 1, null, 'jsonRPC', 'constructor', '__proto__', 'toString']) };
    if (what === 'batch') d.rawBody = `[${toJson({ jsonrpc: '2.0', id: 1, method: d.route.path, params: d.params })}]`;
    return what;
  },
};

function render(d: Draft, flavor: Flavor, note: string, opts: GenerateOptions, transport = false): FuzzCase {
  const { route, mode } = d;
  const headers = { ...d.headers };
  if (opts.apiKey) headers['x-api-key'] = opts.apiKey;
  const route_ = `${route.api} ${mode} ${route.path}`;
  let target: string;
  let body: string | undefined;
  let method: string;
  if (mode === 'rpc') {
    method = 'POST';
    target = d.path === undefined ? '/api/v2/jsonRPC' : `/api/v2/${d.path}`;
    body = d.rawBody ?? toJson({ jsonrpc: '2.0', id: d.rpcId, method: route.path, params: d.params, ...d.rpcExtra });
    if (d.rawQuery) target += `?${d.rawQuery}`;
  } else {
    method = mode === 'get' ? 'GET' : 'POST';
    target = `/api/${route.api}/${d.path ?? route.path}`;
    if (mode === 'get') {
      const q = d.rawQuery ?? queryString(d.params);
      if (q) target += `?${q}`;
    } else {
      body = d.rawBody ?? toJson(d.params);
      if (d.rawQuery) target += `?${d.rawQuery}`;
    }
  }
  if (d.method) method = d.method;
  if (method === 'GET' || method === 'HEAD' || method === 'TRACE') body = undefined;
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return { method, target, headers, body, route: route_, flavor, note, transport };
}

/** One fuzz case for a route picked at random. */
export function generateCase(rng: Rng, routes: FuzzRoute[], corpus: Corpus, opts: GenerateOptions = {}): FuzzCase {
  const route = rng.pick(routes);
  const mode = rng.pick(route.modes);
  const d: Draft = { route, corpus, anchor: pickAnchor(corpus, rng), mode, params: {}, headers: mode === 'get' ? {} : { 'content-type': 'application/json' }, rpcId: rng.int(1000) };
  for (const p of route.params) {
    if (settings.has(p.name) && !rng.chance(0.05)) continue;
    if (p.in === 'header') {
      if (rng.chance(0.05)) d.headers[p.name] = String(validValue(kindOf(p), p, corpus, rng));
      continue;
    }
    if (p.required || rng.chance(0.4)) d.params[p.name] = valueFor(p, d, rng);
  }
  const roll = rng.next();
  if (roll < 0.4) return render(d, 'valid', 'valid', opts);
  if (roll < 0.7) {
    const p = someParam(d, rng);
    if (!p) return render(d, 'valid', 'valid', opts);
    const kind = kindOf(p);
    if (isList(p) && rng.chance(0.3)) {
      const n = rng.pick([1000, 1001]);
      d.params[p.name] = Array.from({ length: n }, () => validValue(kind, p, corpus, rng));
      return render(d, 'boundary', `boundary ${p.name} × ${n}`, opts);
    }
    d.params[p.name] = boundaryValue(kind, p.schema, corpus, rng);
    return render(d, 'boundary', `boundary ${p.name}`, opts);
  }
  const names = Object.keys(MUTATIONS);
  for (let tries = 0; tries < 8; tries++) {
    const name = rng.pick(names);
    const what = MUTATIONS[name]!(d, rng);
    if (what !== undefined) return render(d, 'invalid', `${name} ${what}`, opts, TRANSPORT.has(name));
  }
  return render(d, 'valid', 'valid', opts);
}
