import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { JettonView } from '@/components/views/JettonView';
import { txPageParams } from '@/lib/client/cursor';
import { ApiError } from '@/lib/client/fetcher';
import { holdersParams, pageNumber } from '@/lib/client/filters';
import { dehydrated, prefetch, serverQueryClient, tryPrefetch } from '@/lib/client/server';
import { chainTextPlain } from '@/lib/format/chain-text';
import { decodeLoosely } from '@/lib/format/uri';
import type { PageQuery } from '@/lib/http/page-query';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ address: string }>; searchParams: Promise<PageQuery<'/jetton/[address]'>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Jetton ${chainTextPlain(decodeLoosely((await params).address), 100)}` };
}

export default async function JettonPage({ params, searchParams }: Props) {
  const address = decodeLoosely((await params).address);
  const { holders, cursor } = await searchParams;
  const page = pageNumber(holders);
  const qc = serverQueryClient();
  let found;
  try {
    found = await prefetch(qc, 'jettonMasters', { address: [address] });
  } catch (err) {
    // 422: not an address at all.
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) notFound();
    throw err;
  }
  if (!found.jetton_masters.length) notFound();
  const master = found.jetton_masters[0]!.address;
  await Promise.all([
    tryPrefetch(qc, 'jettonWallets', holdersParams(master, page)),
    tryPrefetch(qc, 'jettonTransfers', txPageParams({ jetton_master: master }, cursor)),
  ]);
  return (
    <HydrationBoundary state={dehydrated(qc)}>
      <JettonView address={address} holdersPage={page} cursor={cursor} />
    </HydrationBoundary>
  );
}
