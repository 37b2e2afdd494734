'use client';

import { useState } from 'react';
import type { AddressBookJson } from '@/lib/api/v3/models/common';
import type { TraceJson } from '@/lib/api/v3/models/traces';
import { landedTraceParams, pendingTraceParams } from '@/lib/client/filters';
import { apiQuery, traceFromNotification, traceNorm, useLive, useRefresh } from '@/lib/client/live';
import { useResource } from '@/lib/client/queries';
import { toUrlSafe } from '@/lib/format/hash';
import { explainRefusal } from '@/lib/format/exit-codes';
import { reaches, type Finality } from '@/lib/stream/finality';
import { traceHref } from '../entity/TraceLink';
import { Card, PageTitle } from '../ui/Card';
import { PageSkeleton } from '../ui/Skeleton';
import { ErrorNote, NotFoundState } from '../ui/States';
import { PendingBadge, TraceDetails } from './TraceView';

interface Shown {
  finality: Finality;
  trace: TraceJson;
  book: AddressBookJson;
}

const NOTES: Record<Finality, string> = {
  pending: 'Predicted: the message was accepted and is not in a block yet. This is what the emulator expects it to do; the page follows it as it lands.',
  confirmed: 'Confirmed: these are the real transactions, in a shard block that no masterchain block has committed yet.',
  finalized: 'Finalized: committed by a masterchain block.',
};

/** The finality a trace has reached, as a badge that changes in place as it rises. */
export function FinalityBadge({ finality }: { finality: Finality }) {
  const text = finality === 'pending' ? 'Pending' : finality === 'confirmed' ? 'Confirmed' : 'Finalized';
  if (finality !== 'finalized') return <PendingBadge>{<span data-testid="finality">{text}</span>}</PendingBadge>;
  return (
    <span className="inline-flex items-center rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-200" data-testid="finality">
      {text}
    </span>
  );
}

/**
 * The trace an accepted external message causes, on the page of that message, as it moves pending →
 * confirmed → finalized: first the emulator's prediction, then the real transactions of a shard block,
 * then the trace committed by a masterchain block — pushed by the trace's stream, in place, each finality
 * replacing a lower one. A prediction that turns out void says so.
 */
export function PendingTraceView({ hash }: { hash: string }) {
  const pending = useResource('pendingTraces', pendingTraceParams(hash), { noRetry: true });
  const real = useResource('traces', landedTraceParams(hash), { noRetry: true });
  const [pushed, setPushed] = useState<Shown | null>(null);
  const [voided, setVoided] = useState(false);
  const predicted = pending.data?.traces?.[0];
  const landed = real.data?.traces[0];
  // What the reads say, then whatever the stream pushed at the same finality or higher.
  const read: Shown | null = landed
    ? { finality: 'finalized', trace: landed, book: real.data!.address_book }
    : predicted
      ? { finality: Object.values(predicted.transactions ?? {}).some((t) => t.finality === 'confirmed') ? 'confirmed' : 'pending', trace: predicted, book: pending.data!.address_book }
      : null;
  const shown = pushed && (!read || reaches(pushed.finality, read.finality)) ? pushed : read;
  const norm = traceNorm(predicted ?? landed);
  const mine = (key: readonly unknown[]) => apiQuery(key, 'pendingTraces', 'traces');
  const refresh = useRefresh(mine);
  // Followed until finalized whole: a trace crossing shards is finalized a masterchain block at a time.
  const settled = shown?.finality === 'finalized' && shown.trace.trace_info.trace_state !== 'pending';
  useLive(
    norm && !settled ? { types: ['trace'], trace_external_hash_norms: [norm], min_finality: 'pending', include_address_book: true } : null,
    (n) => {
      if (n.type === 'trace_invalidated') {
        setVoided(true);
        setPushed(null);
        return refresh();
      }
      if (n.type !== 'trace') return;
      setVoided(false);
      setPushed((prev) => (prev && !reaches(n.finality, prev.finality) ? prev : { finality: n.finality, trace: traceFromNotification(n), book: n.address_book ?? {} }));
    },
    mine,
    { catchUpFirst: true },
  );

  if (pending.error && !pending.data && !shown) return <ErrorNote error={pending.error} />;
  if (!pending.data && !shown) return <PageSkeleton cards={3} />;
  const refused = pending.data?.rejected?.[0];
  const title = (
    <PageTitle sub={<span className="break-all font-mono">{toUrlSafe(hash)}</span>}>
      Trace {shown ? <FinalityBadge finality={shown.finality} /> : <PendingBadge>{refused ? 'Refused' : 'Pending'}</PendingBadge>}
    </PageTitle>
  );
  if (!shown && refused) {
    return (
      <div className="space-y-4">
        {title}
        <Card title="Refused" id="refused">
          <p className="text-sm" data-testid="refusal">
            The chain will not accept this message: {explainRefusal(refused.reason)}
          </p>
        </Card>
      </div>
    );
  }
  if (!shown) {
    return (
      <div className="space-y-4">
        {title}
        <NotFoundState title="No longer pending">Atlas no longer holds a prediction for this message, and the index has no trace of it yet.</NotFoundState>
      </div>
    );
  }
  const finalized = shown.finality === 'finalized';
  return (
    <div className="space-y-4">
      {title}
      <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100" data-testid="pending-note">
        {voided ? 'The prediction did not happen as emulated: what follows is what the chain did. ' : ''}
        {NOTES[shown.finality]}
        {finalized && shown.trace.trace_id && (
          <>
            {' '}
            <a href={traceHref(shown.trace.trace_id)} className="text-brand-600 underline dark:text-brand-500">
              Open the trace&apos;s own page
            </a>
          </>
        )}
      </p>
      <TraceDetails trace={shown.trace} book={shown.book} emulated={!finalized} rawFrom={finalized ? 'GET /api/v3/traces' : 'GET /api/v3/pendingTraces'} />
    </div>
  );
}
