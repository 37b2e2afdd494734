'use client';

import { useState } from 'react';
import type { AddressBookJson } from '@/lib/api/v3/models/common';
import type { TraceJson, TraceNodeJson } from '@/lib/api/v3/models/traces';
import type { TransactionJson } from '@/lib/api/v3/models/transactions';
import { apiQuery, traceNorm, useLive, useRefresh } from '@/lib/client/live';
import { useResource } from '@/lib/client/queries';
import { actionAssets } from '@/lib/format/action';
import { middle, toUrlSafe } from '@/lib/format/hash';
import { failureReason, inboundOperation } from '@/lib/format/tx-summary';
import { txSucceeded } from '@/lib/format/tx';
import { ActionLine } from '../entity/ActionLine';
import { Address } from '../entity/Address';
import { BlockLink } from '../entity/BlockLink';
import { Amount } from '../entity/Amount';
import { Time } from '../entity/Time';
import { traceNodeAnchor } from '../entity/TraceLink';
import { TxHash } from '../entity/TxHash';
import { Card, Fields, PageTitle, Status } from '../ui/Card';
import { PageSkeleton } from '../ui/Skeleton';
import { Empty, ErrorNote, NotFoundState } from '../ui/States';

/** Children shown per node before "show more": a fan-out of thousands stays readable. */
const FANOUT_PAGE = 20;


export function TraceView({ id }: { id: string }) {
  const q = useResource('traces', { trace_id: id, include_actions: true });
  const trace = q.data?.traces[0];
  // A trace with messages in flight follows its stream: each block that adds to it has the page read it again.
  const norm = trace?.trace_info.trace_state === 'pending' ? traceNorm(trace) : undefined;
  const mine = (key: readonly unknown[]) => apiQuery(key, 'traces');
  const refresh = useRefresh(mine);
  useLive(norm ? { types: ['trace'], trace_external_hash_norms: [norm] } : null, refresh, mine);
  if (q.error) return <ErrorNote error={q.error} />;
  if (!q.data) return <PageSkeleton cards={3} />;
  if (!trace) return <NotFoundState title="Trace not found">The index has no trace with this id.</NotFoundState>;
  const failed = failedCount(trace);
  return (
    <div className="space-y-4">
      <PageTitle sub={<span className="break-all font-mono">{toUrlSafe(trace.trace_id ?? '')}</span>}>
        Trace <TraceState trace={trace} failed={failed} />
      </PageTitle>
      <TraceDetails trace={trace} book={q.data.address_book} />
    </div>
  );
}

export const failedCount = (trace: TraceJson) => Object.values(trace.transactions ?? {}).filter((t) => !txSucceeded(t)).length;

/**
 * A trace's cards: its actions in words, an overview, the transaction tree and the raw JSON. `emulated`:
 * a trace predicted by the emulator (a pending one, or an emulation of a message never sent): its
 * transactions are in no block, so they link nowhere, and its overview says so.
 */
export function TraceDetails({
  trace,
  book,
  emulated = false,
  extraFields = [],
  rawFrom = 'GET /api/v3/traces',
}: {
  trace: TraceJson;
  book: AddressBookJson;
  emulated?: boolean;
  /** Overview rows the caller adds (fees of an emulation). */
  extraFields?: [string, React.ReactNode][];
  /** The route whose answer the raw view shows. */
  rawFrom?: string;
}) {
  // The jettons its actions count in are read once.
  const assets = trace.actions ? actionAssets(trace.actions) : [];
  const masters = useResource('jettonMasters', { address: assets }, { enabled: assets.length > 0 });
  const info = new Map((masters.data?.jetton_masters ?? []).map((m) => [m.address, m]));
  const bookAll = { ...masters.data?.address_book, ...book };
  const failed = failedCount(trace);
  return (
    <>
      <Card title={emulated ? 'What it will do' : 'What happened'} id="actions">
        {trace.actions?.length ? (
          <ol className="space-y-3">
            {trace.actions.map((a) => (
              <li key={a.action_id} className="min-w-0">
                <ActionLine action={a} book={bookAll} masters={info} />
              </li>
            ))}
          </ol>
        ) : (
          <Empty>{trace.trace_info.trace_state === 'pending' && !emulated ? 'Actions appear once every message of the trace has landed.' : 'No action was recognised in this trace.'}</Empty>
        )}
      </Card>
      <Card title="Overview" id="overview">
        <Fields
          rows={[
            ...(emulated ? [] : ([['State', stateText(trace)]] as [string, React.ReactNode][])),
            ...extraFields,
            ['Transactions', `${trace.trace_info.transactions}${failed ? ` (${failed} failed)` : ''}`],
            ['Messages', `${trace.trace_info.messages}${trace.trace_info.pending_messages ? ` (${trace.trace_info.pending_messages} still in flight)` : ''}`],
            ...(emulated
              ? ([['Emulated at', <Time key="s" utime={trace.start_utime} />]] as [string, React.ReactNode][])
              : ([
                  ['Started', <Time key="s" utime={trace.start_utime} />],
                  ['Ended', trace.end_utime === null ? 'not yet' : <Time key="e" utime={trace.end_utime} />],
                  ['Masterchain blocks', trace.mc_seqno_start === trace.mc_seqno_end ? `#${trace.mc_seqno_start}` : `#${trace.mc_seqno_start} – #${trace.mc_seqno_end}`],
                  ['Shards', shardsText(trace)],
                ] as [string, React.ReactNode][])),
            ...(trace.external_hash ? ([['External message', <span key="x" className="break-all font-mono text-xs">{trace.external_hash}</span>]] as [string, React.ReactNode][]) : []),
            ...(trace.warning ? ([['Warning', trace.warning]] as [string, React.ReactNode][]) : []),
          ]}
        />
      </Card>
      <Card title="Transactions" id="tree">
        {trace.is_incomplete ? (
          <Empty>This trace has more than 4,000 transactions; they are not listed here.</Empty>
        ) : trace.trace && trace.transactions ? (
          <ul className="space-y-2" aria-label="Trace tree">
            <TraceNodeItem node={trace.trace} txs={trace.transactions} book={book} depth={0} emulated={emulated} />
          </ul>
        ) : (
          <Empty>No transaction of this trace is indexed yet.</Empty>
        )}
      </Card>
      <Card title="Raw" id="raw">
        <details>
          <summary className="cursor-pointer text-sm text-brand-600 dark:text-brand-500">Show the trace as {rawFrom} returns it</summary>
          <pre className="mt-2 max-h-96 overflow-auto rounded bg-slate-100 p-3 text-xs dark:bg-slate-950">{JSON.stringify(trace, null, 2)}</pre>
        </details>
      </Card>
    </>
  );
}

const shardOf = (t: TransactionJson) => `${t.block_ref.workchain}:${t.block_ref.shard}`;

/** The shards a trace's transactions ran in: a message to another shard lands a masterchain block later. */
function shardsText(t: TraceJson): string {
  const shards = [...new Set(Object.values(t.transactions ?? {}).map(shardOf))].sort();
  if (shards.length <= 1) return shards[0] ?? '—';
  return `${shards.join(', ')}: its messages crossed between ${shards.length} shards, each crossing landing a masterchain block later`;
}

function stateText(t: TraceJson): string {
  switch (t.trace_info.trace_state) {
    case 'complete':
      return 'complete: every message has been delivered';
    case 'pending':
      return 'pending: messages are still in flight (this page updates as they land)';
    default:
      return 'broken: a transaction of it can never be linked (the index may have started after it began)';
  }
}

/** The amber "pending" pill: a trace still in flight, or one predicted and not yet in a block. */
export function PendingBadge({ children = 'Pending' }: { children?: React.ReactNode }) {
  return <span className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/50 dark:text-amber-200">{children}</span>;
}

function TraceState({ trace, failed }: { trace: TraceJson; failed: number }) {
  if (trace.trace_info.trace_state === 'pending') return <PendingBadge />;
  return <Status ok={failed === 0} okText="All succeeded" failText={`${failed} failed`} />;
}

function TraceNodeItem({
  node,
  txs,
  book,
  depth,
  emulated,
  parent,
}: {
  node: TraceNodeJson;
  txs: Record<string, TransactionJson>;
  book: AddressBookJson;
  depth: number;
  emulated: boolean;
  /** The transaction whose message this one received. */
  parent?: TransactionJson;
}) {
  const [shown, setShown] = useState(FANOUT_PAGE);
  const t = txs[node.tx_hash];
  const children = node.children ?? [];
  if (!t) {
    return (
      <li className="rounded-lg border border-dashed border-slate-300 p-2 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
        transaction <span className="font-mono">{toUrlSafe(node.tx_hash)}</span> is not indexed
      </li>
    );
  }
  const reason = failureReason(t, book[t.account]?.interfaces ?? []);
  const header = (
    <div
      className={`min-w-0 rounded-lg border p-2 ${reason ? 'border-red-400 bg-red-50 dark:border-red-700 dark:bg-red-950/40' : 'border-slate-200 dark:border-slate-800'}`}
      data-testid="trace-node"
      data-failed={reason ? 'true' : 'false'}
    >
      <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm">
        <Address raw={t.account} book={book} />
        <span className="rounded bg-slate-200 px-1.5 py-0.5 text-xs dark:bg-slate-800">{inboundOperation(t)}</span>
        {t.in_msg?.value && t.in_msg.value !== '0' ? <Amount value={t.in_msg.value} maxFraction={4} /> : null}
        <span className="text-xs text-slate-600 dark:text-slate-400">
          fees <Amount value={t.total_fees} maxFraction={6} />
        </span>
        <Status ok={!reason} />
      </div>
      {reason && <p className="mt-1 text-sm text-red-800 dark:text-red-300">Failed: {reason}</p>}
      <div className="mt-1 flex flex-wrap items-center gap-3 text-xs">
        {emulated ? (
          // An emulated transaction is in no block: there is no page to link to.
          <span className="font-mono text-sm" title={t.hash}>
            {middle(toUrlSafe(t.hash))}
          </span>
        ) : (
          <TxHash hash={t.hash} copy={false} />
        )}
        <a href={`#${traceNodeAnchor(t.hash)}`} className="text-brand-600 hover:underline dark:text-brand-500" aria-label="Link to this transaction in the trace">
          #
        </a>
        {!emulated && (
          <span className="inline-flex flex-wrap items-center gap-1 text-slate-600 dark:text-slate-400">
            in <BlockLink block={t.block_ref} /> (masterchain #{t.mc_block_seqno})
            {parent && shardOf(parent) !== shardOf(t) && (
              <span className="rounded bg-sky-100 px-1.5 py-0.5 text-sky-900 dark:bg-sky-900/50 dark:text-sky-100" title={`its message came from ${shardOf(parent)}`}>
                {parent.block_ref.workchain !== t.block_ref.workchain ? `from the ${parent.block_ref.workchain === -1 ? 'masterchain' : 'basechain'}` : 'from another shard'}
              </span>
            )}
          </span>
        )}
      </div>
    </div>
  );
  return (
    <li id={traceNodeAnchor(t.hash)} className="min-w-0 scroll-mt-20 target:[&>*:first-child]:ring-2 target:[&>*:first-child]:ring-brand-500">
      {header}
      {children.length > 0 && (
        // The toggle sits below the node, not around it: a <summary> holding the node's links would nest
        // interactive controls (the links could not be reached or announced on their own).
        <details open className="mt-1">
          <summary className="cursor-pointer text-xs text-slate-600 dark:text-slate-400">
            {children.length} follow-up transaction{children.length > 1 ? 's' : ''}
          </summary>
          <ul className={`mt-2 space-y-2 border-l border-slate-300 pl-3 dark:border-slate-700 ${depth > 12 ? '' : 'sm:pl-5'}`}>
            {children.slice(0, shown).map((c) => (
              <TraceNodeItem key={c.tx_hash} node={c} txs={txs} book={book} depth={depth + 1} emulated={emulated} parent={t} />
            ))}
            {children.length > shown && (
              <li>
                <button type="button" onClick={() => setShown((n) => n + FANOUT_PAGE)} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:border-brand-500 dark:border-slate-700">
                  Show {Math.min(FANOUT_PAGE, children.length - shown)} more of {children.length - shown}
                </button>
              </li>
            )}
          </ul>
        </details>
      )}
    </li>
  );
}
