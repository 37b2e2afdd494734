'use client';

import Link from 'next/link';
import { pageRows } from '@/lib/client/cursor';
import { activityParams, nextActivityCursor } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { ACTIVITY_FILTERS, actionAssets } from '@/lib/format/action';
import { ActionLine } from '../entity/ActionLine';
import { PendingActivity } from './PendingActivity';
import { Time } from '../entity/Time';
import { Card } from '../ui/Card';
import { Pager } from '../ui/Pager';
import { SkeletonLine } from '../ui/Skeleton';
import { Empty, ErrorNote } from '../ui/States';
import { traceHref } from '../entity/TraceLink';

/**
 * What an account did, as actions (like tonviewer's events), newest first, with filters by kind and cursor
 * pages (`cursor`); `base` is the page's URL without the activity's own parameters.
 */
export function AccountActivity({ address, filter, cursor, base }: { address: string; filter: string | undefined; cursor?: string; base: string }) {
  const current = ACTIVITY_FILTERS.find((f) => f.id === filter) ?? ACTIVITY_FILTERS[0]!;
  const q = useResource('actions', activityParams(address, current.id, cursor), { keepPrevious: true });
  const shown = q.data ? pageRows(q.data.actions) : [];
  const assets = actionAssets(shown);
  const masters = useResource('jettonMasters', { address: assets }, { enabled: assets.length > 0 });
  const info = new Map((masters.data?.jetton_masters ?? []).map((m) => [m.address, m]));
  const sep = base.includes('?') ? '&' : '?';
  const filtered = current.id === 'all' ? base : `${base}${sep}activity=${current.id}`;
  return (
    <Card
      title="Activity"
      id="activity"
      actions={
        <nav aria-label="Activity kinds" className="flex flex-wrap gap-1">
          {ACTIVITY_FILTERS.map((f) => (
            <Link
              key={f.id}
              href={`${base}${f.id === 'all' ? '' : `${sep}activity=${f.id}`}#activity`}
              aria-current={f.id === current.id ? 'true' : undefined}
              scroll={false}
              className={`rounded-full border px-2.5 py-0.5 text-xs ${f.id === current.id ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300 hover:border-brand-500 dark:border-slate-700'}`}
            >
              {f.label}
            </Link>
          ))}
        </nav>
      }
    >
      {!cursor && <PendingActivity address={address} types={current.types} />}
      {q.error ? (
        <ErrorNote error={q.error} />
      ) : !q.data ? (
        <div role="status" aria-label="Loading activity" className="space-y-3">
          {Array.from({ length: 4 }, (_, i) => (
            <SkeletonLine key={i} className="w-full" />
          ))}
        </div>
      ) : !shown.length ? (
        <Empty>{cursor ? 'No older activity.' : `No ${current.id === 'all' ? '' : `${current.label} `}activity recognised yet.`}</Empty>
      ) : (
        <ol className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="activity">
          {shown.map((a) => (
            <li key={a.action_id} className="flex min-w-0 flex-col gap-1 py-2 sm:flex-row sm:items-start sm:justify-between sm:gap-3">
              <ActionLine action={a} book={{ ...masters.data?.address_book, ...q.data.address_book }} masters={info} />
              <span className="flex shrink-0 items-center gap-2 text-xs">
                <Time utime={a.end_utime} compact />
                {a.trace_id && (
                  <Link href={traceHref(a.trace_id, a.transactions[0])} className="text-brand-600 hover:underline dark:text-brand-500">
                    trace
                  </Link>
                )}
              </span>
            </li>
          ))}
        </ol>
      )}
      {q.data && <Pager base={filtered} param="activity_cursor" anchor="#activity" current={cursor} next={nextActivityCursor(q.data.actions, cursor)} />}
    </Card>
  );
}
