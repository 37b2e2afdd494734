// /api/v2/<method>: every v2 method as GET (query string) and POST (JSON body); any other path is 404
// in the v2 envelope.
import { v2Error, v2Internal } from '@/lib/api/v2/envelope';
import { restHandler } from '@/lib/api/v2/http';
import { apiRoute } from '@/lib/api/route';

export const dynamic = 'force-dynamic';

export const GET = restHandler('get');
export const POST = restHandler('post');
const notAllowed = apiRoute(v2Internal, (req) => v2Error(405, `method ${req.method} is not supported`));
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
