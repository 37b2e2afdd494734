import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { traceHref } from '@/components/entity/TraceLink';
import { PendingTraceView } from '@/components/views/PendingTraceView';
import { TraceView } from '@/components/views/TraceView';
import { isNotFound } from '@/lib/client/fetcher';
import { landedTraceParams, pendingTraceParams } from '@/lib/client/filters';
import { dehydrated, prefetch, serverQueryClient, tryPrefetch } from '@/lib/client/server';
import { actionAssets } from '@/lib/format/action';
import { decodeLoosely } from '@/lib/format/uri';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

/** 64 hex digits or 43/44 characters of (url-safe) base64: anything else cannot name a trace. */
const HASH = /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Trace ${decodeLoosely((await params).id).slice(0, 10)}…` };
}

export default async function TracePage({ params }: Props) {
  const id = decodeLoosely((await params).id);
  if (!HASH.test(id)) notFound();
  const qc = serverQueryClient();
  let found;
  try {
    found = await prefetch(qc, 'traces', { trace_id: id, include_actions: true });
  } catch (err) {
    if (isNotFound(err)) notFound();
    throw err;
  }
  const trace = found.traces[0];
  if (!trace) {
    // A transaction hash names the trace it belongs to: go there, to its node.
    const byTx = await tryPrefetch(qc, 'traces', { tx_hash: id });
    const owner = byTx?.traces[0]?.trace_id;
    if (owner) redirect(traceHref(owner));
    // A message hash too (an external message's: the link a pending trace had before it landed).
    const landed = await tryPrefetch(qc, 'traces', landedTraceParams(id));
    const real = landed?.traces[0]?.trace_id;
    if (real) redirect(traceHref(real));
    // An external message accepted and not yet in a block: its predicted trace, until the real one lands.
    const pending = await tryPrefetch(qc, 'pendingTraces', pendingTraceParams(id));
    if (pending?.traces?.length || pending?.rejected?.length) {
      return (
        <HydrationBoundary state={dehydrated(qc)}>
          <PendingTraceView hash={id} />
        </HydrationBoundary>
      );
    }
    notFound();
  }
  const assets = actionAssets(trace.actions ?? []);
  if (assets.length) await tryPrefetch(qc, 'jettonMasters', { address: assets });
  return (
    <HydrationBoundary state={dehydrated(qc)}>
      <TraceView id={id} />
    </HydrationBoundary>
  );
}
