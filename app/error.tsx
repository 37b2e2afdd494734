'use client';

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="py-12 text-center">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">{error.message || 'The data could not be loaded.'}</p>
      <button type="button" onClick={reset} className="mt-6 rounded-md bg-brand-600 px-4 py-2 text-white hover:bg-brand-700">
        Try again
      </button>
    </div>
  );
}
