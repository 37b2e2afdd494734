import { HydrationBoundary } from '@tanstack/react-query';
import { PageTitle } from '@/components/ui/Card';
import { TxSection } from '@/components/views/TxSection';
import { txPageParams } from '@/lib/client/cursor';
import { dehydrated, serverQueryClient, tryPrefetch } from '@/lib/client/server';
import type { PageQuery } from '@/lib/http/page-query';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Transactions' };

export default async function TransactionsPage({ searchParams }: { searchParams: Promise<PageQuery<'/transactions'>> }) {
  const { cursor } = await searchParams;
  const qc = serverQueryClient();
  await tryPrefetch(qc, 'transactions', txPageParams({}, cursor));
  return (
    <div className="space-y-4">
      <PageTitle sub="Every indexed transaction, newest first">Transactions</PageTitle>
      <HydrationBoundary state={dehydrated(qc)}>
        <TxSection title="Latest transactions" filter={{}} cursor={cursor} base="/transactions" />
      </HydrationBoundary>
    </div>
  );
}
