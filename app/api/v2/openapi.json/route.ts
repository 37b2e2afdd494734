import { v2OpenApi } from '@/lib/api/v2/openapi';
import { V2_API_VERSION } from '@/lib/version';

export function GET() {
  return Response.json(v2OpenApi(), { headers: { 'X-API-Version': V2_API_VERSION } });
}
