import { HydrationBoundary } from '@tanstack/react-query';
import { BlocksView } from '@/components/views/BlocksView';
import { mcBlocksParams, shardBlocksParams, visibleBlocks } from '@/lib/client/filters';
import { dehydrated, serverQueryClient, tryPrefetch } from '@/lib/client/server';
import type { PageQuery } from '@/lib/http/page-query';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Blocks' };

export default async function BlocksPage({ searchParams }: { searchParams: Promise<PageQuery<'/blocks'>> }) {
  const { cursor } = await searchParams;
  const qc = serverQueryClient();
  const mc = await tryPrefetch(qc, 'blocks', mcBlocksParams(cursor));
  const shardParams = shardBlocksParams(visibleBlocks(mc?.blocks ?? []));
  if (shardParams) await tryPrefetch(qc, 'blocks', shardParams);
  return (
    <HydrationBoundary state={dehydrated(qc)}>
      <BlocksView cursor={cursor} />
    </HydrationBoundary>
  );
}
