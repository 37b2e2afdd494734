'use client';

import { accountNftsParams } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { contentDisplay } from '@/lib/format/nft';
import { NftImage, NftLink } from '../entity/Nft';
import { Card } from '../ui/Card';
import { SkeletonLine } from '../ui/Skeleton';
import { ErrorNote } from '../ui/States';

/** The NFTs an account owns (items it has put on sale included), as a small grid; nothing when it owns none. */
export function AccountNfts({ address }: { address: string }) {
  const q = useResource('nftItems', accountNftsParams(address));
  if (q.data && !q.data.nft_items.length) return null;
  return (
    <Card title="NFTs" id="nfts">
      {q.error ? (
        <ErrorNote error={q.error} />
      ) : !q.data ? (
        <div role="status" aria-label="Loading NFTs" className="space-y-3">
          <SkeletonLine className="w-full" />
        </div>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6" data-testid="account-nfts">
          {q.data.nft_items.map((i) => {
            const d = contentDisplay(i.content);
            const collection = contentDisplay(i.collection?.collection_content).name;
            return (
              <li key={i.address} className="flex min-w-0 flex-col items-start gap-1 rounded-lg border border-slate-200 p-2 dark:border-slate-800">
                <NftImage content={i.content} label={d.name} size="sm" />
                <NftLink address={i.address} content={i.content} book={q.data!.address_book} fallback={collection ? `${collection} #${i.index}` : `#${i.index}`} />
                {i.on_sale && <span className="text-xs text-amber-700 dark:text-amber-400">on sale</span>}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
