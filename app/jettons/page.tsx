import { HydrationBoundary } from '@tanstack/react-query';
import { PageTitle } from '@/components/ui/Card';
import { JettonsView } from '@/components/views/JettonsView';
import { jettonsParams, pageNumber } from '@/lib/client/filters';
import { dehydrated, serverQueryClient, tryPrefetch } from '@/lib/client/server';
import type { PageQuery } from '@/lib/http/page-query';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Jettons' };

export default async function JettonsPage({ searchParams }: { searchParams: Promise<PageQuery<'/jettons'>> }) {
  const page = pageNumber((await searchParams).page);
  const qc = serverQueryClient();
  await tryPrefetch(qc, 'jettonMasters', jettonsParams(page));
  return (
    <div className="space-y-4">
      <PageTitle sub="Fungible tokens (TEP-74) the index has found, with their supply">Jettons</PageTitle>
      <HydrationBoundary state={dehydrated(qc)}>
        <JettonsView page={page} />
      </HydrationBoundary>
    </div>
  );
}
