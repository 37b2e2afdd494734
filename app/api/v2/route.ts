// GET /api/v2/: which implementation answers and where its description lives.
import { corsPreflight, withCors } from '@/lib/api/cors';
import { services } from '@/lib/runtime';
import { V2_API_VERSION } from '@/lib/version';

export const GET = withCors(services, async () =>
  Response.json(
    { ok: true, result: { name: 'Atlas toncenter API v2', version: V2_API_VERSION, openapi: '/api/v2/openapi.json', json_rpc: '/api/v2/jsonRPC' } },
    { headers: { 'X-API-Version': V2_API_VERSION } },
  ),
);
export const OPTIONS = corsPreflight(services);
