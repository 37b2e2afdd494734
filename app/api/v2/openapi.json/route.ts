import { corsPreflight, withCors } from '@/lib/api/cors';
import { v2OpenApi } from '@/lib/api/v2/openapi';
import { services } from '@/lib/runtime';
import { V2_API_VERSION } from '@/lib/version';

export const GET = withCors(services, async () => Response.json(v2OpenApi(), { headers: { 'X-API-Version': V2_API_VERSION } }));
export const OPTIONS = corsPreflight(services);
