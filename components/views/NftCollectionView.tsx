'use client';

import Link from 'next/link';
import { COLLECTION_ITEMS_PAGE, collectionItemsParams, collectionTransfersParams } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { contentDisplay, itemCount } from '@/lib/format/nft';
import { Address, displayAddress } from '../entity/Address';
import { ChainText, ChainTextPreview } from '../entity/ChainText';
import { CopyableAddress } from '../entity/CopyButton';
import { NftImage, NftLink } from '../entity/Nft';
import { Card, Fields, PageTitle } from '../ui/Card';
import { PageSkeleton, SkeletonLine } from '../ui/Skeleton';
import { Empty, ErrorNote, NotFoundState } from '../ui/States';
import { NftTransfersList } from './NftTransfersList';

const pageLink = 'rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:border-brand-500 dark:border-slate-700';

/** An NFT collection: its content and owner, its items by index (paged) and its latest transfers. */
export function NftCollectionView({ address, page }: { address: string; page: number }) {
  const q = useResource('nftCollections', { collection_address: [address] });
  const c = q.data?.nft_collections[0];
  const items = useResource('nftItems', collectionItemsParams(c?.address ?? '', page), { enabled: !!c, keepPrevious: true });
  const transfers = useResource('nftTransfers', collectionTransfersParams(c?.address ?? ''), { enabled: !!c });
  if (q.error) return <ErrorNote error={q.error} />;
  if (!q.data) return <PageSkeleton cards={3} />;
  if (!c) return <NotFoundState title="Not an NFT collection">The index knows no NFT collection at this address.</NotFoundState>;
  const book = q.data.address_book;
  const d = contentDisplay(c.collection_content);
  const shown = displayAddress(c.address, book);
  const base = `/nft/collection/${encodeURIComponent(address)}`;
  const list = items.data?.nft_items.slice(0, COLLECTION_ITEMS_PAGE) ?? [];
  const more = (items.data?.nft_items.length ?? 0) > COLLECTION_ITEMS_PAGE;
  return (
    <div className="space-y-4">
      <PageTitle sub={<CopyableAddress shown={shown} label="Copy collection address" />}>
        {d.name ? <ChainTextPreview text={d.name} max={80} /> : 'NFT collection'}
      </PageTitle>
      <Card title="Overview" id="overview">
        <div className="flex flex-col gap-4 sm:flex-row">
          <NftImage content={c.collection_content} label={d.name} />
          <div className="min-w-0 flex-1">
            <Fields
              rows={[
                ['Items', itemCount(c.next_item_index)],
                ['Owner', <Address key="o" raw={c.owner_address} book={book} />],
                ...(d.description ? ([['Description', <ChainText key="d" text={d.description} label="Description" max={500} />]] as [string, React.ReactNode][]) : []),
                ...(d.uri ? ([['Metadata URI (not fetched)', <ChainText key="u" text={d.uri} label="Metadata URI" max={200} />]] as [string, React.ReactNode][]) : []),
                ...(d.image ? ([['Image URL (not loaded)', <ChainText key="i" text={d.image} label="Image URL" max={200} />]] as [string, React.ReactNode][]) : []),
              ]}
            />
          </div>
        </div>
      </Card>
      <Card title="Items" id="items">
        {items.error ? (
          <ErrorNote error={items.error} />
        ) : !items.data ? (
          <div role="status" aria-label="Loading items" className="space-y-3">
            <SkeletonLine className="w-full" />
          </div>
        ) : !list.length ? (
          <Empty>No item minted yet.</Empty>
        ) : (
          <>
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" data-testid="collection-items">
              {list.map((i) => {
                const id = contentDisplay(i.content);
                return (
                  <li key={i.address} className="flex min-w-0 flex-col items-start gap-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800">
                    <NftImage content={i.content} label={id.name} />
                    <NftLink address={i.address} content={i.content} book={items.data!.address_book} fallback={`#${i.index}`} />
                    {i.on_sale && <span className="text-xs text-amber-700 dark:text-amber-400">on sale</span>}
                  </li>
                );
              })}
            </ul>
            <nav aria-label="Pages" className="mt-3 flex flex-wrap gap-2">
              {page > 0 && (
                <Link href={page > 1 ? `${base}?page=${page - 1}` : base} className={pageLink}>
                  ← Previous
                </Link>
              )}
              {more && (
                <Link href={`${base}?page=${page + 1}`} className={pageLink}>
                  Next →
                </Link>
              )}
            </nav>
          </>
        )}
      </Card>
      <Card title="Recent transfers" id="transfers">
        {transfers.error ? <ErrorNote error={transfers.error} /> : !transfers.data ? <SkeletonLine className="w-full" /> : <NftTransfersList data={transfers.data} showItem items={new Map(list.map((i) => [i.address, i.content]))} />}
      </Card>
    </div>
  );
}
