// GET /api/v3: which implementation answers and where its description lives; a browser is led to the
// interactive reference (toncenter serves its documentation under /api/v3/).
import { corsPreflight, withCors } from '@/lib/api/cors';
import { docPage, redirectToDocs, wantsHtml } from '@/lib/api/doc-pages';
import { V3_API_VERSION } from '@/lib/api/v3/envelope';
import { services } from '@/lib/runtime';

export const GET = withCors(services, async (req: Request) =>
  wantsHtml(req)
    ? redirectToDocs(req, 'v3')
    : Response.json(
        { name: 'Atlas toncenter Index API v3', version: V3_API_VERSION, openapi: '/api/v3/openapi.json', doc: '/api/v3/doc.json', docs: docPage('v3') },
        { headers: { 'X-API-Version': V3_API_VERSION, Vary: 'Accept' } },
      ),
);
export const OPTIONS = corsPreflight(services);
