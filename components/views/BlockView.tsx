'use client';

import Link from 'next/link';
import type { BlockIdJson, BlockJson } from '@/lib/api/v3/models';
import { blockTxFilter } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { BlockLink, blockHref, blockLabel } from '../entity/BlockLink';
import { CopyButton } from '../entity/CopyButton';
import { Time } from '../entity/Time';
import { Card, Fields, PageTitle } from '../ui/Card';
import { PageSkeleton } from '../ui/Skeleton';
import { ErrorNote, NotFoundState } from '../ui/States';
import { TxSection } from './TxSection';

export function BlockView({ id, cursor }: { id: BlockIdJson; cursor?: string }) {
  const mc = id.workchain === -1;
  const block = useResource('blocks', { workchain: id.workchain, shard: id.shard, seqno: id.seqno, limit: 1 });
  const next = useResource('blocks', { workchain: id.workchain, shard: id.shard, seqno: id.seqno + 1, limit: 1 });
  const shards = useResource('masterchainBlockShards', { seqno: id.seqno }, { enabled: mc });
  if (block.error) return <ErrorNote error={block.error} />;
  if (!block.data) return <PageSkeleton />;
  const b = block.data.blocks[0];
  if (!b) return <NotFoundState title="Block not found">The index has no block {blockLabel(id)}.</NotFoundState>;
  const nextBlock = next.data?.blocks[0];
  const shardBlocks = (shards.data?.blocks ?? []).filter((s) => s.workchain !== -1);
  const base = blockHref(id);
  return (
    <div className="space-y-4">
      <PageTitle sub={<span className="break-all font-mono">{`${b.workchain}:${b.shard}:${b.seqno}`}</span>}>
        {mc ? 'Masterchain block' : 'Shard block'} {blockLabel(b)}
      </PageTitle>
      <nav aria-label="Neighbour blocks" className="flex flex-wrap gap-2">
        {b.prev_blocks.map((p) => (
          <Link key={blockLabel(p)} href={blockHref(p)} rel="prev" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:border-brand-500 dark:border-slate-700">
            ← Previous {blockLabel(p)}
          </Link>
        ))}
        {nextBlock && (
          <Link href={blockHref(nextBlock)} rel="next" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:border-brand-500 dark:border-slate-700">
            Next {blockLabel(nextBlock)} →
          </Link>
        )}
      </nav>
      <Card title="Header" id="header">
        <Fields rows={headerRows(b)} />
      </Card>
      {mc && (
        <Card title={`Shard blocks (${shardBlocks.length})`} id="shards">
          {shardBlocks.length ? (
            <ul className="space-y-1">
              {shardBlocks.map((s) => (
                <li key={blockLabel(s)} className="text-sm">
                  <BlockLink block={s} /> · {s.tx_count} transactions
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-400">{shards.isPending ? 'Loading…' : 'This block committed no shard blocks.'}</p>
          )}
        </Card>
      )}
      <TxSection
        title={mc ? 'Transactions (this block and its shard blocks)' : 'Transactions'}
        filter={blockTxFilter(id)}
        cursor={cursor}
        base={base}
      />
    </div>
  );
}

const yes = (v: boolean) => (v ? 'yes' : 'no');

function Hash({ value }: { value: string }) {
  return (
    <span className="inline-flex max-w-full items-center gap-1">
      <span className="break-all font-mono text-sm">{value}</span>
      <CopyButton value={value} label="Copy hash" />
    </span>
  );
}

function headerRows(b: BlockJson): [string, React.ReactNode][] {
  return [
    ['Workchain', b.workchain],
    ['Shard', <span key="s" className="font-mono">{b.shard}</span>],
    ['Seqno', b.seqno],
    ['Time', <Time key="t" utime={b.gen_utime} />],
    ['Transactions', b.tx_count],
    ['Root hash', <Hash key="r" value={b.root_hash} />],
    ['File hash', <Hash key="f" value={b.file_hash} />],
    ['Logical time', `${b.start_lt} – ${b.end_lt}`],
    ['Global id', b.global_id],
    ['Version', b.version],
    ['Key block', yes(b.key_block)],
    ['Flags', b.flags],
    ['After merge / after split / before split', `${yes(b.after_merge)} / ${yes(b.after_split)} / ${yes(b.before_split)}`],
    ['Want merge / want split', `${yes(b.want_merge)} / ${yes(b.want_split)}`],
    ['Vertical seqno', `${b.vert_seqno}${b.vert_seqno_incr ? ' (incremented)' : ''}`],
    ['Validator list hash (short)', b.validator_list_hash_short],
    ['Catchain seqno', b.gen_catchain_seqno],
    ['Min ref. masterchain seqno', b.min_ref_mc_seqno],
    ['Prev. key block seqno', b.prev_key_block_seqno],
    ['Master ref. seqno', b.master_ref_seqno],
    ['Random seed', <Hash key="rs" value={b.rand_seed} />],
    ['Created by', <Hash key="cb" value={b.created_by} />],
    ['Masterchain block', b.masterchain_block_ref ? <BlockLink key="m" block={b.masterchain_block_ref} /> : '—'],
    ['Previous blocks', <span key="p" className="flex flex-wrap gap-2">{b.prev_blocks.map((p) => <BlockLink key={blockLabel(p)} block={p} />)}</span>],
  ];
}
