import type { ReactNode } from 'react';

export function Card({ title, children, actions, id }: { title?: ReactNode; children: ReactNode; actions?: ReactNode; id?: string }) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section id={id} aria-labelledby={headingId} className="min-w-0 rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      {title && (
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
          <h2 id={headingId} className="font-semibold">
            {title}
          </h2>
          {actions}
        </div>
      )}
      <div className="min-w-0 p-4">{children}</div>
    </section>
  );
}

/** Label/value rows: two columns on wide screens, stacked on phones. */
export function Fields({ rows }: { rows: [ReactNode, ReactNode][] }) {
  return (
    <dl className="divide-y divide-slate-100 dark:divide-slate-800">
      {rows.map(([k, v], i) => (
        <div key={i} className="grid gap-1 py-2 sm:grid-cols-[14rem_minmax(0,1fr)] sm:gap-4">
          <dt className="text-sm text-slate-600 dark:text-slate-400">{k}</dt>
          <dd className="min-w-0 break-words text-sm">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Status({ ok, okText = 'Success', failText = 'Failed' }: { ok: boolean; okText?: string; failText?: string }) {
  return ok ? (
    <span className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-300">
      <span aria-hidden="true">✓</span> {okText}
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800 dark:bg-red-900/50 dark:text-red-300">
      <span aria-hidden="true">✕</span> {failText}
    </span>
  );
}

export function Badge({ children }: { children: ReactNode }) {
  return <span className="inline-flex items-center rounded bg-slate-200 px-1.5 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-300">{children}</span>;
}

export function PageTitle({ children, sub }: { children: ReactNode; sub?: ReactNode }) {
  return (
    <div className="mb-4 min-w-0">
      <h1 className="break-words text-2xl font-bold tracking-tight">{children}</h1>
      {sub && <div className="mt-1 min-w-0 text-sm text-slate-600 dark:text-slate-400">{sub}</div>}
    </div>
  );
}
