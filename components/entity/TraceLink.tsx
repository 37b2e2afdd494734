import Link from 'next/link';
import { toUrlSafe } from '@/lib/format/hash';

/** A node's anchor on the trace page: /trace/<id>#tx-<hash> opens the trace at that transaction. */
export const traceNodeAnchor = (txHash: string) => `tx-${toUrlSafe(txHash)}`;

export const traceHref = (traceId: string, txHash?: string) => `/trace/${toUrlSafe(traceId)}${txHash ? `#${traceNodeAnchor(txHash)}` : ''}`;

/** A link to the trace a transaction belongs to, opened at that transaction. */
export function TraceLink({ traceId, txHash }: { traceId: string; txHash: string }) {
  return (
    <Link href={traceHref(traceId, txHash)} className="font-mono text-sm text-brand-600 hover:underline dark:text-brand-500">
      {toUrlSafe(traceId).slice(0, 12)}…
    </Link>
  );
}
