import Link from 'next/link';
import { NAV_ITEMS } from './nav';
import { SearchBox } from './SearchBox';
import { ThemeToggle } from './ThemeToggle';

const linkClass =
  'rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-200 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white';

export function Header() {
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
      <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-3">
        <Link href="/" className="flex shrink-0 items-center gap-2 text-lg font-bold tracking-tight">
          <span aria-hidden="true" className="inline-block size-6 rounded-full bg-brand-600" />
          Atlas
        </Link>
        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {NAV_ITEMS.map((item) => (
              <li key={item.href}>
                <Link href={item.href} className={linkClass}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <SearchBox className="ml-auto hidden w-full max-w-md md:block" />
        <div className="ml-auto flex items-center gap-1 md:ml-0">
          <ThemeToggle />
          {/* <details> gives a working mobile menu without JavaScript. */}
          <details className="relative lg:hidden">
            <summary className="cursor-pointer list-none rounded-md p-2 hover:bg-slate-200 dark:hover:bg-slate-800" aria-label="Menu">
              <span aria-hidden="true">☰</span>
            </summary>
            <nav aria-label="Mobile" className="absolute right-0 mt-2 w-56 rounded-lg border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900">
              <ul className="flex flex-col">
                {NAV_ITEMS.map((item) => (
                  <li key={item.href}>
                    <Link href={item.href} className={`block ${linkClass}`}>
                      {item.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          </details>
        </div>
      </div>
      <div className="px-4 pb-3 md:hidden">
        <SearchBox id="site-search-mobile" />
      </div>
    </header>
  );
}
