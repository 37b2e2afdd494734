import { HydrationBoundary } from '@tanstack/react-query';
import { PageTitle } from '@/components/ui/Card';
import { TopAccountsView } from '@/components/views/TopAccountsView';
import { TOP_ACCOUNTS } from '@/lib/client/filters';
import { dehydrated, serverQueryClient, tryPrefetch } from '@/lib/client/server';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Accounts' };

export default async function AccountsPage() {
  const qc = serverQueryClient();
  const top = await tryPrefetch(qc, 'topAccountsByBalance', TOP_ACCOUNTS);
  if (top?.length) await tryPrefetch(qc, 'addressBook', { address: top.map((a) => a.account) });
  return (
    <div className="space-y-4">
      <PageTitle sub="Accounts by balance">Accounts</PageTitle>
      <HydrationBoundary state={dehydrated(qc)}>
        <TopAccountsView />
      </HydrationBoundary>
    </div>
  );
}
