'use client';

import { accountNftsParams } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { DomainLink, NftLink } from '../entity/Nft';
import { Card } from '../ui/Card';
import { ErrorNote } from '../ui/States';
import { ItemDomain } from './ItemDomain';

/**
 * The .ton names an account owns: its NFT items that answer dnsresolve (the `dns` interface), read from
 * the same query as its NFTs card; and the names whose wallet record points at it (dns/records?wallet).
 */
export function AccountDomains({ address }: { address: string }) {
  const items = useResource('nftItems', accountNftsParams(address));
  const pointing = useResource('dnsRecords', { wallet: address });
  const owned = (items.data?.nft_items ?? []).filter((i) => items.data!.address_book[i.address]?.interfaces?.includes('dns'));
  const resolving = pointing.data?.records ?? [];
  if (!owned.length && !resolving.length) return items.error ? <ErrorNote error={items.error} /> : null;
  return (
    <Card title="Domains" id="domains">
      <div className="space-y-3" data-testid="account-domains">
        {owned.length > 0 && (
          <div>
            <h3 className="text-sm text-slate-600 dark:text-slate-400">Owned</h3>
            <ul className="flex flex-wrap gap-3">
              {owned.map((i) => (
                <li key={i.address}>
                  <ItemDomain item={i.address} content={i.content} fallback={<NftLink address={i.address} content={i.content} book={items.data!.address_book} fallback="a .ton name" />} />
                </li>
              ))}
            </ul>
          </div>
        )}
        {resolving.length > 0 && (
          <div>
            <h3 className="text-sm text-slate-600 dark:text-slate-400">Names whose wallet record points here</h3>
            <ul className="flex flex-wrap gap-3">
              {resolving.map((r) => (
                <li key={r.nft_item_address}>
                  <DomainLink domain={r.domain} />
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </Card>
  );
}
