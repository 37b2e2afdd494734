'use client';

import type { NftTransfersResponse } from '@/lib/client/registry';
import { Address } from '../entity/Address';
import { NftLink } from '../entity/Nft';
import { Time } from '../entity/Time';
import { TxHash } from '../entity/TxHash';
import { Badge } from '../ui/Card';
import { Empty } from '../ui/States';

type Content = Record<string, string> | null;

/**
 * NFT transfers, newest first: old owner → new owner, when, in which transaction; an aborted one says so.
 * `items` (address → content) names the items when the page has them (transfers carry no content).
 */
export function NftTransfersList({ data, showItem, items }: { data: NftTransfersResponse; showItem: boolean; items?: Map<string, Content> }) {
  if (!data.nft_transfers.length) return <Empty>No transfer yet.</Empty>;
  const book = data.address_book;
  return (
    <ul className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="nft-transfers">
      {data.nft_transfers.map((t) => (
        <li key={`${t.transaction_hash}:${t.nft_address}`} className="flex flex-col gap-1 py-2 text-sm">
          <span className="flex flex-wrap items-center gap-2">
            {showItem && <NftLink address={t.nft_address} content={items?.get(t.nft_address)} book={book} />}
            <span className="inline-flex min-w-0 flex-wrap items-center gap-1">
              <Address raw={t.old_owner} book={book} />
              <span aria-label="to">→</span>
              <Address raw={t.new_owner} book={book} />
            </span>
            {t.transaction_aborted && <Badge>aborted: the owner did not change</Badge>}
          </span>
          <span className="flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
            <Time utime={t.transaction_now} compact />
            <TxHash hash={t.transaction_hash} copy={false} />
          </span>
        </li>
      ))}
    </ul>
  );
}
