// GET /api/v2/: which implementation answers, where its description lives, and each lite server's state.
import { v2RootRoutes } from '@/lib/api/v2/http';
import { services } from '@/lib/runtime';

export const dynamic = 'force-dynamic';

const routes = v2RootRoutes(services);
export const GET = routes.GET;
export const OPTIONS = routes.OPTIONS;
