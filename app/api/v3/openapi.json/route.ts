import { V3_API_VERSION } from '@/lib/api/v3/envelope';
import { v3OpenApi } from '@/lib/api/v3/openapi';

export function GET() {
  return Response.json(v3OpenApi(), { headers: { 'X-API-Version': V3_API_VERSION } });
}
