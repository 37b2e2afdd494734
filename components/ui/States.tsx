import Link from 'next/link';
import type { ReactNode } from 'react';

export function NotFoundState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="py-12 text-center">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <div className="mt-2 text-slate-600 dark:text-slate-400">{children}</div>
      <Link href="/" className="mt-6 inline-block text-brand-600 underline dark:text-brand-500">
        Back to the home page
      </Link>
    </div>
  );
}

export function ErrorNote({ error }: { error: unknown }) {
  return (
    <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
      Could not load: {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="py-4 text-sm text-slate-600 dark:text-slate-400">{children}</p>;
}
