import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { TxView } from '@/components/views/TxView';
import { isNotFound } from '@/lib/client/fetcher';
import { dehydrated, prefetch, serverQueryClient } from '@/lib/client/server';
import { decodeLoosely } from '@/lib/format/uri';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ hash: string }> };

/** 64 hex digits or 43/44 characters of (url-safe) base64: anything else cannot name a transaction. */
const HASH = /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { hash } = await params;
  return { title: `Transaction ${decodeLoosely(hash).slice(0, 10)}…` };
}

export default async function TxPage({ params }: Props) {
  const hash = decodeLoosely((await params).hash);
  if (!HASH.test(hash)) notFound();
  const qc = serverQueryClient();
  try {
    const found = await prefetch(qc, 'transactions', { hash, limit: 1 });
    if (!found.transactions.length) notFound();
  } catch (err) {
    if (isNotFound(err)) notFound();
    throw err;
  }
  return (
    <HydrationBoundary state={dehydrated(qc)}>
      <TxView hash={hash} />
    </HydrationBoundary>
  );
}
