// /api/v3/<route>: every v3 route (lib/api/v3/registry.ts), GET or POST. A path no route claims answers
// 404 in v3's bare {error} envelope for every method; another method on a route's path answers 405.
import { v3Get, v3OtherMethod, v3Post } from '@/lib/api/v3/http';

export const dynamic = 'force-dynamic';

export const GET = v3Get;
export const POST = v3Post;
export { v3OtherMethod as PUT, v3OtherMethod as PATCH, v3OtherMethod as DELETE };
