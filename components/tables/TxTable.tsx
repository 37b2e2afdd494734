'use client';

import type { AddressBookJson } from '@/lib/api/v3/models/common';
import type { TransactionJson } from '@/lib/api/v3/models/transactions';
import { txSucceeded } from '@/lib/format/tx';
import { useMetadata } from '@/lib/client/queries';
import { jettonOfWallet, type JettonUnits } from '@/lib/format/jetton';
import { lineJettonWallet, summarizeTx, type TxLine } from '@/lib/format/tx-summary';
import { Address } from '../entity/Address';
import { Direction, TxSummaryLine } from '../entity/TxSummary';
import { Time } from '../entity/Time';
import { TxHash } from '../entity/TxHash';
import { Status } from '../ui/Card';
import { Empty } from '../ui/States';

const th = 'px-2 py-2 text-left text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400';
const td = 'px-2 py-2 align-top';

/**
 * Transactions as a table where the table fits and as stacked cards elsewhere (no horizontal scrolling).
 * The switch follows the width of the table's own container, not of the window: on a wide screen the
 * home page's transactions card is narrower than a tablet, and fixed-width columns there left the address
 * columns too narrow for their addresses, which printed over each other.
 */
export function TxTable({ txs, book, showAccount = true }: { txs: TransactionJson[]; book: AddressBookJson; showAccount?: boolean }) {
  const lines = new Map(txs.map((t) => [t.hash, summarizeTx(t, book[t.account]?.interfaces ?? [])]));
  const units = useJettonUnits([...lines.values()]);
  if (!txs.length) return <Empty>No transactions.</Empty>;
  // Fixed columns take 27rem; the account column needs ~14rem (address, interface badge, copy button) and
  // the summary column as much again before its sentence wraps.
  const [asTable, asCards] = showAccount ? ['@min-[60rem]:table', '@min-[60rem]:hidden'] : ['@min-[46rem]:table', '@min-[46rem]:hidden'];
  return (
    <div className="@container">
      <table className={`hidden w-full table-fixed ${asTable}`}>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-800">
            <th className={`${th} w-44`}>Transaction</th>
            <th className={`${th} w-36`}>Time</th>
            {showAccount && <th className={th}>Account</th>}
            <th className={th}>What happened</th>
            <th className={`${th} w-28`}>Status</th>
          </tr>
        </thead>
        <tbody>
          {txs.map((t) => (
            <tr key={t.hash} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
              <td className={td}>
                <TxHash hash={t.hash} copy={false} />
              </td>
              <td className={td}>
                <Time utime={t.now} compact />
              </td>
              {showAccount && (
                <td className={`${td} min-w-0`}>
                  <Address raw={t.account} book={book} />
                </td>
              )}
              <td className={`${td} min-w-0`}>
                <Summary t={t} line={lines.get(t.hash)!} book={book} units={units} />
              </td>
              <td className={td}>
                <Status ok={txSucceeded(t)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className={`divide-y divide-slate-100 dark:divide-slate-800 ${asCards}`}>
        {txs.map((t) => (
          <li key={t.hash} className="min-w-0 space-y-1 py-3">
            <div className="flex items-center justify-between gap-2">
              <TxHash hash={t.hash} copy={false} />
              <Status ok={txSucceeded(t)} />
            </div>
            <Time utime={t.now} compact />
            {showAccount && (
              <div className="min-w-0">
                <Address raw={t.account} book={book} />
              </div>
            )}
            <Summary t={t} line={lines.get(t.hash)!} book={book} units={units} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The jettons of the jetton wallets the lines name, from /metadata (one request for the page). */
function useJettonUnits(lines: TxLine[]): (wallet: string) => JettonUnits | undefined {
  const metadata = useMetadata(lines.map(lineJettonWallet));
  return (wallet) => jettonOfWallet(wallet, metadata);
}

function Summary({ t, line, book, units }: { t: TransactionJson; line: TxLine; book: AddressBookJson; units: (wallet: string) => JettonUnits | undefined }) {
  const wallet = lineJettonWallet(line);
  return (
    <div className="flex min-w-0 items-start gap-1.5">
      <Direction direction={line.direction} />
      <TxSummaryLine t={t} line={line} book={book} units={wallet ? units(wallet) : undefined} />
    </div>
  );
}
