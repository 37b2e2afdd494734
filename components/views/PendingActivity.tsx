'use client';

import Link from 'next/link';
import type { ActionJson } from '@/lib/api/v3/models/actions';
import { useResource } from '@/lib/client/queries';
import { actionAssets } from '@/lib/format/action';
import { toUrlSafe } from '@/lib/format/hash';
import { ActionLine } from '../entity/ActionLine';
import { PendingBadge } from './TraceView';

/** The account's pending actions grouped by the external message whose trace they belong to, newest first. */
function byTrace(actions: ActionJson[]): [string, ActionJson[]][] {
  const groups = new Map<string, ActionJson[]>();
  for (const a of actions) {
    const key = a.trace_external_hash ?? a.action_id;
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  return [...groups];
}

/**
 * What the account's sent-but-not-landed messages will do (the emulator's prediction, then the real
 * transactions once a shard block holds them), above its activity. Read once by the browser (the server
 * render of the account page does no more work for it) and when the tab comes back into view; from then
 * on the account's stream keeps it current (useAccountLive): a trace arrives pending, turns confirmed, and
 * leaves once finalized, when the activity below shows it.
 */
export function PendingActivity({ address, types }: { address: string; types: string[] | undefined }) {
  const q = useResource('pendingActions', { account: address }, { noRetry: true, refetchOnFocus: true });
  const actions = (q.data?.actions ?? []).filter((a) => !types || types.includes(a.type));
  const groups = byTrace(actions);
  const assets = actionAssets(actions);
  const jettons = useResource('jettonMasters', { address: assets }, { enabled: assets.length > 0 });
  // A failure here (no pending store, a network blip) only hides the section: the activity below is whole.
  if (!groups.length) return null;
  const book = { ...jettons.data?.address_book, ...q.data!.address_book };
  const masters = new Map((jettons.data?.jetton_masters ?? []).map((m) => [m.address, m]));
  return (
    <ol className="mb-2 space-y-2" aria-label="Pending" data-testid="pending-activity">
      {groups.map(([hash, list]) => (
        <li key={hash} className="flex min-w-0 flex-col gap-2 rounded-lg border border-dashed border-amber-400 bg-amber-50/60 p-2 sm:flex-row sm:items-start sm:justify-between dark:border-amber-700 dark:bg-amber-950/30">
          <div className="flex min-w-0 flex-col gap-1">
            {list.map((a) => (
              <ActionLine key={a.action_id} action={a} book={book} masters={masters} />
            ))}
          </div>
          <span className="flex shrink-0 items-center gap-2 text-xs">
            <PendingBadge>{list.some((a) => a.finality === 'confirmed') ? 'Confirmed' : 'Pending'}</PendingBadge>
            <Link href={`/trace/${toUrlSafe(hash)}`} className="text-brand-600 hover:underline dark:text-brand-500">
              trace
            </Link>
          </span>
        </li>
      ))}
    </ol>
  );
}
