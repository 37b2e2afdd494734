'use client';

import { accountJettonsParams } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { jettonDisplay } from '@/lib/format/jetton';
import { Address } from '../entity/Address';
import { Amount } from '../entity/Amount';
import { JettonLink } from '../entity/Jetton';
import { Card } from '../ui/Card';
import { SkeletonLine } from '../ui/Skeleton';
import { ErrorNote } from '../ui/States';

/** The jettons an account holds: each jetton wallet with a balance, in the jetton's own decimals and symbol. */
export function AccountJettons({ address }: { address: string }) {
  const wallets = useResource('jettonWallets', accountJettonsParams(address));
  const jettons = [...new Set((wallets.data?.jetton_wallets ?? []).map((w) => w.jetton))];
  const masters = useResource('jettonMasters', { address: jettons }, { enabled: jettons.length > 0 });
  if (wallets.data && !wallets.data.jetton_wallets.length) return null;
  const info = new Map((masters.data?.jetton_masters ?? []).map((m) => [m.address, m]));
  return (
    <Card title="Jettons" id="jettons">
      {wallets.error ? (
        <ErrorNote error={wallets.error} />
      ) : !wallets.data ? (
        <div role="status" aria-label="Loading jettons" className="space-y-3">
          <SkeletonLine className="w-full" />
        </div>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="account-jettons">
          {wallets.data.jetton_wallets.map((w) => {
            const m = info.get(w.jetton);
            const d = jettonDisplay(m?.jetton_content);
            return (
              <li key={w.address} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="flex min-w-0 flex-col gap-0.5">
                  <JettonLink master={w.jetton} info={m} book={{ ...masters.data?.address_book, ...wallets.data!.address_book }} />
                  <span className="flex min-w-0 items-center gap-1 text-xs text-slate-600 dark:text-slate-400">
                    wallet <Address raw={w.address} book={wallets.data!.address_book} />
                  </span>
                </span>
                {/* Without the master's metadata the decimals are unknown: the raw amount, honestly labelled. */}
                {m ? <Amount value={w.balance} decimals={d.decimals} symbol={d.symbol ?? ''} maxFraction={4} /> : <Amount value={w.balance} decimals={0} symbol="units" />}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
