import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { AccountView } from '@/components/views/AccountView';
import { txPageParams } from '@/lib/client/cursor';
import { ApiError } from '@/lib/client/fetcher';
import { dehydrated, prefetch, serverQueryClient, tryPrefetch } from '@/lib/client/server';
import { decodeLoosely } from '@/lib/format/uri';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ address: string }>; searchParams: Promise<{ cursor?: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Account ${decodeLoosely((await params).address)}` };
}

export default async function AccountPage({ params, searchParams }: Props) {
  const address = decodeLoosely((await params).address);
  const { cursor } = await searchParams;
  const qc = serverQueryClient();
  try {
    await prefetch(qc, 'detectAddress', { address });
  } catch (err) {
    // v2 answers 422 for anything that is not an address.
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) notFound();
    throw err;
  }
  await Promise.all([
    prefetch(qc, 'accountStates', { address, include_boc: true }),
    tryPrefetch(qc, 'walletStates', { address }),
    tryPrefetch(qc, 'transactions', txPageParams({ account: address }, cursor)),
  ]);
  return (
    <HydrationBoundary state={dehydrated(qc)}>
      <AccountView address={address} cursor={cursor} />
    </HydrationBoundary>
  );
}
