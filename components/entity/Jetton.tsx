import Link from 'next/link';
import type { AddressBookJson } from '@/lib/api/v3/models/common';
import type { JettonMasterJson } from '@/lib/api/v3/models/jettons';
import { jettonDisplay, jettonLabel } from '@/lib/format/jetton';
import { middle } from '@/lib/format/hash';
import { displayAddress } from './Address';
import { ChainTextPreview } from './ChainText';

export const jettonHref = (master: string, book?: AddressBookJson) => `/jetton/${encodeURIComponent(displayAddress(master, book))}`;

/**
 * A jetton as everywhere in the explorer: a link to its page named by its symbol (or name) as the master's
 * content says, else by its shortened address. Names are the issuer's words: shown inert, never trusted
 * as an identity (the address is the tooltip).
 */
export function JettonLink({ master, info, book }: { master: string; info?: JettonMasterJson; book?: AddressBookJson }) {
  const label = info ? jettonLabel(jettonDisplay(info.jetton_content)) : undefined;
  const shown = displayAddress(master, book);
  return (
    <Link href={jettonHref(master, book)} className="inline-flex min-w-0 max-w-full text-sm text-brand-600 hover:underline dark:text-brand-500" title={shown}>
      {label ? <ChainTextPreview text={label} max={24} /> : <span className="font-mono">{middle(shown)}</span>}
    </Link>
  );
}

/** A placeholder image for a token: its first letter. Images named by metadata are never fetched by the browser. */
export function TokenAvatar({ label }: { label: string | undefined }) {
  const letter = label ? [...label.trim()][0]?.toUpperCase() : undefined;
  return (
    <span aria-hidden="true" className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-600/15 font-semibold text-brand-600 dark:text-brand-500">
      {letter && /\p{L}|\p{N}/u.test(letter) ? letter : '?'}
    </span>
  );
}
