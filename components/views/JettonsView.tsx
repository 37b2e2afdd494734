'use client';

import Link from 'next/link';
import { JETTONS_PAGE, jettonsParams } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { jettonDisplay, jettonLabel } from '@/lib/format/jetton';
import { displayAddress } from '../entity/Address';
import { Amount } from '../entity/Amount';
import { ChainTextPreview } from '../entity/ChainText';
import { JettonLink, TokenAvatar } from '../entity/Jetton';
import { Card } from '../ui/Card';
import { SkeletonLine } from '../ui/Skeleton';
import { Empty, ErrorNote } from '../ui/States';
import { middle } from '@/lib/format/hash';

export function JettonsView({ page }: { page: number }) {
  const q = useResource('jettonMasters', jettonsParams(page), { keepPrevious: true });
  const rows = q.data ? q.data.jetton_masters.slice(0, JETTONS_PAGE) : [];
  const more = (q.data?.jetton_masters.length ?? 0) > JETTONS_PAGE;
  return (
    <Card title="Jettons" id="jettons">
      {q.error ? (
        <ErrorNote error={q.error} />
      ) : !q.data ? (
        <div role="status" aria-label="Loading jettons" className="space-y-3">
          {Array.from({ length: 6 }, (_, i) => (
            <SkeletonLine key={i} className="w-full" />
          ))}
        </div>
      ) : !rows.length ? (
        <Empty>The index knows no jetton yet.</Empty>
      ) : (
        <>
          <ul className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="jettons">
            {rows.map((m) => {
              const d = jettonDisplay(m.jetton_content);
              return (
                <li key={m.address} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <span className="flex min-w-0 items-center gap-3">
                    <TokenAvatar label={d.symbol ?? d.name} />
                    <span className="flex min-w-0 flex-col">
                      <JettonLink master={m.address} info={m} book={q.data.address_book} />
                      <span className="min-w-0 truncate text-xs text-slate-600 dark:text-slate-400">
                        {d.name && d.symbol ? <ChainTextPreview text={d.name} max={40} /> : null}
                        {!jettonLabel(d) && d.uri ? 'name in off-chain metadata · ' : null}
                        <span className="font-mono">{middle(displayAddress(m.address, q.data.address_book))}</span>
                      </span>
                    </span>
                  </span>
                  <span className="text-right text-sm">
                    <span className="sr-only">Total supply: </span>
                    <Amount value={m.total_supply} decimals={d.decimals} symbol={d.symbol ?? ''} maxFraction={2} />
                  </span>
                </li>
              );
            })}
          </ul>
          <nav aria-label="Pages" className="mt-3 flex flex-wrap gap-2">
            {page > 0 && (
              <Link href={page > 1 ? `/jettons?page=${page - 1}` : '/jettons'} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:border-brand-500 dark:border-slate-700">
                ← Previous
              </Link>
            )}
            {more && (
              <Link href={`/jettons?page=${page + 1}`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:border-brand-500 dark:border-slate-700">
                Next →
              </Link>
            )}
          </nav>
        </>
      )}
    </Card>
  );
}
