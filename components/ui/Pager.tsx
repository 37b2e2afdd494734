import Link from 'next/link';

const linkClass =
  'rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:border-brand-500 focus-visible:outline-2 focus-visible:outline-brand-500 dark:border-slate-700';

/**
 * Cursor paging by links (works without JavaScript and can be shared): `cursor` names a position in
 * the list (an lt or seqno), never an offset from the top, so a moving chain causes no repeats or gaps.
 */
export function Pager({ base, param = 'cursor', current, next, anchor = '' }: { base: string; param?: string; current?: string; next?: string; anchor?: string }) {
  const href = (c: string) => `${base}${base.includes('?') ? '&' : '?'}${param}=${encodeURIComponent(c)}${anchor}`;
  if (!current && !next) return null;
  return (
    <nav aria-label="Pages" className="mt-3 flex flex-wrap items-center gap-2">
      {current && (
        <Link href={`${base}${anchor}`} className={linkClass}>
          ← Newest
        </Link>
      )}
      {next && (
        <Link href={href(next)} className={linkClass} rel="next">
          Older →
        </Link>
      )}
    </nav>
  );
}
