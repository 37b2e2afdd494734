// GET /api/v3/doc.json: the OpenAPI document where toncenter serves it (the same as /api/v3/openapi.json).
import { corsPreflight, withCors } from '@/lib/api/cors';
import { V3_API_VERSION } from '@/lib/api/v3/envelope';
import { v3OpenApi } from '@/lib/api/v3/openapi';
import { services } from '@/lib/runtime';

export const GET = withCors(services, async () => Response.json(v3OpenApi(), { headers: { 'X-API-Version': V3_API_VERSION } }));
export const OPTIONS = corsPreflight(services);
