'use client';

import Link from 'next/link';
import { nextTxCursor, pageRows, txPageParams } from '@/lib/client/cursor';
import { holdersParams, HOLDERS_PAGE } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import type { JettonMasterJson } from '@/lib/api/v3/models/jettons';
import { jettonDisplayWithMetadata, jettonLabel, offchainMetadataState, type JettonDisplay, type OffchainMetadata } from '@/lib/format/jetton';
import { Address } from '../entity/Address';
import { Amount } from '../entity/Amount';
import { ChainText } from '../entity/ChainText';
import { CopyButton } from '../entity/CopyButton';
import { TokenAvatar } from '../entity/Jetton';
import { Time } from '../entity/Time';
import { TxHash } from '../entity/TxHash';
import { Badge, Card, Fields, PageTitle } from '../ui/Card';
import { Pager } from '../ui/Pager';
import { PageSkeleton, SkeletonLine } from '../ui/Skeleton';
import { Empty, ErrorNote } from '../ui/States';

/** A holder's share of the supply in percent, two decimals, exact (bigint). */
export function shareOfSupply(balance: string, supply: string): string {
  const total = BigInt(supply);
  if (total <= 0n) return '—';
  const bp = (BigInt(balance) * 10_000n) / total;
  return `${bp / 100n}.${(bp % 100n).toString().padStart(2, '0')} %`;
}

function Loading({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-3">
      {Array.from({ length: 5 }, (_, i) => (
        <SkeletonLine key={i} className="w-full" />
      ))}
    </div>
  );
}

export function JettonView({ address, holdersPage, cursor }: { address: string; holdersPage: number; cursor?: string }) {
  const masters = useResource('jettonMasters', { address: [address] });
  if (masters.error) return <ErrorNote error={masters.error} />;
  if (!masters.data) return <PageSkeleton cards={3} />;
  const master = masters.data.jetton_masters[0];
  if (!master) return <Empty>This address is not a jetton the index knows.</Empty>;
  const book = masters.data.address_book;
  const info = masters.data.metadata[master.address]?.token_info[0];
  const d = jettonDisplayWithMetadata(master.jetton_content, info);
  const label = jettonLabel(d);
  const friendly = book[master.address]?.user_friendly ?? master.address;
  // Holders (by offset) and transfers (by lt cursor) page independently; each link keeps the other's place.
  const href = (at: { holders: number; cursor?: string }) => {
    const q = new URLSearchParams();
    if (at.holders) q.set('holders', String(at.holders));
    if (at.cursor) q.set('cursor', at.cursor);
    const s = q.toString();
    return `/jetton/${encodeURIComponent(address)}${s ? `?${s}` : ''}`;
  };
  return (
    <div className="space-y-4">
      <div className="flex min-w-0 items-start gap-3">
        <TokenAvatar label={label} />
        <PageTitle
          sub={
            <span className="inline-flex max-w-full items-center gap-1">
              <span className="break-all font-mono text-sm">{friendly}</span>
              <CopyButton value={friendly} label="Copy jetton address" />
            </span>
          }
        >
          {d.name ? <ChainText text={d.name} label="Name" max={64} /> : 'Jetton'} {d.symbol && <Badge>{<ChainText text={d.symbol} label="Symbol" max={16} />}</Badge>}
        </PageTitle>
      </div>
      {d.uri && <OffchainMetadataCard content={master.jetton_content ?? {}} d={d} state={offchainMetadataState(info)} />}
      <Overview master={master} d={d} book={book} />
      <Holders master={master} d={d} page={holdersPage} pageHref={(holders) => href({ holders, cursor })} />
      <Transfers master={master} d={d} cursor={cursor} base={href({ holders: holdersPage })} />
    </div>
  );
}

function Overview({ master, d, book }: { master: JettonMasterJson; d: JettonDisplay; book: Parameters<typeof Address>[0]['book'] }) {
  return (
    <Card title="Overview" id="overview">
      <Fields
        rows={[
          ['Total supply', <Amount key="s" value={master.total_supply} decimals={d.decimals} symbol={d.symbol ?? ''} />],
          ['Decimals', d.decimals],
          ['Mintable', master.mintable ? 'yes: the admin may mint more' : 'no'],
          ['Admin', master.admin_address ? <Address key="a" raw={master.admin_address} book={book} /> : 'none (no one can mint or change the metadata)'],
          ...(d.description ? ([['Description', <ChainText key="d" text={d.description} label="Description" max={400} />]] as [string, React.ReactNode][]) : []),
        ]}
      />
    </Card>
  );
}

const WHY: Record<OffchainMetadata, string> = {
  'not fetched':
    'This server has not fetched it: Atlas reads off-chain metadata only when it runs with METADATA_FETCH=on, which is off by default so that it needs no internet. Your browser never fetches it either.',
  failed: 'This server tried to fetch it and could not (the file was unreachable, too large or not a JSON object).',
  fetched: 'This server fetched it; the name and symbol above come from it, and what the chain holds wins over it.',
};

/**
 * A jetton whose TEP-64 content names a URI: where its name, symbol and image live, why they may be
 * missing here, and every attribute the chain itself holds (semi-chain content keeps some on chain).
 */
function OffchainMetadataCard({ content, d, state }: { content: Record<string, string>; d: JettonDisplay; state: OffchainMetadata }) {
  const onchain = Object.entries(content).filter(([k]) => k !== 'uri');
  return (
    <Card title="Metadata" id="metadata">
      <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="offchain-metadata-note">
        {state !== 'fetched' && !jettonLabel(d) ? 'This jetton names itself off-chain: ' : 'This jetton keeps its metadata off-chain: '}
        its name, symbol and image are in the file at the URI below (TEP-64 off-chain content). {WHY[state]}
      </p>
      <Fields
        rows={[
          ['Metadata URI', <span key="u" className="break-all font-mono text-xs"><ChainText text={d.uri!} label="Metadata URI" max={300} /></span>],
          ...onchain.map(([k, v]): [string, React.ReactNode] => [`On chain: ${k}`, <ChainText key={k} text={v} label={k} max={200} />]),
          ...(content.decimals === undefined && state !== 'fetched'
            ? ([['Decimals', 'not on chain: amounts are shown with TEP-64\'s default of 9']] as [string, React.ReactNode][])
            : []),
        ]}
      />
    </Card>
  );
}

function Holders({ master, d, page, pageHref }: { master: JettonMasterJson; d: JettonDisplay; page: number; pageHref: (page: number) => string }) {
  const q = useResource('jettonWallets', holdersParams(master.address, page), { keepPrevious: true });
  const rows = q.data ? q.data.jetton_wallets.slice(0, HOLDERS_PAGE) : [];
  const more = (q.data?.jetton_wallets.length ?? 0) > HOLDERS_PAGE;
  return (
    <Card title="Holders" id="holders">
      {q.error ? (
        <ErrorNote error={q.error} />
      ) : !q.data ? (
        <Loading label="Loading holders" />
      ) : !rows.length ? (
        <Empty>No one holds this jetton.</Empty>
      ) : (
        <>
          <ol className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="holders">
            {rows.map((w, i) => (
              <li key={w.address} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="flex min-w-0 items-center gap-2">
                  <span className="w-8 text-right text-sm text-slate-500 dark:text-slate-400">{page * HOLDERS_PAGE + i + 1}</span>
                  <Address raw={w.owner} book={q.data.address_book} />
                </span>
                <span className="flex items-center gap-3">
                  <Amount value={w.balance} decimals={d.decimals} symbol={d.symbol ?? ''} maxFraction={4} />
                  <span className="w-20 text-right text-xs tabular-nums text-slate-600 dark:text-slate-400">{shareOfSupply(w.balance, master.total_supply)}</span>
                </span>
              </li>
            ))}
          </ol>
          <nav aria-label="Holder pages" className="mt-3 flex flex-wrap gap-2">
            {page > 0 && <PagerLink href={pageHref(page - 1)}>← Larger holders</PagerLink>}
            {more && <PagerLink href={pageHref(page + 1)}>Smaller holders →</PagerLink>}
          </nav>
        </>
      )}
    </Card>
  );
}

function PagerLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <Link href={href} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:border-brand-500 focus-visible:outline-2 focus-visible:outline-brand-500 dark:border-slate-700">
      {children}
    </Link>
  );
}

function Transfers({ master, d, cursor, base }: { master: JettonMasterJson; d: JettonDisplay; cursor?: string; base: string }) {
  const q = useResource('jettonTransfers', txPageParams({ jetton_master: master.address }, cursor));
  const rows = q.data ? pageRows(q.data.jetton_transfers) : [];
  return (
    <Card title="Transfers" id="transfers">
      {q.error ? (
        <ErrorNote error={q.error} />
      ) : !q.data ? (
        <Loading label="Loading transfers" />
      ) : !rows.length ? (
        <Empty>No transfers yet.</Empty>
      ) : (
        <>
          <ul className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="jetton-transfers">
            {rows.map((t) => (
              <li key={t.transaction_hash} className="grid min-w-0 gap-1 py-2 md:grid-cols-[9rem_minmax(0,1fr)_auto] md:items-center md:gap-3">
                <span className="flex items-center gap-2">
                  <TxHash hash={t.transaction_hash} copy={false} />
                </span>
                <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm">
                  <Address raw={t.source} book={q.data.address_book} />
                  <span aria-label="sent to" className="text-slate-500">→</span>
                  <Address raw={t.destination} book={q.data.address_book} />
                </span>
                <span className="flex items-center gap-3 md:justify-end">
                  <Amount value={t.amount} decimals={d.decimals} symbol={d.symbol ?? ''} maxFraction={4} />
                  <Time utime={t.transaction_now} compact />
                </span>
              </li>
            ))}
          </ul>
          <Pager base={base} current={cursor} next={nextTxCursor(q.data.jetton_transfers.map((t) => ({ lt: t.transaction_lt })), cursor)} />
        </>
      )}
    </Card>
  );
}
