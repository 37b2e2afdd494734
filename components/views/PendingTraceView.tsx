'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { landedTraceParams, PENDING_POLL_MS, pendingTraceParams } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { toUrlSafe } from '@/lib/format/hash';
import { explainRefusal } from '@/lib/format/exit-codes';
import { traceHref } from '../entity/TraceLink';
import { Card, PageTitle } from '../ui/Card';
import { PageSkeleton } from '../ui/Skeleton';
import { ErrorNote, NotFoundState } from '../ui/States';
import { PendingBadge, TraceDetails } from './TraceView';


/**
 * The trace an accepted external message will cause, as the emulator predicts it, until the real trace is
 * indexed: then the page moves to the real trace's own page.
 */
export function PendingTraceView({ hash }: { hash: string }) {
  const router = useRouter();
  const pending = useResource('pendingTraces', pendingTraceParams(hash), { refetchInterval: PENDING_POLL_MS, noRetry: true });
  const real = useResource('traces', landedTraceParams(hash), { refetchInterval: PENDING_POLL_MS, noRetry: true });
  const landed = real.data?.traces[0]?.trace_id;
  useEffect(() => {
    if (landed) router.replace(traceHref(landed));
  }, [landed, router]);
  if (pending.error && !pending.data) return <ErrorNote error={pending.error} />;
  if (!pending.data) return <PageSkeleton cards={3} />;
  const trace = pending.data.traces?.[0];
  const refused = pending.data.rejected?.[0];
  const title = (
    <PageTitle sub={<span className="break-all font-mono">{toUrlSafe(hash)}</span>}>
      Trace <PendingBadge>{refused ? 'Refused' : 'Pending'}</PendingBadge>
    </PageTitle>
  );
  if (landed || (!trace && !refused)) {
    // The prediction is gone: the real trace is indexed (the page is moving to it) or the entry expired.
    return (
      <div className="space-y-4">
        {title}
        {landed ? (
          <p role="status" className="text-sm">
            The message has landed: opening its trace…
          </p>
        ) : (
          <NotFoundState title="No longer pending">Atlas no longer holds a prediction for this message, and the index has no trace of it yet.</NotFoundState>
        )}
      </div>
    );
  }
  if (!trace) {
    return (
      <div className="space-y-4">
        {title}
        <Card title="Refused" id="refused">
          <p className="text-sm" data-testid="refusal">
            The chain will not accept this message: {explainRefusal(refused!.reason)}
          </p>
        </Card>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      {title}
      <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100" data-testid="pending-note">
        Predicted: the message was accepted and is not in a block yet. This is what the emulator expects it to do; the page switches to the real trace when it is indexed.
      </p>
      <TraceDetails trace={trace} book={pending.data.address_book} emulated rawFrom="GET /api/v3/pendingTraces" />
    </div>
  );
}
