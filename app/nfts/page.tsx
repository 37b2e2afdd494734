import { HydrationBoundary } from '@tanstack/react-query';
import { PageTitle } from '@/components/ui/Card';
import { NftCollectionsView } from '@/components/views/NftCollectionsView';
import { nftCollectionsParams, pageNumber } from '@/lib/client/filters';
import { dehydrated, serverQueryClient, tryPrefetch } from '@/lib/client/server';
import type { PageQuery } from '@/lib/http/page-query';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'NFTs' };

export default async function NftsPage({ searchParams }: { searchParams: Promise<PageQuery<'/nfts'>> }) {
  const page = pageNumber((await searchParams).page);
  const qc = serverQueryClient();
  await tryPrefetch(qc, 'nftCollections', nftCollectionsParams(page));
  return (
    <div className="space-y-4">
      <PageTitle sub="NFT collections (TEP-62) the index has found; .ton names are the DNS collection's items">NFTs</PageTitle>
      <HydrationBoundary state={dehydrated(qc)}>
        <NftCollectionsView page={page} />
      </HydrationBoundary>
    </div>
  );
}
