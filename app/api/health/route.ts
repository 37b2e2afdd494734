import { apiRoute } from '@/lib/api/route';
import { createHealth } from '@/lib/health';
import { services } from '@/lib/runtime';

export const dynamic = 'force-dynamic';

const health = createHealth(services);

export const GET = apiRoute(
  (err) => Response.json({ status: 'error', error: String(err) }, { status: 500 }),
  async () => {
    const h = await health();
    return Response.json(h, { status: h.status === 'ok' ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
  },
);
