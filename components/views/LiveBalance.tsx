'use client';

import { ApiError } from '@/lib/client/fetcher';
import { useResource } from '@/lib/client/queries';
import { Amount } from '../entity/Amount';
import { ProofBadge } from '../ui/ProofBadge';
import { SkeletonLine } from '../ui/Skeleton';

/** What "verified by proof" means for this balance (LITE_VERIFY=on, lib/lite/verify.ts). */
export const LIVE_BALANCE_CHECKED =
  'Read from the chain through a lite server just now and checked by proof: the account state against the state hash of its ' +
  'shard block, that block through the masterchain block that names it, and that masterchain block by the signatures of its ' +
  "validator set along a chain of key blocks from the network's trusted start. The other values on this page come from the index.";

/**
 * The account's balance at the chain head, read live through the lite client (not the index). Marked
 * "verified by proof" only when the server said so for this very answer (X-Atlas-Verified); an answer the
 * server refused because its proof did not check says so instead of showing a balance.
 */
export function LiveBalance({ address }: { address: string }) {
  const live = useResource('liveAccount', { address }, { noRetry: true });
  if (live.error) {
    const refused = live.error instanceof ApiError && live.error.status === 502;
    return (
      <span className="text-sm text-red-700 dark:text-red-400" data-testid="live-balance-error">
        {refused ? 'Refused: the lite server’s answer did not pass the proof check' : 'Not available from the lite servers right now'}
        <span className="block break-words text-xs text-slate-600 dark:text-slate-400">{live.error.message}</span>
      </span>
    );
  }
  if (!live.data) return <SkeletonLine className="w-32" />;
  return (
    <span className="inline-flex flex-wrap items-center gap-2" data-testid="live-balance">
      <Amount value={live.data.result.balance} />
      {live.data.verified && <ProofBadge checked={LIVE_BALANCE_CHECKED} />}
    </span>
  );
}
