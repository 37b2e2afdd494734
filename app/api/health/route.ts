import { apiRoute } from '@/lib/api/route';
import { health } from '@/lib/health';

export const dynamic = 'force-dynamic';

export const GET = apiRoute(
  (err) => Response.json({ status: 'error', error: String(err) }, { status: 500 }),
  async () => {
    const h = await health();
    return Response.json(h, { status: h.status === 'ok' ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
  },
);
