'use client';

import Link from 'next/link';
import { NFT_COLLECTIONS_PAGE, nftCollectionsParams } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { contentDisplay, itemCount } from '@/lib/format/nft';
import { Address } from '../entity/Address';
import { NftImage, NftLink } from '../entity/Nft';
import { Card } from '../ui/Card';
import { SkeletonLine } from '../ui/Skeleton';
import { Empty, ErrorNote } from '../ui/States';

const pageLink = 'rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:border-brand-500 dark:border-slate-700';

/** The NFT collections the index knows, as a grid: picture, name, items minted (next_item_index) and owner. */
export function NftCollectionsView({ page }: { page: number }) {
  const q = useResource('nftCollections', nftCollectionsParams(page), { keepPrevious: true });
  const rows = q.data ? q.data.nft_collections.slice(0, NFT_COLLECTIONS_PAGE) : [];
  const more = (q.data?.nft_collections.length ?? 0) > NFT_COLLECTIONS_PAGE;
  return (
    <Card title="Collections" id="collections">
      {q.error ? (
        <ErrorNote error={q.error} />
      ) : !q.data ? (
        <div role="status" aria-label="Loading collections" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: 6 }, (_, i) => (
            <SkeletonLine key={i} className="h-24 w-full" />
          ))}
        </div>
      ) : !rows.length ? (
        <Empty>The index knows no NFT collection yet.</Empty>
      ) : (
        <>
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="nft-collections">
            {rows.map((c) => {
              const d = contentDisplay(c.collection_content);
              return (
                <li key={c.address} className="flex min-w-0 gap-3 rounded-lg border border-slate-200 p-3 dark:border-slate-800">
                  <NftImage content={c.collection_content} label={d.name} size="sm" />
                  <span className="flex min-w-0 flex-col gap-1">
                    <NftLink address={c.address} content={c.collection_content} book={q.data.address_book} collection />
                    <span className="text-xs text-slate-600 dark:text-slate-400">{itemCount(c.next_item_index)}</span>
                    {c.owner_address && (
                      <span className="flex min-w-0 items-center gap-1 text-xs text-slate-600 dark:text-slate-400">
                        owner <Address raw={c.owner_address} book={q.data.address_book} />
                      </span>
                    )}
                  </span>
                </li>
              );
            })}
          </ul>
          <nav aria-label="Pages" className="mt-3 flex flex-wrap gap-2">
            {page > 0 && (
              <Link href={page > 1 ? `/nfts?page=${page - 1}` : '/nfts'} className={pageLink}>
                ← Previous
              </Link>
            )}
            {more && (
              <Link href={`/nfts?page=${page + 1}`} className={pageLink}>
                Next →
              </Link>
            )}
          </nav>
        </>
      )}
    </Card>
  );
}
