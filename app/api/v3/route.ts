// GET /api/v3: which implementation answers and where its description lives.
import { corsPreflight, withCors } from '@/lib/api/cors';
import { V3_API_VERSION } from '@/lib/api/v3/envelope';
import { services } from '@/lib/runtime';

export const GET = withCors(services, async () =>
  Response.json({ name: 'Atlas toncenter Index API v3', version: V3_API_VERSION, openapi: '/api/v3/openapi.json' }, { headers: { 'X-API-Version': V3_API_VERSION } }),
);
export const OPTIONS = corsPreflight(services);
