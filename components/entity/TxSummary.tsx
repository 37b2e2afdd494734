import type { AddressBookJson } from '@/lib/api/v3/models/common';
import type { TransactionJson } from '@/lib/api/v3/models/transactions';
import type { JettonUnits } from '@/lib/format/jetton';
import type { TxLine } from '@/lib/format/tx-summary';
import { Address } from './Address';
import { Amount } from './Amount';
import { ChainTextPreview } from './ChainText';

const muted = 'text-slate-600 dark:text-slate-400';

/** IN / OUT from the account's side (lists of one account's transactions). */
export function Direction({ direction }: { direction: TxLine['direction'] }) {
  if (!direction) return null;
  const cls = direction === 'in' ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-300' : 'bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-200';
  return <span className={`shrink-0 rounded px-1.5 py-0.5 text-[11px] font-semibold uppercase ${cls}`}>{direction}</span>;
}

/**
 * The counterparty, the amount, the comment or operation, and the failure, as entities (linked names,
 * exact amounts). `withAccount` starts with the account itself, for places that do not show it beside.
 */
export function TxSummaryLine({
  t,
  line,
  book,
  withAccount = false,
  units,
}: {
  t: TransactionJson;
  line: TxLine;
  book: AddressBookJson;
  withAccount?: boolean;
  /** The jetton of a jetton line (its wallet's metadata); without it the amount shows in base units. */
  units?: JettonUnits;
}) {
  const s = line.summary;
  const me = withAccount ? <Address raw={t.account} book={book} /> : null;
  const note = (comment?: string, operation?: string) =>
    comment !== undefined ? (
      <span className={`min-w-0 truncate italic ${muted}`} data-testid="comment-preview">
        <span className="sr-only">Comment: </span>“<ChainTextPreview text={comment} />”
      </span>
    ) : operation ? (
      <span className={`${muted}`}>{operation}</span>
    ) : null;
  let body: React.ReactNode;
  switch (s.kind) {
    case 'sent':
      body = (
        <>
          {me} <span className={muted}>sent</span> <Amount value={s.value} maxFraction={4} /> <span className={muted}>to</span> <Address raw={s.to} book={book} />
          {s.others > 0 && <span className={muted}>and {s.others} more</span>}
          {note(s.comment, s.operation)}
        </>
      );
      break;
    case 'received':
      body = (
        <>
          <Address raw={s.from} book={book} /> <span className={muted}>sent</span> <Amount value={s.value} maxFraction={4} />
          {me && (
            <>
              <span className={muted}>to</span> {me}
            </>
          )}
          {note(s.comment, s.operation)}
        </>
      );
      break;
    case 'sent_jetton':
      body = (
        <>
          {me} <span className={muted}>sent</span> <JettonAmount value={s.amount} units={units} /> <span className={muted}>to</span> <Address raw={s.to} book={book} />
          {note(s.comment)}
        </>
      );
      break;
    case 'received_jetton':
      body = (
        <>
          <Address raw={s.from} book={book} /> <span className={muted}>sent</span> <JettonAmount value={s.amount} units={units} />
          {me && (
            <>
              <span className={muted}>to</span> {me}
            </>
          )}
          {note(s.comment)}
        </>
      );
      break;
    case 'returned':
      body = (
        <>
          <Amount value={s.value} maxFraction={4} /> <span className={muted}>came back from</span> <Address raw={s.from} book={book} /> <span className={muted}>(bounced)</span>
        </>
      );
      break;
    case 'external':
      body = (
        <>
          {me} <span className={muted}>external message, nothing sent</span>
        </>
      );
      break;
    case 'system':
      body = (
        <>
          {me} <span className={muted}>{s.what}</span>
        </>
      );
      break;
  }
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-x-1.5 gap-y-0.5 text-sm" data-testid="tx-summary">
      {body}
      {line.failure && <span className="text-red-700 dark:text-red-400">— {line.failure}</span>}
      {line.bouncedBack && <span className="text-amber-800 dark:text-amber-300">— bounced back to the sender</span>}
    </span>
  );
}

function JettonAmount({ value, units }: { value: bigint; units: JettonUnits | undefined }) {
  return units ? <Amount value={value} decimals={units.decimals} symbol={units.symbol ?? 'jettons'} maxFraction={4} /> : <Amount value={value} decimals={0} symbol="jetton units" />;
}
