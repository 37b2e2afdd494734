// Served by Next under both `npm start` (the HTTP edge's stream gateway passes this one path on) and `next dev`.
import { corsPreflight, withCors } from '@/lib/api/cors';
import { streamingOpenApi } from '@/lib/stream/openapi';
import { services } from '@/lib/runtime';

export const GET = withCors(services, async () => Response.json(streamingOpenApi()));
export const OPTIONS = corsPreflight(services);
