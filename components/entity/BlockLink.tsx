import Link from 'next/link';
import type { BlockIdJson } from '@/lib/api/v3/models/blocks';

export const blockHref = (b: BlockIdJson) => `/block/${b.workchain}/${b.shard}/${b.seqno}`;

/** Masterchain blocks read `#123`; shard blocks `0:8000000000000000:123`. */
export const blockLabel = (b: BlockIdJson) => (b.workchain === -1 ? `#${b.seqno}` : `${b.workchain}:${b.shard}:${b.seqno}`);

export function BlockLink({ block }: { block: BlockIdJson }) {
  return (
    <Link href={blockHref(block)} className="font-mono text-sm text-brand-600 hover:underline dark:text-brand-500">
      {blockLabel(block)}
    </Link>
  );
}
