// Reads one resource of the registry: builds the URL (or JSON body), unwraps the v2 envelope and turns
// every failure into an ApiError carrying the HTTP status, so pages can tell "not found" from "down".
import { PROOF_HEADER, PROOF_VALUE } from '@/lib/api/proof-header';
import { resources, type Params, type Scalar, type ParamsOf, type ResourceName, type ResponseOf } from './registry';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function queryString(params: Params): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params) as [string, Scalar | Scalar[] | undefined][]) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) search.append(k, String(one));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}

export type Send = (url: string, init: RequestInit) => Promise<Response>;

// The browser fetches same-origin relative URLs. On the server, lib/client/server.ts sets the app's own
// origin, the headers that exempt its reads from rate limits (lib/auth/internal.ts) and how a request is
// sent (to the route handlers in the same process). Not part of query keys: the same resource has the
// same key everywhere.
let origin = '';
let serverHeaders: Record<string, string> = {};
let send: Send = (url, init) => fetch(url, init);
export const setOrigin = (o: string, headers: Record<string, string> = {}, via?: Send) => {
  origin = o;
  serverHeaders = headers;
  if (via) send = via;
};

export async function fetchResource<N extends ResourceName>(name: N, params: ParamsOf<N>, signal?: AbortSignal): Promise<ResponseOf<N>> {
  const r = resources[name];
  const init: RequestInit = { method: r.method, signal, cache: 'no-store', headers: { accept: 'application/json', ...serverHeaders } };
  let url = `${origin}${r.url}`;
  if (r.method === 'POST') {
    init.body = JSON.stringify(params);
    init.headers = { ...init.headers, 'content-type': 'application/json' };
  } else {
    url += queryString(params as Params);
  }
  let res: Response;
  try {
    res = await send(url, init);
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'The server cannot be reached');
  }
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  let result: unknown;
  if (r.envelope === 'v2') {
    if (!body || body.ok !== true) throw new ApiError(res.status, String(body?.error ?? res.statusText));
    result = body.result;
  } else {
    if (!res.ok && !(name === 'health' && body)) throw new ApiError(res.status, String(body?.error ?? res.statusText));
    result = body;
  }
  // Only the header says an answer was verified: never inferred from the server's settings or the data.
  if ('proof' in r && r.proof) return { result, verified: res.headers.get(PROOF_HEADER) === PROOF_VALUE } as ResponseOf<N>;
  return result as ResponseOf<N>;
}

export const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;
