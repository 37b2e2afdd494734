/* eslint-disable @next/next/no-img-element -- a data: URI checked by its magic bytes; next/image would fetch through the server */
import Link from 'next/link';
import type { AddressBookJson } from '@/lib/api/v3/models/common';
import { middle } from '@/lib/format/hash';
import { contentDisplay, imageDataUri } from '@/lib/format/nft';
import { displayAddress } from './Address';
import { ChainTextPreview } from './ChainText';

type Content = Record<string, string> | null | undefined;

export const nftHref = (item: string, book?: AddressBookJson) => `/nft/${encodeURIComponent(displayAddress(item, book))}`;
export const collectionHref = (collection: string, book?: AddressBookJson) => `/nft/collection/${encodeURIComponent(displayAddress(collection, book))}`;
export const dnsHref = (domain: string) => `/dns/${encodeURIComponent(domain)}`;

/**
 * An NFT's picture: on-chain `image_data` when its bytes are a PNG, JPEG, GIF or WebP, else a placeholder
 * with the name's first letter. An `image` URL is never loaded (the browser would call an arbitrary host).
 */
export function NftImage({ content, label, size = 'md' }: { content: Content; label?: string; size?: 'sm' | 'md' | 'lg' }) {
  const src = imageDataUri(contentDisplay(content).imageData);
  const box = size === 'lg' ? 'h-48 w-48' : size === 'sm' ? 'h-12 w-12' : 'h-24 w-24';
  if (src) return <img src={src} alt="" className={`${box} shrink-0 rounded-lg object-cover`} />;
  const letter = label ? [...label.trim()][0]?.toUpperCase() : undefined;
  return (
    <span aria-hidden="true" data-testid="nft-placeholder" className={`${box} inline-flex shrink-0 items-center justify-center rounded-lg bg-brand-600/15 text-2xl font-semibold text-brand-600 dark:text-brand-500`}>
      {letter && /\p{L}|\p{N}/u.test(letter) ? letter : '◆'}
    </span>
  );
}

/** An NFT item or collection as everywhere: a link named by its content's name, else its shortened address. */
export function NftLink({ address, content, book, collection = false, fallback }: { address: string; content: Content; book?: AddressBookJson; collection?: boolean; fallback?: string }) {
  const name = contentDisplay(content).name ?? fallback;
  const shown = displayAddress(address, book);
  return (
    <Link href={collection ? collectionHref(address, book) : nftHref(address, book)} className="inline-flex min-w-0 max-w-full text-sm text-brand-600 hover:underline dark:text-brand-500" title={shown}>
      {name ? <ChainTextPreview text={name} max={40} /> : <span className="font-mono">{middle(shown)}</span>}
    </Link>
  );
}

/** A .ton name: a link to its DNS page. */
export function DomainLink({ domain }: { domain: string }) {
  return (
    <Link href={dnsHref(domain)} className="inline-flex min-w-0 max-w-full font-mono text-sm text-brand-600 hover:underline dark:text-brand-500">
      <ChainTextPreview text={domain} max={64} />
    </Link>
  );
}
