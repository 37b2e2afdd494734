import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { DnsView } from '@/components/views/DnsView';
import { ApiError } from '@/lib/client/fetcher';
import { dnsFillUpParams } from '@/lib/client/filters';
import { classify } from '@/lib/client/search';
import { dehydrated, prefetch, serverQueryClient, tryPrefetch } from '@/lib/client/server';
import { chainTextPlain } from '@/lib/format/chain-text';
import { decodeLoosely } from '@/lib/format/uri';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ domain: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: chainTextPlain(decodeLoosely((await params).domain), 100) };
}

export default async function DnsPage({ params }: Props) {
  // Only what search reads as a domain is looked up (lower case, as the index stores names).
  const domain = classify(decodeLoosely((await params).domain)).find((c) => c.kind === 'domain')?.value;
  if (!domain) notFound();
  const qc = serverQueryClient();
  let found;
  try {
    found = await prefetch(qc, 'dnsRecords', { domain });
  } catch (err) {
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) notFound();
    throw err;
  }
  if (!found.records.length) notFound();
  await tryPrefetch(qc, 'runGetMethod', dnsFillUpParams(found.records[0]!.nft_item_address));
  return (
    <HydrationBoundary state={dehydrated(qc)}>
      <DnsView domain={domain} />
    </HydrationBoundary>
  );
}
