import { v2Error, v2Internal } from '@/lib/api/v2/envelope';
import { jsonRpcHandler } from '@/lib/api/v2/http';
import { apiRoute } from '@/lib/api/route';

export const dynamic = 'force-dynamic';

export const POST = jsonRpcHandler;
const notAllowed = apiRoute(v2Internal, (req) => v2Error(405, `method ${req.method} is not supported`));
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
