import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { BlockView } from '@/components/views/BlockView';
import { txPageParams } from '@/lib/client/cursor';
import { blockTxFilter, parseBlockId } from '@/lib/client/filters';
import { successorQueries } from '@/lib/client/shard-lineage';
import { dehydrated, prefetch, serverQueryClient, tryPrefetch } from '@/lib/client/server';
import type { PageQuery } from '@/lib/http/page-query';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ workchain: string; shard: string; seqno: string }>; searchParams: Promise<PageQuery<'/block/[workchain]/[shard]/[seqno]'>> };

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
  // The blocks that follow it: its shard's next, both halves after a split, the block a merge made.
  const next = successorQueries(found.blocks[0]!);
  const [same] = await Promise.all([
    tryPrefetch(qc, 'blocks', next.same),
    ...next.children.map((c) => tryPrefetch(qc, 'blocks', c)),
    id.workchain === -1 ? tryPrefetch(qc, 'masterchainBlockShards', { seqno: id.seqno }) : undefined,
    tryPrefetch(qc, 'transactions', txPageParams(blockTxFilter(id), cursor)),
  ]);
  if (next.parent && same && !same.blocks.length) await tryPrefetch(qc, 'blocks', next.parent);
  return (
    <HydrationBoundary state={dehydrated(qc)}>
      <BlockView id={id} cursor={cursor} />
    </HydrationBoundary>
  );
}
