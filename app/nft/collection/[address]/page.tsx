import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { NftCollectionView } from '@/components/views/NftCollectionView';
import { ApiError } from '@/lib/client/fetcher';
import { collectionItemsParams, collectionTransfersParams, pageNumber } from '@/lib/client/filters';
import { dehydrated, prefetch, serverQueryClient, tryPrefetch } from '@/lib/client/server';
import { chainTextPlain } from '@/lib/format/chain-text';
import { decodeLoosely } from '@/lib/format/uri';
import type { PageQuery } from '@/lib/http/page-query';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ address: string }>; searchParams: Promise<PageQuery<'/nft/collection/[address]'>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `NFT collection ${chainTextPlain(decodeLoosely((await params).address), 100)}` };
}

export default async function NftCollectionPage({ params, searchParams }: Props) {
  const address = decodeLoosely((await params).address);
  const page = pageNumber((await searchParams).page);
  const qc = serverQueryClient();
  let found;
  try {
    found = await prefetch(qc, 'nftCollections', { collection_address: [address] });
  } catch (err) {
    // 422: not an address at all.
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) notFound();
    throw err;
  }
  if (!found.nft_collections.length) notFound();
  const collection = found.nft_collections[0]!.address;
  await Promise.all([tryPrefetch(qc, 'nftItems', collectionItemsParams(collection, page)), tryPrefetch(qc, 'nftTransfers', collectionTransfersParams(collection))]);
  return (
    <HydrationBoundary state={dehydrated(qc)}>
      <NftCollectionView address={address} page={page} />
    </HydrationBoundary>
  );
}
