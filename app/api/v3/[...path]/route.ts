// Any /api/v3 path no real route claims: toncenter's bare {error} with 404, for every method.
import { v3Error, v3Internal } from '@/lib/api/v3/envelope';
import { apiRoute } from '@/lib/api/route';

const notFound = apiRoute(v3Internal, (req) => v3Error(404, `route not found: ${new URL(req.url).pathname}`));
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
