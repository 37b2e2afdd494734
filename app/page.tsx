import { HydrationBoundary } from '@tanstack/react-query';
import { HomeView } from '@/components/views/HomeView';
import { HOME_BLOCKS, HOME_TXS, lastMinuteBlocks } from '@/lib/client/filters';
import { dehydrated, serverQueryClient, tryPrefetch } from '@/lib/client/server';

export const dynamic = 'force-dynamic';

export default async function HomePage() {
  const qc = serverQueryClient();
  const [info] = await Promise.all([
    tryPrefetch(qc, 'masterchainInfo', {}),
    tryPrefetch(qc, 'health', {}),
    tryPrefetch(qc, 'blocks', HOME_BLOCKS),
    tryPrefetch(qc, 'transactions', HOME_TXS),
  ]);
  if (info) {
    await Promise.all([
      tryPrefetch(qc, 'masterchainBlockShardState', { seqno: info.last.seqno }),
      tryPrefetch(qc, 'blocks', lastMinuteBlocks(info.last.gen_utime)),
    ]);
  }
  return (
    <div className="space-y-6">
      <section className="rounded-2xl bg-gradient-to-br from-brand-600 to-brand-700 px-6 py-6 text-white shadow-sm sm:px-8">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Atlas</h1>
        <p className="mt-1 max-w-2xl text-sm text-white/90 sm:text-base">
          An open explorer for The Open Network, with toncenter-compatible APIs you can host yourself.
        </p>
      </section>
      <HydrationBoundary state={dehydrated(qc)}>
        <HomeView />
      </HydrationBoundary>
    </div>
  );
}
