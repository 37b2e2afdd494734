import Link from 'next/link';
import { middle, toUrlSafe } from '@/lib/format/hash';
import { CopyButton } from './CopyButton';

export const txHref = (hashB64: string) => `/tx/${toUrlSafe(hashB64)}`;

export function TxHash({ hash, full = false, copy = true }: { hash: string; full?: boolean; copy?: boolean }) {
  const text = full ? toUrlSafe(hash) : middle(toUrlSafe(hash));
  return (
    <span className="inline-flex min-w-0 max-w-full items-center gap-1 align-middle">
      <Link href={txHref(hash)} className="truncate font-mono text-sm text-brand-600 hover:underline dark:text-brand-500" title={hash}>
        {text}
      </Link>
      {copy && <CopyButton value={hash} label="Copy transaction hash" />}
    </span>
  );
}
