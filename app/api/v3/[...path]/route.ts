// /api/v3/<route>: every v3 route (lib/api/v3/registry.ts), GET or POST. A path no route claims answers
// 404 in v3's bare {error} envelope for every method; another method on a route's path answers 405.
import { v3Routes } from '@/lib/api/v3/http';
import { services } from '@/lib/runtime';

export const dynamic = 'force-dynamic';

const routes = v3Routes(services);
export const GET = routes.GET;
export const POST = routes.POST;
export const OPTIONS = routes.OPTIONS;
export const PUT = routes.PUT;
export const PATCH = routes.PATCH;
export const DELETE = routes.DELETE;
