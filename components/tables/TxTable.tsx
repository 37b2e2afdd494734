import type { AddressBookJson, TransactionJson } from '@/lib/api/v3/models';
import { messageComment, txSucceeded } from '@/lib/format/tx';
import { Address } from '../entity/Address';
import { Amount } from '../entity/Amount';
import { ChainTextPreview } from '../entity/ChainText';
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
  if (!txs.length) return <Empty>No transactions.</Empty>;
  // Fixed columns take 31rem; each address column needs ~14rem (address, interface badge, copy button).
  const [asTable, asCards] = showAccount ? ['@min-[60rem]:table', '@min-[60rem]:hidden'] : ['@min-[46rem]:table', '@min-[46rem]:hidden'];
  return (
    <div className="@container">
      <table className={`hidden w-full table-fixed ${asTable}`}>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-800">
            <th className={`${th} w-44`}>Transaction</th>
            <th className={`${th} w-36`}>Time</th>
            {showAccount && <th className={th}>Account</th>}
            <th className={th}>From / value</th>
            <th className={`${th} w-16`}>Out</th>
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
                <InMsg t={t} book={book} />
              </td>
              <td className={`${td} text-sm`}>{t.out_msgs.length}</td>
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
            <InMsg t={t} book={book} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function InMsg({ t, book }: { t: TransactionJson; book: AddressBookJson }) {
  const m = t.in_msg;
  if (!m) return <span className="text-sm text-slate-500 dark:text-slate-400">{t.description.type === 'tick_tock' ? 'tick-tock' : 'no message'}</span>;
  const comment = messageComment(m);
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <Address raw={m.source} book={book} />
      {m.value !== null && <Amount value={m.value} maxFraction={4} />}
      {comment !== undefined && (
        <span className="block min-w-0 truncate text-xs italic text-slate-600 dark:text-slate-400" data-testid="comment-preview">
          <span className="sr-only">Comment: </span>
          <ChainTextPreview text={comment} />
        </span>
      )}
    </div>
  );
}
