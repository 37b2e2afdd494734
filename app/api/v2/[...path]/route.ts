// /api/v2/<method>: every v2 method as GET (query string) and POST (JSON body); any other path is 404
// in the v2 envelope.
import { v2RestRoutes } from '@/lib/api/v2/http';
import { services } from '@/lib/runtime';

export const dynamic = 'force-dynamic';

const routes = v2RestRoutes(services);
export const GET = routes.GET;
export const POST = routes.POST;
export const OPTIONS = routes.OPTIONS;
export const PUT = routes.PUT;
export const PATCH = routes.PATCH;
export const DELETE = routes.DELETE;
