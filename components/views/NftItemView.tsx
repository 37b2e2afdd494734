'use client';

import type { NftSaleJson } from '@/lib/api/v3/models/nfts';
import { itemTransfersParams } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { contentDisplay, nftAttributes } from '@/lib/format/nft';
import { Address, displayAddress } from '../entity/Address';
import { Amount } from '../entity/Amount';
import { ChainText, ChainTextPreview } from '../entity/ChainText';
import { CopyableAddress } from '../entity/CopyButton';
import { NftImage, NftLink } from '../entity/Nft';
import { Time } from '../entity/Time';
import { Badge, Card, Fields, PageTitle } from '../ui/Card';
import { PageSkeleton, SkeletonLine } from '../ui/Skeleton';
import { ErrorNote, NotFoundState } from '../ui/States';
import { ItemDomain } from './ItemDomain';
import { NftTransfersList } from './NftTransfersList';

type Row = [string, React.ReactNode];

const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);

/** What a GetGems sale or auction asks, in TON; the fields as the sale's get-method answered them. */
function saleRows(sale: NftSaleJson, book: Parameters<typeof Address>[0]['book']): Row[] {
  const d = sale.details;
  // Only whole nanoton counts are amounts; anything else a contract answered is left out rather than guessed.
  const ton = (k: string, label: string): Row[] => (/^\d{1,40}$/.test(str(d[k]) ?? '') ? [[label, <Amount key={k} value={str(d[k])} />]] : []);
  const rows: Row[] = [
    ['Contract', <Address key="a" raw={sale.address} book={book} />],
    ['Kind', sale.type === 'getgems_auction' ? 'auction (GetGems)' : sale.type === 'getgems_sale' ? 'fixed-price sale (GetGems)' : sale.type],
  ];
  if (sale.type === 'getgems_sale') rows.push(...ton('full_price', 'Price'), ...ton('marketplace_fee', 'Marketplace fee'), ...ton('royalty_amount', 'Royalty'));
  else rows.push(...ton('last_bid', 'Last bid'), ...ton('min_bid', 'Minimum bid'), ...ton('max_bid', 'Buy-now price'));
  if (sale.type !== 'getgems_sale' && /^\d{1,12}$/.test(str(d.end_time) ?? '')) rows.push(['Ends', <Time key="e" utime={str(d.end_time)!} />]);
  if (sale.marketplace_address) rows.push(['Marketplace', <Address key="m" raw={sale.marketplace_address} book={book} />]);
  if (sale.created_at) rows.push(['Listed', <Time key="c" utime={sale.created_at} />]);
  return rows;
}

/**
 * An NFT item: content (name, description, attributes), owner — or, while a sale or auction holds it,
 * the seller behind it and the price —, its collection and index, the SBT marker, and its transfers.
 */
export function NftItemView({ address }: { address: string }) {
  const q = useResource('nftItems', { address: [address] });
  const item = q.data?.nft_items[0];
  const transfers = useResource('nftTransfers', itemTransfersParams(item?.address ?? ''), { enabled: !!item });
  const saleAddress = item?.sale_contract_address ?? item?.auction_contract_address;
  const sales = useResource('nftSales', { address: saleAddress ? [saleAddress] : [] }, { enabled: !!saleAddress });
  if (q.error) return <ErrorNote error={q.error} />;
  if (!q.data) return <PageSkeleton cards={3} />;
  if (!item) return <NotFoundState title="Not an NFT">The index knows no NFT item at this address.</NotFoundState>;
  const book = q.data.address_book;
  const d = contentDisplay(item.content);
  const attributes = nftAttributes(item.content);
  const interfaces = book[item.address]?.interfaces ?? [];
  const sbt = interfaces.includes('sbt');
  const dns = interfaces.includes('dns');
  const shown = displayAddress(item.address, book);
  const sale = sales.data?.nft_sales[0];
  const title = d.name ?? `#${item.index}`;
  return (
    <div className="space-y-4">
      <PageTitle sub={<CopyableAddress shown={shown} label="Copy NFT address" />}>
        <ChainTextPreview text={title} max={80} /> {sbt && <Badge>SBT · soulbound</Badge>} {item.on_sale && <Badge>on sale</Badge>}
      </PageTitle>
      <Card title="Overview" id="overview">
        <div className="flex flex-col gap-4 sm:flex-row">
          <NftImage content={item.content} label={d.name} size="lg" />
          <div className="min-w-0 flex-1">
            <Fields
              rows={[
                ...(item.on_sale && item.real_owner
                  ? ([
                      ['Owner', <Address key="ro" raw={item.real_owner} book={book} />],
                      ['Held by', <span key="h" className="inline-flex flex-wrap items-center gap-1">{item.auction_contract_address ? 'auction' : 'sale'} contract <Address raw={item.owner_address} book={book} /></span>],
                    ] as Row[])
                  : ([['Owner', <Address key="o" raw={item.owner_address} book={book} />]] as Row[])),
                [
                  'Collection',
                  item.collection_address ? (
                    <NftLink key="c" address={item.collection_address} content={item.collection?.collection_content} book={book} collection />
                  ) : (
                    'none (a standalone item)'
                  ),
                ],
                ['Index', item.index],
                ...(sbt ? ([['Soulbound', 'yes: the owner cannot transfer it (TEP-85)']] as Row[]) : []),
                ...(dns ? ([['Domain', <ItemDomain key="dn" item={item.address} content={item.content} fallback="a .ton name the index has no records of" />]] as Row[]) : []),
                ...(d.description ? ([['Description', <ChainText key="d" text={d.description} label="Description" max={500} />]] as Row[]) : []),
                ...(d.uri ? ([['Metadata URI (not fetched)', <ChainText key="u" text={d.uri} label="Metadata URI" max={200} />]] as Row[]) : []),
                ...(d.image ? ([['Image URL (not loaded)', <ChainText key="i" text={d.image} label="Image URL" max={200} />]] as Row[]) : []),
              ]}
            />
          </div>
        </div>
      </Card>
      {attributes.length > 0 && (
        <Card title="Attributes" id="attributes">
          <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3" data-testid="nft-attributes">
            {attributes.map((a, i) => (
              <li key={i} className="min-w-0 rounded-lg border border-slate-200 p-2 text-sm dark:border-slate-800">
                <div className="text-xs text-slate-600 dark:text-slate-400">
                  <ChainText text={a.trait} label="Trait" max={40} />
                </div>
                <ChainText text={a.value} label="Value" max={80} />
              </li>
            ))}
          </ul>
        </Card>
      )}
      {saleAddress && (
        <Card title="Sale" id="sale">
          {sales.error ? <ErrorNote error={sales.error} /> : !sales.data ? <SkeletonLine className="w-full" /> : sale ? <Fields rows={saleRows(sale, { ...book, ...sales.data.address_book })} /> : <Address raw={saleAddress} book={book} />}
        </Card>
      )}
      <Card title="History" id="history">
        {transfers.error ? <ErrorNote error={transfers.error} /> : !transfers.data ? <SkeletonLine className="w-full" /> : <NftTransfersList data={transfers.data} showItem={false} />}
      </Card>
    </div>
  );
}
