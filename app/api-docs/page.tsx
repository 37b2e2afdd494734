import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'API' };

const SECTIONS = [
  {
    id: 'v2',
    title: 'API v2 — live chain reads',
    base: '/api/v2',
    reference: { page: '/api-docs/v2', document: '/api/v2/openapi.json' },
    text: 'toncenter-compatible non-indexed API over a lite-client: REST GET and POST per method, and JSON-RPC at /api/v2/jsonRPC. Errors use {ok:false, code, error}.',
  },
  {
    id: 'v3',
    title: 'API v3 — indexed data',
    base: '/api/v3',
    reference: { page: '/api-docs/v3', document: '/api/v3/doc.json' },
    text: 'toncenter-compatible index API over Atlas’s own database: blocks, transactions, messages, account states and more. Errors use {error} with the HTTP status.',
  },
  {
    id: 'streaming',
    title: 'Streaming API v2 — pushed as it happens',
    base: '/api/streaming/v2',
    reference: { page: '/api-docs/streaming', document: '/api/streaming/v2/openapi.json' },
    text: 'toncenter-compatible streams of transactions, actions, traces, account states and jetton wallets at pending, confirmed and finalized: POST /api/streaming/v2/sse (server-sent events) and /api/streaming/v2/ws (WebSocket). Needs npm start (its HTTP edge serves the streams).',
  },
  { id: 'health', title: 'Health', base: '/api/health', text: 'Status of the database, the chain connection and the indexer.' },
];

export default function ApiDocsPage() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">API</h1>
      {SECTIONS.map((s) => (
        <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900">
          <h2 id={`${s.id}-title`} className="font-semibold">
            {s.title}
          </h2>
          <p className="mt-1 font-mono text-sm text-brand-700 dark:text-brand-500">{s.base}</p>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{s.text}</p>
          {'reference' in s && s.reference && (
            <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
              <Link href={s.reference.page} className="text-brand-600 hover:underline dark:text-brand-500">
                Reference and console
              </Link>
              <a href={s.reference.document} className="text-brand-600 hover:underline dark:text-brand-500">
                OpenAPI document
              </a>
            </p>
          )}
        </section>
      ))}
    </div>
  );
}
