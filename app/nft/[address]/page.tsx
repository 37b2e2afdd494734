import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { NftItemView } from '@/components/views/NftItemView';
import { ApiError } from '@/lib/client/fetcher';
import { itemTransfersParams } from '@/lib/client/filters';
import { dehydrated, prefetch, serverQueryClient, tryPrefetch } from '@/lib/client/server';
import { chainTextPlain } from '@/lib/format/chain-text';
import { decodeLoosely } from '@/lib/format/uri';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ address: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `NFT ${chainTextPlain(decodeLoosely((await params).address), 100)}` };
}

export default async function NftItemPage({ params }: Props) {
  const address = decodeLoosely((await params).address);
  const qc = serverQueryClient();
  let found;
  try {
    found = await prefetch(qc, 'nftItems', { address: [address] });
  } catch (err) {
    // 422: not an address at all.
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) notFound();
    throw err;
  }
  const item = found.nft_items[0];
  if (!item) notFound();
  const sale = item.sale_contract_address ?? item.auction_contract_address;
  await Promise.all([tryPrefetch(qc, 'nftTransfers', itemTransfersParams(item.address)), sale ? tryPrefetch(qc, 'nftSales', { address: [sale] }) : undefined]);
  return (
    <HydrationBoundary state={dehydrated(qc)}>
      <NftItemView address={address} />
    </HydrationBoundary>
  );
}
