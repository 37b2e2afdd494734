// /api/v2/jsonRPC: every v2 method through one JSON-RPC endpoint (POST only).
import { v2JsonRpcRoutes } from '@/lib/api/v2/http';
import { services } from '@/lib/runtime';

export const dynamic = 'force-dynamic';

const routes = v2JsonRpcRoutes(services);
export const POST = routes.POST;
export const OPTIONS = routes.OPTIONS;
export const GET = routes.GET;
export const PUT = routes.PUT;
export const PATCH = routes.PATCH;
export const DELETE = routes.DELETE;
