import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { BlockView } from '@/components/views/BlockView';
import { txPageParams } from '@/lib/client/cursor';
import { blockTxFilter, parseBlockId } from '@/lib/client/filters';
import { dehydrated, prefetch, serverQueryClient, tryPrefetch } from '@/lib/client/server';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ workchain: string; shard: string; seqno: string }>; searchParams: Promise<{ cursor?: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const p = await params;
  return { title: `Block ${p.workchain}:${p.shard}:${p.seqno}` };
}

export default async function BlockPage({ params, searchParams }: Props) {
  const p = await params;
  const { cursor } = await searchParams;
  const id = parseBlockId(p.workchain, p.shard, p.seqno);
  if (!id) notFound();
  const qc = serverQueryClient();
  const found = await prefetch(qc, 'blocks', { workchain: id.workchain, shard: id.shard, seqno: id.seqno, limit: 1 });
  if (!found.blocks.length) notFound();
  await Promise.all([
    tryPrefetch(qc, 'blocks', { workchain: id.workchain, shard: id.shard, seqno: id.seqno + 1, limit: 1 }),
    id.workchain === -1 ? tryPrefetch(qc, 'masterchainBlockShards', { seqno: id.seqno }) : undefined,
    tryPrefetch(qc, 'transactions', txPageParams(blockTxFilter(id), cursor)),
  ]);
  return (
    <HydrationBoundary state={dehydrated(qc)}>
      <BlockView id={id} cursor={cursor} />
    </HydrationBoundary>
  );
}
