'use client';

import Link from 'next/link';
import { apiQuery, traceNorm, useLive, useRefresh } from '@/lib/client/live';
import type { AddressBookJson } from '@/lib/api/v3/models/common';
import type { MessageJson } from '@/lib/api/v3/models/messages';
import type { TransactionJson } from '@/lib/api/v3/models/transactions';
import { jettonOfMessage, jettonOfWallet } from '@/lib/format/jetton';
import { useMetadata, useResource } from '@/lib/client/queries';
import { explainActionResult, explainComputeExit, explainSkipReason } from '@/lib/format/exit-codes';
import { base64ToHex, toUrlSafe } from '@/lib/format/hash';
import { feeBreakdown, txSucceeded } from '@/lib/format/tx';
import { lineJettonWallet, summarizeTx } from '@/lib/format/tx-summary';
import { Address } from '../entity/Address';
import { Amount } from '../entity/Amount';
import { BlockLink } from '../entity/BlockLink';
import { CopyButton } from '../entity/CopyButton';
import { Time } from '../entity/Time';
import { Card, Fields, PageTitle, Status } from '../ui/Card';
import { PageSkeleton } from '../ui/Skeleton';
import { ErrorNote, NotFoundState } from '../ui/States';
import { MessageView } from './MessageView';
import { TraceLink } from '../entity/TraceLink';
import { TxSummaryLine } from '../entity/TxSummary';

type Row = [React.ReactNode, React.ReactNode];

export function TxView({ hash }: { hash: string }) {
  const q = useResource('transactions', { hash, limit: 1 });
  if (q.error) return <ErrorNote error={q.error} />;
  if (!q.data) return <PageSkeleton cards={4} />;
  const t = q.data.transactions[0];
  if (!t) return <NotFoundState title="Transaction not found">The index has no transaction with this hash.</NotFoundState>;
  return <TxDetails t={t} book={q.data.address_book} />;
}

/** Jetton bodies' amounts in the jetton's units: the metadata of the messages' parties names their jetton. */
function useMessageJettons(t: TransactionJson) {
  const msgs = [...(t.in_msg ? [t.in_msg] : []), ...t.out_msgs];
  const jettonBodies = msgs.filter((m) => m.message_content?.decoded?.['@type']?.toString().startsWith('jetton_'));
  const metadata = useMetadata(jettonBodies.flatMap((m) => [m.source, m.destination]));
  return { message: (m: MessageJson) => jettonOfMessage(m, metadata), wallet: (a: string | undefined) => (a ? jettonOfWallet(a, metadata) : undefined) };
}

/**
 * The transaction's trace: a link, and how far it has got — read in the browser, and while messages of
 * it are still in flight, followed through its stream (each block that adds to it has it read again).
 */
function TraceState({ traceId, txHash }: { traceId: string; txHash: string }) {
  const q = useResource('traces', { trace_id: traceId });
  const trace = q.data?.traces[0];
  const norm = trace?.trace_info.trace_state === 'pending' ? traceNorm(trace) : undefined;
  const mine = (key: readonly unknown[]) => apiQuery(key, 'traces');
  const refresh = useRefresh(mine);
  useLive(norm ? { types: ['trace'], trace_external_hash_norms: [norm] } : null, refresh, mine);
  const info = trace?.trace_info;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <TraceLink traceId={traceId} txHash={txHash} />
      {info && (
        <span className="text-sm text-slate-600 dark:text-slate-400" data-testid="trace-state">
          {info.trace_state === 'pending'
            ? `${info.transactions} transactions so far, ${info.pending_messages} message${info.pending_messages === 1 ? '' : 's'} still in flight`
            : `${info.trace_state}, ${info.transactions} transaction${info.transactions === 1 ? '' : 's'}`}
        </span>
      )}
    </span>
  );
}

function TxDetails({ t, book }: { t: TransactionJson; book: AddressBookJson }) {
  const ok = txSucceeded(t);
  const jettonOf = useMessageJettons(t);
  const d = t.description;
  const interfaces = book[t.account]?.interfaces ?? [];
  const line = summarizeTx(t, interfaces);
  return (
    <div className="space-y-4">
      <PageTitle sub={<span className="break-all font-mono">{toUrlSafe(t.hash)}</span>}>
        Transaction <Status ok={ok} />
      </PageTitle>
      <p className="rounded-lg border border-slate-200 bg-white px-4 py-3 dark:border-slate-800 dark:bg-slate-900" data-testid="tx-headline">
        <TxSummaryLine t={t} line={line} book={book} withAccount units={jettonOf.wallet(lineJettonWallet(line))} />
      </p>
      <Card title="Overview" id="overview">
        <Fields
          rows={[
            ['Status', <Outcome key="s" t={t} interfaces={interfaces} />],
            ['Account', <Address key="a" raw={t.account} book={book} full />],
            ['Time', <Time key="t" utime={t.now} />],
            ['Logical time', <span key="lt" className="font-mono">{t.lt}</span>],
            [
              'Hash',
              <span key="h" className="inline-flex max-w-full flex-col gap-1">
                <span className="inline-flex items-center gap-1">
                  <span className="break-all font-mono text-sm">{t.hash}</span>
                  <CopyButton value={t.hash} label="Copy hash (base64)" />
                </span>
                <span className="inline-flex items-center gap-1">
                  <span className="break-all font-mono text-xs text-slate-600 dark:text-slate-400">{base64ToHex(t.hash)}</span>
                  <CopyButton value={base64ToHex(t.hash)} label="Copy hash (hex)" />
                </span>
              </span>,
            ],
            ['Trace', t.trace_id ? <TraceState key="tr" traceId={t.trace_id} txHash={t.hash} /> : 'not assembled yet'],
            ['Block', <BlockLink key="b" block={t.block_ref} />],
            ['Masterchain block', t.mc_block_seqno === null ? '—' : <BlockLink key="m" block={{ workchain: -1, shard: '8000000000000000', seqno: t.mc_block_seqno }} />],
            ['Type', d.type.replace('_', '-')],
            ['Account status', `${t.orig_status} → ${t.end_status}`],
            ['Total fees', <Amount key="f" value={t.total_fees} />],
            [
              'Previous transaction',
              t.prev_trans_lt === '0' ? 'none (first transaction)' : <Link key="p" href={`/tx/${toUrlSafe(t.prev_trans_hash)}`} className="font-mono text-sm text-brand-600 hover:underline dark:text-brand-500">lt {t.prev_trans_lt}</Link>,
            ],
          ]}
        />
      </Card>
      <Card title="Fees" id="fees">
        <Fees t={t} />
      </Card>
      <Card title="Phases" id="phases">
        <Phases t={t} interfaces={interfaces} />
      </Card>
      <Card title="Inbound message" id="in-msg">
        {t.in_msg ? <MessageView m={t.in_msg} book={book} direction="in" jetton={jettonOf.message(t.in_msg)} /> : <p className="text-sm text-slate-600 dark:text-slate-400">None ({d.type === 'tick_tock' ? 'a tick-tock transaction' : 'no inbound message'}).</p>}
      </Card>
      <Card title={`Outbound messages (${t.out_msgs.length})`} id="out-msgs">
        {t.out_msgs.length ? (
          <ol className="space-y-6 divide-y divide-slate-100 dark:divide-slate-800">
            {t.out_msgs.map((m, i) => (
              <li key={m.hash} className="pt-4 first:pt-0">
                <h3 className="mb-2 text-sm font-semibold">Message {i + 1}</h3>
                <MessageView m={m} book={book} direction="out" jetton={jettonOf.message(m)} />
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">This transaction sent no messages.</p>
        )}
      </Card>
      <details className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
        <summary className="cursor-pointer font-semibold">Raw JSON</summary>
        <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap break-all text-xs">{JSON.stringify(t, null, 2)}</pre>
      </details>
    </div>
  );
}

/** What happened, in words: the first failing phase with its code explained. */
function Outcome({ t, interfaces }: { t: TransactionJson; interfaces: readonly string[] }) {
  const d = t.description;
  const c = d.compute_ph;
  const parts: string[] = [];
  if (c?.skipped) parts.push(`Compute phase skipped: ${explainSkipReason(c.reason ?? '')}`);
  else if (c && c.exit_code !== undefined && !c.success) parts.push(`Compute phase failed with exit code ${c.exit_code}: ${explainComputeExit(c.exit_code, interfaces)}`);
  if (d.action && d.action.success === false) parts.push(`Action phase failed with result code ${d.action.result_code}: ${explainActionResult(d.action.result_code ?? -1)}`);
  if (d.bounce) parts.push(d.bounce.type === 'ok' ? 'The inbound value was bounced back to the sender.' : `Bounce phase: ${d.bounce.type === 'nofunds' ? 'not enough funds to bounce' : 'negative funds'}.`);
  if (t.in_msg?.bounced) parts.push('This transaction received a bounced message.');
  return (
    <div className="space-y-1">
      <Status ok={txSucceeded(t)} />
      {d.aborted && <span className="ml-2 text-sm">aborted</span>}
      {parts.map((p) => (
        <p key={p} className="text-sm">
          {p}
        </p>
      ))}
    </div>
  );
}

function Fees({ t }: { t: TransactionJson }) {
  const f = feeBreakdown(t);
  const rows: Row[] = [
    ['Total fees (paid by the account)', <Amount key="t" value={f.total} />],
    ['Storage fee', <Amount key="s" value={f.storage} />],
    ['Gas fee', <Amount key="g" value={f.gas} />],
    ['Forward fees (outbound messages)', <Amount key="fw" value={f.forward} />],
    ['Action fees', <Amount key="a" value={f.action} />],
  ];
  if (f.importFee) rows.push(['Import fee (external message)', <Amount key="i" value={f.importFee} />]);
  return <Fields rows={rows} />;
}

function Phases({ t, interfaces }: { t: TransactionJson; interfaces: readonly string[] }) {
  const d = t.description;
  const sections: { title: string; rows: Row[] }[] = [];
  if (d.storage_ph) {
    sections.push({
      title: 'Storage phase',
      rows: [
        ['Fees collected', <Amount key="c" value={d.storage_ph.storage_fees_collected ?? '0'} />],
        ...(d.storage_ph.storage_fees_due ? ([['Fees due', <Amount key="d" value={d.storage_ph.storage_fees_due} />]] as Row[]) : []),
        ['Status change', d.storage_ph.status_change ?? '—'],
      ],
    });
  }
  if (d.credit_ph) {
    sections.push({
      title: 'Credit phase',
      rows: [
        ['Credit', <Amount key="c" value={d.credit_ph.credit ?? '0'} />],
        ...(d.credit_ph.due_fees_collected ? ([['Due fees collected', <Amount key="d" value={d.credit_ph.due_fees_collected} />]] as Row[]) : []),
      ],
    });
  }
  const c = d.compute_ph;
  if (c) {
    sections.push({
      title: 'Compute phase',
      rows: c.skipped
        ? [
            ['Result', 'Skipped'],
            ['Reason', explainSkipReason(c.reason ?? '')],
          ]
        : [
            ['Result', <Status key="r" ok={!!c.success} />],
            ['Exit code', <ExitCode key="e" code={c.exit_code ?? 0} text={explainComputeExit(c.exit_code ?? 0, interfaces)} />],
            ...(c.exit_arg !== undefined ? ([['Exit argument', c.exit_arg]] as Row[]) : []),
            ['Gas used / limit', `${c.gas_used ?? '—'} / ${c.gas_limit ?? '—'}${c.gas_credit && c.gas_credit !== '0' ? ` (credit ${c.gas_credit})` : ''}`],
            ['Gas fees', <Amount key="g" value={c.gas_fees ?? '0'} />],
            ['VM steps', c.vm_steps ?? '—'],
            ['Mode', c.mode ?? '—'],
            ['Account activated', c.account_activated ? 'yes' : 'no'],
          ],
    });
  }
  const a = d.action;
  if (a) {
    sections.push({
      title: 'Action phase',
      rows: [
        ['Result', <Status key="r" ok={!!a.success} />],
        ['Result code', <ExitCode key="e" code={a.result_code ?? 0} text={explainActionResult(a.result_code ?? 0)} />],
        ['Actions (total / special / skipped)', `${a.tot_actions ?? 0} / ${a.spec_actions ?? 0} / ${a.skipped_actions ?? 0}`],
        ['Messages created', a.msgs_created ?? 0],
        ['Forward fees', <Amount key="f" value={a.total_fwd_fees ?? '0'} />],
        ['Action fees', <Amount key="af" value={a.total_action_fees ?? '0'} />],
        ['Valid / no funds', `${a.valid ? 'yes' : 'no'} / ${a.no_funds ? 'yes' : 'no'}`],
        ...(a.status_change ? ([['Status change', a.status_change]] as Row[]) : []),
      ],
    });
  } else if (c && !c.skipped && !c.success) {
    sections.push({ title: 'Action phase', rows: [['Result', 'Not run (the compute phase failed)']] });
  }
  if (d.bounce) {
    sections.push({
      title: 'Bounce phase',
      rows: [
        ['Result', d.bounce.type === 'ok' ? 'Bounced back to the sender' : d.bounce.type === 'nofunds' ? 'No funds to bounce' : 'Negative funds'],
        ...(d.bounce.msg_fees ? ([['Message fees', <Amount key="m" value={d.bounce.msg_fees} />]] as Row[]) : []),
        ...(d.bounce.fwd_fees ? ([['Forward fees', <Amount key="f" value={d.bounce.fwd_fees} />]] as Row[]) : []),
        ...(d.bounce.req_fwd_fees ? ([['Required forward fees', <Amount key="r" value={d.bounce.req_fwd_fees} />]] as Row[]) : []),
      ],
    });
  }
  if (!sections.length) return <p className="text-sm text-slate-600 dark:text-slate-400">No phases recorded for this transaction type.</p>;
  return (
    <div className="space-y-4">
      {sections.map((s) => (
        <section key={s.title} aria-label={s.title}>
          <h3 className="text-sm font-semibold">{s.title}</h3>
          <Fields rows={s.rows} />
        </section>
      ))}
    </div>
  );
}

function ExitCode({ code, text }: { code: number; text: string }) {
  return (
    <span>
      <span className="font-mono">{code}</span> — {text}
    </span>
  );
}
