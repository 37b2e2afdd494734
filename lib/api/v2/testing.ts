// Calls the real v2 route handlers in-process, in each of the three call modes, for tests.
import * as jsonRpcRoute from '@/app/api/v2/jsonRPC/route';
import * as restRoute from '@/app/api/v2/[...path]/route';

export type Mode = 'get' | 'post' | 'rpc';
export const MODES: Mode[] = ['get', 'post', 'rpc'];

export interface V2Answer {
  status: number;
  headers: Headers;
  body: { ok: boolean; result?: unknown; error?: string; code?: number; jsonrpc?: string; id?: unknown };
}

const BASE = 'http://atlas.test/api/v2';

/** params: GET takes string values (arrays repeat the key); POST and JSON-RPC send them as JSON. */
export async function callV2(mode: Mode, method: string, params: Record<string, unknown> = {}, rawBody?: string): Promise<V2Answer> {
  let res: Response;
  if (mode === 'get') {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, String(x));
    res = await restRoute.GET(new Request(`${BASE}/${method}?${q}`), { params: Promise.resolve({ path: [method] }) });
  } else if (mode === 'post') {
    const body = rawBody ?? JSON.stringify(params);
    res = await restRoute.POST(new Request(`${BASE}/${method}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }), {
      params: Promise.resolve({ path: [method] }),
    });
  } else {
    const body = rawBody ?? JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
    res = await jsonRpcRoute.POST(new Request(`${BASE}/jsonRPC`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }), undefined);
  }
  return { status: res.status, headers: res.headers, body: await res.json() };
}
