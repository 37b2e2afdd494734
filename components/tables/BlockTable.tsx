import type { BlockJson } from '@/lib/api/v3/models/blocks';
import { BlockLink } from '../entity/BlockLink';
import { Time } from '../entity/Time';
import { Empty } from '../ui/States';

const th = 'px-2 py-2 text-left text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400';
const td = 'px-2 py-2 align-top text-sm';

/** Masterchain blocks with the shard blocks each one committed. */
export function BlockTable({ blocks, shards, empty = 'No blocks yet.' }: { blocks: BlockJson[]; shards?: Map<number, BlockJson[]>; empty?: string }) {
  if (!blocks.length) return <Empty>{empty}</Empty>;
  return (
    <table className="w-full table-fixed">
      <thead>
        <tr className="border-b border-slate-200 dark:border-slate-800">
          <th className={`${th} w-24`}>Block</th>
          <th className={`${th} w-32`}>Time</th>
          <th className={`${th} w-12`}>Txs</th>
          {shards && <th className={th}>Shard blocks</th>}
        </tr>
      </thead>
      <tbody>
        {blocks.map((b) => (
          <tr key={`${b.workchain}:${b.shard}:${b.seqno}`} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
            <td className={td}>
              <BlockLink block={b} />
            </td>
            <td className={td}>
              <Time utime={b.gen_utime} compact />
            </td>
            <td className={td}>{b.tx_count}</td>
            {shards && (
              <td className={`${td} min-w-0`}>
                <ul className="flex flex-wrap gap-x-3 gap-y-1">
                  {(shards.get(b.seqno) ?? []).map((s) => (
                    <li key={`${s.workchain}:${s.shard}:${s.seqno}`} className="min-w-0 truncate">
                      <BlockLink block={s} /> <span className="text-xs text-slate-500 dark:text-slate-400">({s.tx_count} tx)</span>
                    </li>
                  ))}
                </ul>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function groupByMasterchain(shardBlocks: BlockJson[]): Map<number, BlockJson[]> {
  const out = new Map<number, BlockJson[]>();
  for (const s of shardBlocks) {
    const mc = s.masterchain_block_ref?.seqno;
    if (mc === undefined || s.workchain === -1) continue;
    const list = out.get(mc) ?? [];
    list.push(s);
    out.set(mc, list);
  }
  return out;
}
