'use client';

import { TOP_ACCOUNTS } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { Address } from '../entity/Address';
import { Amount } from '../entity/Amount';
import { Card } from '../ui/Card';
import { SkeletonLine } from '../ui/Skeleton';
import { ErrorNote } from '../ui/States';


export function TopAccountsView() {
  const top = useResource('topAccountsByBalance', TOP_ACCOUNTS);
  const book = useResource('addressBook', { address: (top.data ?? []).map((a) => a.account) }, { enabled: !!top.data?.length });
  return (
    <Card title="Largest balances" id="top">
      {top.error ? (
        <ErrorNote error={top.error} />
      ) : !top.data ? (
        <div role="status" aria-label="Loading" className="space-y-3">
          {Array.from({ length: 8 }, (_, i) => (
            <SkeletonLine key={i} className="w-full" />
          ))}
        </div>
      ) : (
        <ol className="divide-y divide-slate-100 dark:divide-slate-800">
          {top.data.map((a, i) => (
            <li key={a.account} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className="flex min-w-0 items-center gap-2">
                <span className="w-6 text-right text-sm text-slate-500 dark:text-slate-400">{i + 1}</span>
                <Address raw={a.account} book={book.data} />
              </span>
              <Amount value={a.balance} maxFraction={2} />
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
