// GET /api/v3/index.html, toncenter's interactive documentation page: Atlas's reference page of v3.
import { redirectToDocs } from '@/lib/api/doc-pages';

export const GET = async (req: Request) => redirectToDocs(req, 'v3');
