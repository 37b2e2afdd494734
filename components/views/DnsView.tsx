'use client';

import Link from 'next/link';
import { dnsFillUpParams } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { dnsExpiry } from '@/lib/format/nft';
import { Address } from '../entity/Address';
import { CopyButton } from '../entity/CopyButton';
import { nftHref } from '../entity/Nft';
import { Time } from '../entity/Time';
import { Card, Fields, PageTitle } from '../ui/Card';
import { PageSkeleton, SkeletonLine } from '../ui/Skeleton';
import { ErrorNote, NotFoundState } from '../ui/States';

function Hex({ value, label, testId }: { value: string; label: string; testId: string }) {
  return (
    <span className="inline-flex max-w-full items-center gap-1" data-testid={testId}>
      <span className="break-all font-mono text-sm">{value}</span>
      <CopyButton value={value} label={`Copy ${label}`} />
    </span>
  );
}

const none = <span className="text-slate-500 dark:text-slate-400">not set</span>;

/** The last fill-up time a reference DNS item answers, live (the v3 record has no expiry field). */
function Expiry({ item }: { item: string }) {
  const q = useResource('runGetMethod', dnsFillUpParams(item));
  if (!q.data && !q.error) return <SkeletonLine />;
  const top = q.data?.stack[0];
  // v2 writes numbers as hex ("0x…", "-0x…"): a renewal time is a positive one.
  if (q.error || q.data?.exit_code !== 0 || !top || top[0] !== 'num' || !/^0x[0-9a-f]{1,12}$/i.test(String(top[1]))) return <span className="text-slate-500 dark:text-slate-400">unknown: the item does not answer get_last_fill_up_time</span>;
  const filled = Number(BigInt(top[1] as string));
  return (
    <span data-testid="dns-expiry">
      <Time utime={dnsExpiry(filled)} />
      {/* On a line of its own: the relative time's length changes with the date ("in 11 months", "2 years ago"). */}
      <span className="block text-xs text-slate-600 dark:text-slate-400">a year after the last renewal</span>
    </span>
  );
}

/** A .ton name: its owner, expiry and every record dnsresolve answers (wallet, site, storage, next resolver). */
export function DnsView({ domain }: { domain: string }) {
  const q = useResource('dnsRecords', { domain });
  if (q.error) return <ErrorNote error={q.error} />;
  if (!q.data) return <PageSkeleton cards={2} />;
  const r = q.data.records[0];
  if (!r) return <NotFoundState title="Unknown domain">The index knows no .ton name {domain}.</NotFoundState>;
  const book = q.data.address_book;
  return (
    <div className="space-y-4">
      <PageTitle sub="A TON DNS name (TEP-81)">
        <span className="break-all font-mono">{r.domain}</span>
      </PageTitle>
      <Card title="Overview" id="overview">
        <Fields
          rows={[
            ['Owner', <span key="o" data-testid="dns-owner"><Address raw={r.nft_item_owner} book={book} /></span>],
            ['Expires', <Expiry key="e" item={r.nft_item_address} />],
            [
              'NFT item',
              <Link key="n" href={nftHref(r.nft_item_address, book)} className="font-mono text-sm text-brand-600 hover:underline dark:text-brand-500" data-testid="dns-item">
                {r.domain} NFT
              </Link>,
            ],
          ]}
        />
      </Card>
      <Card title="Records" id="records">
        <Fields
          rows={[
            ['Wallet', r.dns_wallet ? <span key="w" data-testid="dns-wallet"><Address raw={r.dns_wallet} book={book} full /></span> : none],
            ['Site (ADNL)', r.dns_site_adnl ? <Hex key="s" value={r.dns_site_adnl} label="ADNL address" testId="dns-site" /> : none],
            ['Storage bag', r.dns_storage_bag_id ? <Hex key="b" value={r.dns_storage_bag_id} label="bag id" testId="dns-storage" /> : none],
            ['Next resolver', r.dns_next_resolver ? <span key="r" data-testid="dns-resolver"><Address raw={r.dns_next_resolver} book={book} full /></span> : none],
          ]}
        />
      </Card>
    </div>
  );
}
