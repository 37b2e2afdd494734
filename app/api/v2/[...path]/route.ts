// Any /api/v2 path no real route claims: toncenter's 404 envelope, for every method.
import { v2Error, v2Internal } from '@/lib/api/v2/envelope';
import { apiRoute } from '@/lib/api/route';

const notFound = apiRoute(v2Internal, () => v2Error(404, 'Not Found'));
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
