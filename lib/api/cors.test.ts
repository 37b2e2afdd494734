// CORS on the real v2 and v3 handlers: browsers on other origins may call them (preflights included),
// errors carry the headers too, and a configured origin list admits only its origins.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config';
import { testApi } from '../testing/api';

const RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const ORIGIN = 'https://dapp.example';

const preflight = (path: string, origin = ORIGIN) =>
  new Request(`http://atlas.test${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-api-key' },
  });

describe('CORS, every origin (the default)', () => {
  const api = testApi({});

  it('answers preflights for v2 REST, JSON-RPC and v3 with the methods and headers clients send', async () => {
    for (const path of ['/api/v2/runGetMethod', '/api/v2/jsonRPC', '/api/v3/runGetMethod', '/api/v3/transactions']) {
      const res = await api.fetch(preflight(path));
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
      expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    }
  });

  it('answers and errors alike carry Access-Control-Allow-Origin and expose the headers clients read', async () => {
    const ok = await api.fetch(new Request(`http://atlas.test/api/v2/packAddress?address=${RAW}`, { headers: { origin: ORIGIN } }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-expose-headers')).toContain('Retry-After');
    const bad = await api.fetch(new Request('http://atlas.test/api/v2/packAddress?address=nope', { headers: { origin: ORIGIN } }));
    expect(bad.status).toBe(422);
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
    const missing = await api.fetch(new Request('http://atlas.test/api/v3/noSuchRoute', { headers: { origin: ORIGIN } }));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('CORS_ORIGINS=a list', () => {
  const api = testApi({ config: parseConfig({ CORS_ORIGINS: `${ORIGIN}, http://localhost:5173` }) });

  it('admits the listed origins by name, varying on Origin, and leaves others without the header', async () => {
    const res = await api.fetch(new Request(`http://atlas.test/api/v2/packAddress?address=${RAW}`, { headers: { origin: 'http://localhost:5173' } }));
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('vary')).toContain('Origin');
    const other = await api.fetch(new Request(`http://atlas.test/api/v2/packAddress?address=${RAW}`, { headers: { origin: 'https://evil.example' } }));
    expect(other.status).toBe(200); // same-origin tools and curl still work; the browser withholds the answer
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await api.fetch(preflight('/api/v2/jsonRPC', 'https://evil.example'));
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses an origin list that is not origins', () => {
    expect(() => parseConfig({ CORS_ORIGINS: 'https://a.example/path' })).toThrow(/CORS_ORIGINS/);
    expect(() => parseConfig({ CORS_ORIGINS: 'not a url' })).toThrow(/CORS_ORIGINS/);
  });
});
