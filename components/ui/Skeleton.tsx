// Placeholders with the final layout's shape, so nothing jumps when data arrives.
export function SkeletonLine({ className = 'w-40' }: { className?: string }) {
  return <span aria-hidden="true" className={`inline-block h-4 animate-pulse rounded bg-slate-200 dark:bg-slate-800 ${className}`} />;
}

export function SkeletonCard({ rows = 6, title = true }: { rows?: number; title?: boolean }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      {title && (
        <div className="border-b border-slate-200 px-4 py-3 dark:border-slate-800">
          <SkeletonLine className="w-32" />
        </div>
      )}
      <div className="space-y-3 p-4">
        {Array.from({ length: rows }, (_, i) => (
          <div key={i} className="grid gap-4 sm:grid-cols-[14rem_1fr]">
            <SkeletonLine className="w-28" />
            <SkeletonLine className={i % 2 ? 'w-2/3' : 'w-1/2'} />
          </div>
        ))}
      </div>
    </div>
  );
}

export function PageSkeleton({ cards = 2 }: { cards?: number }) {
  return (
    <div role="status" aria-label="Loading" className="space-y-4">
      <SkeletonLine className="h-7 w-64" />
      {Array.from({ length: cards }, (_, i) => (
        <SkeletonCard key={i} rows={i === 0 ? 8 : 5} />
      ))}
    </div>
  );
}
