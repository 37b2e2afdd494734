import Link from 'next/link';

export default function HomePage() {
  return (
    <div className="space-y-8">
      <section className="rounded-2xl bg-gradient-to-br from-brand-600 to-brand-700 px-6 py-10 text-white shadow-sm sm:px-10">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Atlas</h1>
        <p className="mt-2 max-w-2xl text-base text-white/90 sm:text-lg">
          An open explorer for The Open Network, with toncenter-compatible APIs you can host yourself.
        </p>
      </section>
      <section aria-labelledby="apis" className="grid gap-4 sm:grid-cols-2">
        <h2 id="apis" className="sr-only">
          APIs
        </h2>
        <Card title="API v2" href="/api-docs#v2">
          Live reads through a lite-client: accounts, blocks, transactions, get-methods, sending messages.
        </Card>
        <Card title="API v3" href="/api-docs#v3">
          Indexed history: transactions, messages, account states, jettons, NFTs, DNS and traces.
        </Card>
      </section>
    </div>
  );
}

function Card({ title, href, children }: { title: string; href: string; children: React.ReactNode }) {
  return (
    <Link
      href={href}
      className="block rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-500 dark:border-slate-800 dark:bg-slate-900"
    >
      <h3 className="font-semibold">{title}</h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{children}</p>
    </Link>
  );
}
