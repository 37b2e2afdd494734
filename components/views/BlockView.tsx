'use client';

import Link from 'next/link';
import type { BlockIdJson, BlockJson } from '@/lib/api/v3/models/blocks';
import { blockTxFilter } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { BlockLink, blockHref, blockLabel } from '../entity/BlockLink';
import { CopyButton } from '../entity/CopyButton';
import { Time } from '../entity/Time';
import { Card, Fields, PageTitle } from '../ui/Card';
import { PageSkeleton } from '../ui/Skeleton';
import { ErrorNote, NotFoundState } from '../ui/States';
import { TxSection } from './TxSection';
import { shardPrefixBits, successorQueries } from '@/lib/client/shard-lineage';

export function BlockView({ id, cursor }: { id: BlockIdJson; cursor?: string }) {
  const mc = id.workchain === -1;
  const block = useResource('blocks', { workchain: id.workchain, shard: id.shard, seqno: id.seqno, limit: 1 });
  const shards = useResource('masterchainBlockShards', { seqno: id.seqno }, { enabled: mc });
  const b = block.data?.blocks[0];
  const next = useSuccessors(b);
  if (block.error) return <ErrorNote error={block.error} />;
  if (!block.data) return <PageSkeleton />;
  if (!b) return <NotFoundState title="Block not found">The index has no block {blockLabel(id)}.</NotFoundState>;
  const shardBlocks = (shards.data?.blocks ?? []).filter((s) => s.workchain !== -1);
  const base = blockHref(id);
  const events = splitMergeEvents(b);
  return (
    <div className="space-y-4">
      <PageTitle sub={<span className="break-all font-mono">{`${b.workchain}:${b.shard}:${b.seqno}`}</span>}>
        {mc ? 'Masterchain block' : 'Shard block'} {blockLabel(b)}
        {events.map((e) => (
          <EventBadge key={e}>{e}</EventBadge>
        ))}
      </PageTitle>
      <nav aria-label="Neighbour blocks" className="flex flex-wrap gap-2">
        {b.prev_blocks.map((p) => (
          <Link key={blockLabel(p)} href={blockHref(p)} rel="prev" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:border-brand-500 dark:border-slate-700">
            ← Previous {blockLabel(p)}
          </Link>
        ))}
        {next.map((n) => (
          <Link key={blockLabel(n)} href={blockHref(n)} rel="next" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:border-brand-500 dark:border-slate-700">
            Next {blockLabel(n)} →
          </Link>
        ))}
      </nav>
      {!mc && <ShardCard block={b} next={next} />}
      <Card title="Header" id="header">
        <Fields rows={headerRows(b)} />
      </Card>
      {mc && (
        <Card title={`Shard blocks committed (${shardBlocks.length})`} id="shards">
          {shardBlocks.length ? (
            <ul className="space-y-1" aria-label="Shard blocks this masterchain block committed">
              {shardBlocks.map((s) => (
                <li key={blockLabel(s)} className="flex flex-wrap items-center gap-x-2 text-sm">
                  <BlockLink block={s} />
                  <span>· {s.tx_count} transactions</span>
                  {splitMergeEvents(s).map((e) => (
                    <EventBadge key={e}>{e}</EventBadge>
                  ))}
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

/** What a block records of a shard split or merge, in words (its header's flags). */
export function splitMergeEvents(b: Pick<BlockJson, 'after_merge' | 'after_split' | 'before_split' | 'want_split' | 'want_merge'>): string[] {
  return [
    b.after_split && 'after split',
    b.after_merge && 'after merge',
    b.before_split && 'before split',
    b.want_split && !b.before_split && 'wants to split',
    b.want_merge && 'wants to merge',
  ].filter((e): e is string => !!e);
}

function EventBadge({ children }: { children: React.ReactNode }) {
  return <span className="ml-2 inline-flex items-center rounded-full bg-sky-100 px-2 py-0.5 align-middle text-xs font-medium text-sky-900 dark:bg-sky-900/50 dark:text-sky-100">{children}</span>;
}

/**
 * The blocks that follow a shard block: its shard's next, both children after a before_split block,
 * or the parent's block a merge made (kept only when it names this block as a predecessor).
 */
function useSuccessors(b: BlockJson | undefined): BlockJson[] {
  const q = b ? successorQueries(b) : undefined;
  const same = useResource('blocks', q?.same ?? { limit: 1 }, { enabled: !!q });
  const left = useResource('blocks', q?.children[0] ?? { limit: 1 }, { enabled: !!q?.children.length });
  const right = useResource('blocks', q?.children[1] ?? { limit: 1 }, { enabled: !!q?.children.length });
  const sameNext = same.data?.blocks[0];
  const parent = useResource('blocks', q?.parent ?? { limit: 1 }, { enabled: !!q?.parent && same.isSuccess && !sameNext });
  if (!b || !q) return [];
  if (q.children.length) return [left.data?.blocks[0], right.data?.blocks[0]].filter((x): x is BlockJson => !!x);
  if (sameNext) return [sameNext];
  const merged = parent.data?.blocks[0];
  return merged && merged.prev_blocks.some((p) => p.shard === b.shard && p.seqno === b.seqno) ? [merged] : [];
}

/** Where a shard block sits in the shard tree: its shard's prefix, what it continues and what continues it. */
function ShardCard({ block: b, next }: { block: BlockJson; next: BlockJson[] }) {
  const bits = shardPrefixBits(b.shard);
  const links = (bs: BlockIdJson[]) => (
    <span className="flex flex-wrap gap-x-2">
      {bs.map((x, i) => (
        <span key={blockLabel(x)}>
          {i > 0 && 'and '}
          <BlockLink block={x} />
        </span>
      ))}
    </span>
  );
  const follows = b.after_split ? 'Split from its parent' : b.after_merge ? 'Merged from its two halves' : 'Follows';
  const continued = b.before_split ? 'Splits into' : next.length && next[0].after_merge ? 'Merges into' : 'Continued by';
  return (
    <Card title="Shard" id="shard">
      <Fields
        rows={[
          ['Shard', <span key="s" className="font-mono">{`${b.workchain}:${b.shard}`}</span>],
          ['Accounts', bits ? `addresses starting with the bits ${bits} (${bits.length} of the address's first bits)` : 'the whole workchain (one shard)'],
          [follows, b.prev_blocks.length ? links(b.prev_blocks) : 'the zero state'],
          [continued, next.length ? links(next) : b.before_split ? 'its two halves, once indexed' : 'no later block is indexed yet'],
          ['Split / merge', splitMergeEvents(b).join(', ') || 'none'],
          ['Masterchain block', b.masterchain_block_ref ? <BlockLink key="m" block={b.masterchain_block_ref} /> : '—'],
        ]}
      />
    </Card>
  );
}

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
