'use client';

import { nextTxCursor, pageRows, txPageParams } from '@/lib/client/cursor';
import { useResource } from '@/lib/client/queries';
import type { TransactionsParams } from '@/lib/client/registry';
import { TxTable } from '../tables/TxTable';
import { Card } from '../ui/Card';
import { Pager } from '../ui/Pager';
import { SkeletonLine } from '../ui/Skeleton';
import { ErrorNote } from '../ui/States';

/** One cursor page of the transactions matching `filter`; the server prefetches the same query. */
export function TxSection({ title, filter, cursor, base, showAccount = true }: { title: string; filter: TransactionsParams; cursor?: string; base: string; showAccount?: boolean }) {
  const q = useResource('transactions', txPageParams(filter, cursor));
  return (
    <Card title={title} id="transactions">
      {q.data ? (
        <>
          <TxTable txs={pageRows(q.data.transactions)} book={q.data.address_book} showAccount={showAccount} />
          <Pager base={base} current={cursor} next={nextTxCursor(q.data.transactions, cursor)} />
        </>
      ) : q.error ? (
        <ErrorNote error={q.error} />
      ) : (
        <div role="status" aria-label="Loading transactions" className="space-y-3">
          {Array.from({ length: 5 }, (_, i) => (
            <SkeletonLine key={i} className="w-full" />
          ))}
        </div>
      )}
    </Card>
  );
}
