import Link from 'next/link';

export default function NotFound() {
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">This page does not exist (yet).</p>
      <Link href="/" className="mt-6 inline-block text-brand-600 underline dark:text-brand-500">
        Back to the home page
      </Link>
    </div>
  );
}
