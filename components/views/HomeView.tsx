'use client';

import { HOME_BLOCKS, HOME_TXS, lastMinuteBlocks } from '@/lib/client/filters';
import { useLive, useRefresh } from '@/lib/client/live';
import { resourceKey, useResource } from '@/lib/client/queries';
import { BlockLink } from '../entity/BlockLink';
import { BlockTable } from '../tables/BlockTable';
import { TxTable } from '../tables/TxTable';
import { Card } from '../ui/Card';
import { SkeletonLine } from '../ui/Skeleton';
import Link from 'next/link';

const LIVE = { noRetry: true } as const;
/** What the home page follows: one small notification per indexed masterchain block (Atlas's `blocks`). */
const BLOCKS = { types: ['blocks'] };
/**
 * The queries that show the chain's head, read again when a block is indexed and after a gap. Only these:
 * the shard count and the last minute's blocks follow the head's new seqno as queries of their own (reading
 * their old keys again would be wasted, and cut short when the new head arrives).
 */
const HEAD = new Set([resourceKey('masterchainInfo', {}), resourceKey('blocks', HOME_BLOCKS), resourceKey('transactions', HOME_TXS)].map((k) => JSON.stringify(k)));
const headQuery = (key: readonly unknown[]) => HEAD.has(JSON.stringify(key));

export function HomeView() {
  // Each indexed block is the moment the head's lists change: read them again then (no polling).
  const refresh = useRefresh(headQuery);
  const live = useLive(BLOCKS, (n) => n.type === 'blocks' && refresh(), headQuery);
  const info = useResource('masterchainInfo', {}, LIVE);
  const health = useResource('health', {}, { refetchInterval: 5000, noRetry: true });
  const last = info.data?.last;
  const shardState = useResource('masterchainBlockShardState', { seqno: last?.seqno ?? 0 }, { enabled: !!last, keepPrevious: true });
  const minute = useResource('blocks', lastMinuteBlocks(last?.gen_utime ?? '0'), { enabled: !!last, keepPrevious: true });
  const blocks = useResource('blocks', HOME_BLOCKS, LIVE);
  const txs = useResource('transactions', HOME_TXS, LIVE);

  const lost = info.isError || blocks.isError || txs.isError || health.isError || live === 'reconnecting';
  const shards = shardState.data?.blocks.filter((b) => b.workchain !== -1).length;
  const txLastMinute = minute.data?.blocks.reduce((s, b) => s + b.tx_count, 0);
  const lag = health.data?.indexer_progress?.lag;

  return (
    <div className="space-y-6">
      <div aria-live="polite">
        {lost ? (
          <p role="alert" className="rounded-lg border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200">
            <span aria-hidden="true">⚠ </span>Connection lost: the data below may be out of date. Retrying…
          </p>
        ) : (
          <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
            <span aria-hidden="true" className="inline-block size-2 rounded-full bg-emerald-500" /> Live: updates as each block is indexed
          </p>
        )}
      </div>
      <section aria-label="Network summary" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Latest masterchain block" value={last ? <BlockLink block={last} /> : undefined} testId="stat-seqno" />
        <Stat label="Shards" value={shards} />
        <Stat label="Transactions in the last minute" value={txLastMinute === undefined ? undefined : `${txLastMinute}${minute.data!.blocks.length >= 1000 ? '+' : ''}`} />
        <Stat label="Index lag (masterchain blocks)" value={lag === undefined ? (health.data ? 'n/a' : undefined) : lag === null ? 'unknown' : lag} />
      </section>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Card
          title="Latest blocks"
          id="latest-blocks"
          actions={
            <Link href="/blocks" className="text-sm text-brand-600 underline dark:text-brand-500">
              All blocks
            </Link>
          }
        >
          {blocks.data ? <BlockTable blocks={blocks.data.blocks} /> : <Rows />}
        </Card>
        <Card title="Latest transactions" id="latest-txs">
          {txs.data ? <TxTable txs={txs.data.transactions} book={txs.data.address_book} /> : <Rows />}
        </Card>
      </div>
    </div>
  );
}

function Stat({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <div className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900" data-testid={testId}>
      <div className="text-xs text-slate-600 dark:text-slate-400">{label}</div>
      <div className="mt-1 truncate text-xl font-semibold tabular-nums">{value ?? <SkeletonLine className="w-16" />}</div>
    </div>
  );
}

function Rows() {
  return (
    <div role="status" aria-label="Loading" className="space-y-3">
      {Array.from({ length: 6 }, (_, i) => (
        <SkeletonLine key={i} className="w-full" />
      ))}
    </div>
  );
}
