// A plain GET form: search works before (and without) JavaScript.
export function SearchBox({ className = '', id = 'site-search', defaultValue }: { className?: string; id?: string; defaultValue?: string }) {
  return (
    <form action="/search" method="get" role="search" className={className}>
      <label htmlFor={id} className="sr-only">
        Search by address, transaction, block or domain
      </label>
      <input
        id={id}
        defaultValue={defaultValue}
        name="q"
        type="search"
        autoComplete="off"
        spellCheck={false}
        placeholder="Search by address, tx hash, block or domain"
        className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 dark:border-slate-700 dark:bg-slate-900 dark:placeholder:text-slate-400"
      />
    </form>
  );
}
