import Link from 'next/link';
import type { AddressBookJson } from '@/lib/api/v3/models/common';
import { middle } from '@/lib/format/hash';
import { ChainTextPreview } from './ChainText';
import { CopyButton } from './CopyButton';

/** `wallet_v4r2` → `wallet v4r2`: the first interface that names what the account is. */
export function interfaceLabel(interfaces: readonly string[] | null | undefined): string | undefined {
  const first = interfaces?.find((i) => i.trim());
  return first?.trim().replace(/_/g, ' ');
}

/** The form people paste: the address book's user-friendly form, else raw. */
export const displayAddress = (raw: string, book?: AddressBookJson) => book?.[raw]?.user_friendly ?? raw;

export const accountHref = (raw: string, book?: AddressBookJson) => `/account/${encodeURIComponent(displayAddress(raw, book))}`;

export function Address({ raw, book, full = false, noLink = false }: { raw: string | null; book?: AddressBookJson; full?: boolean; noLink?: boolean }) {
  if (!raw) return <span className="text-slate-500 dark:text-slate-400">external</span>;
  const shown = displayAddress(raw, book);
  const label = interfaceLabel(book?.[raw]?.interfaces);
  // The account's own .ton name (its wallet record points back at it): what people call it.
  const domain = book?.[raw]?.domain ?? undefined;
  const text = full ? shown : middle(shown);
  return (
    <span className="inline-flex min-w-0 max-w-full items-center gap-1 align-middle">
      {noLink ? (
        <span className={`font-mono text-sm ${full ? 'break-all' : 'shrink-0'}`} title={shown}>
          {text}
        </span>
      ) : (
        <Link href={accountHref(raw, book)} className={`font-mono text-sm text-brand-600 hover:underline dark:text-brand-500 ${full ? 'break-all' : 'shrink-0'}`} title={shown}>
          {text}
        </Link>
      )}
      {domain && (
        <span className="min-w-0 truncate text-sm font-medium text-slate-800 dark:text-slate-200" data-testid="address-domain">
          <ChainTextPreview text={domain} max={40} />
        </span>
      )}
      {label && <span className="min-w-0 truncate rounded bg-slate-200 px-1.5 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-300">{label}</span>}
      <CopyButton value={shown} label="Copy address" />
    </span>
  );
}
