'use client';

import { BLOCKS_PAGE, mcBlocksParams, nextMcBlocksCursor, shardBlocksParams, visibleBlocks } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { BlockTable, groupByMasterchain } from '../tables/BlockTable';
import { Card, PageTitle } from '../ui/Card';
import { Pager } from '../ui/Pager';
import { SkeletonCard } from '../ui/Skeleton';
import { ErrorNote } from '../ui/States';

export function BlocksView({ cursor }: { cursor?: string }) {
  const mc = useResource('blocks', mcBlocksParams(cursor), { refetchInterval: cursor ? undefined : 5000 });
  const blocks = visibleBlocks(mc.data?.blocks ?? []);
  const shardParams = shardBlocksParams(blocks);
  const shards = useResource('blocks', shardParams ?? { workchain: 0, limit: 1 }, { enabled: shardParams !== null, keepPrevious: true });
  return (
    <div className="space-y-4">
      <PageTitle sub="Masterchain blocks, newest first, with the shard blocks each one committed">Blocks</PageTitle>
      {mc.error ? (
        <ErrorNote error={mc.error} />
      ) : !mc.data ? (
        <SkeletonCard rows={BLOCKS_PAGE / 2} />
      ) : (
        <Card title="Masterchain blocks" id="blocks">
          <BlockTable blocks={blocks} empty={cursor ? 'No older blocks.' : undefined} shards={groupByMasterchain(shards.data?.blocks ?? [])} />
          <Pager base="/blocks" current={cursor} next={nextMcBlocksCursor(mc.data.blocks)} />
        </Card>
      )}
    </div>
  );
}
