'use client';

// The interactive reference of an API (/api-docs/v2, /api-docs/v3; toncenter's documentation paths
// /api/v2/ and /api/v3/index.html lead here): every operation of its OpenAPI document, grouped by tag,
// each with a console that sends a real request to this server and shows the answer. Rendered from the
// document itself, in the page (no third-party UI, nothing loaded from elsewhere).
import { useMemo, useState } from 'react';
import {
  bodyTemplate,
  consoleUrl,
  sendConsoleRequest,
  type ConsoleAnswer,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
} from '@/lib/client/console';
import { Badge, Card, PageTitle } from '../ui/Card';

interface Entry {
  method: 'get' | 'post';
  path: string;
  op: OpenApiOperation;
}

const inputClass =
  'w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-sm dark:border-slate-700 dark:bg-slate-950 focus-visible:outline-2 focus-visible:outline-brand-500';

/** Operations by their first tag, in the document's order. */
function grouped(doc: OpenApiDocument, filter: string): [string, Entry[]][] {
  const groups = new Map<string, Entry[]>();
  const needle = filter.trim().toLowerCase();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post'] as const) {
      const op = item[method];
      if (!op) continue;
      if (needle && !`${path} ${op.summary ?? ''}`.toLowerCase().includes(needle)) continue;
      const tag = op.tags?.[0] ?? 'other';
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, op }]);
    }
  }
  return [...groups];
}

export function ApiReference({ doc, documentUrl }: { doc: OpenApiDocument; documentUrl: string }) {
  const [apiKey, setApiKey] = useState('');
  const [filter, setFilter] = useState('');
  const groups = useMemo(() => grouped(doc, filter), [doc, filter]);
  return (
    <div className="space-y-4">
      <PageTitle sub={<>Version {doc.info.version} · the OpenAPI document: <a className="text-brand-600 underline dark:text-brand-500" href={documentUrl}>{documentUrl}</a></>}>
        {doc.info.title}
      </PageTitle>
      {doc.info.description && <p className="text-sm text-slate-700 dark:text-slate-300">{doc.info.description}</p>}
      <Card>
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="grid gap-1 text-sm">
            API key (optional; sent as X-API-Key)
            <input className={inputClass} value={apiKey} onChange={(e) => setApiKey(e.target.value)} autoComplete="off" spellCheck={false} />
          </label>
          <label className="grid gap-1 text-sm">
            Find an operation
            <input className={inputClass} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="e.g. transactions" />
          </label>
        </div>
      </Card>
      {groups.map(([tag, entries]) => (
        <Card key={tag} title={tag} id={`tag-${tag.replace(/[^a-z0-9]+/gi, '-')}`}>
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {entries.map((e) => (
              <li key={`${e.method} ${e.path}`}>
                <Operation entry={e} apiKey={apiKey} />
              </li>
            ))}
          </ul>
        </Card>
      ))}
      {!groups.length && <p className="text-sm text-slate-600 dark:text-slate-400">No operation matches.</p>}
    </div>
  );
}

function Operation({ entry, apiKey }: { entry: Entry; apiKey: string }) {
  const { method, path, op } = entry;
  return (
    <details className="group py-2" data-testid={`operation-${method}-${path}`}>
      <summary className="flex min-w-0 cursor-pointer flex-wrap items-baseline gap-x-2 gap-y-1 rounded focus-visible:outline-2 focus-visible:outline-brand-500">
        <span className={`w-12 shrink-0 font-mono text-xs font-semibold uppercase ${method === 'get' ? 'text-emerald-700 dark:text-emerald-400' : 'text-brand-700 dark:text-brand-500'}`}>{method}</span>
        <span className="break-all font-mono text-sm">{path}</span>
        {op.deprecated && <Badge>deprecated</Badge>}
        <span className="min-w-0 text-sm text-slate-600 dark:text-slate-400">{op.summary}</span>
      </summary>
      <div className="mt-3 space-y-3 pl-0 sm:pl-14">
        {op.description && <p className="text-sm text-slate-700 dark:text-slate-300">{op.description}</p>}
        <Console entry={entry} apiKey={apiKey} />
        <Responses op={op} />
      </div>
    </details>
  );
}

function Responses({ op }: { op: OpenApiOperation }) {
  const rows = Object.entries(op.responses ?? {});
  if (!rows.length) return null;
  return (
    <dl className="grid gap-x-3 gap-y-1 text-sm sm:grid-cols-[4rem_minmax(0,1fr)]">
      {rows.map(([code, r]) => (
        <div key={code} className="contents">
          <dt className="font-mono text-slate-600 dark:text-slate-400">{code}</dt>
          <dd className="min-w-0 break-words">{r.description}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A query value as typed: a list parameter takes values separated by commas or new lines. */
const queryValue = (p: OpenApiParameter, v: string): string | string[] =>
  p.schema?.type === 'array' ? v.split(/[,\n]/).map((x) => x.trim()).filter(Boolean) : v;

function Console({ entry, apiKey }: { entry: Entry; apiKey: string }) {
  const { method, path, op } = entry;
  const params = (op.parameters ?? []).filter((p) => p.in === 'query' && p.name !== 'api_key');
  const [values, setValues] = useState<Record<string, string>>({});
  const [body, setBody] = useState(() => (method === 'post' ? bodyTemplate(op.requestBody?.content?.['application/json']?.schema) : ''));
  const [answer, setAnswer] = useState<ConsoleAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const query = Object.fromEntries(params.filter((p) => values[p.name]?.trim()).map((p) => [p.name, queryValue(p, values[p.name]!)]));
  const send = async () => {
    setBusy(true);
    setAnswer(await sendConsoleRequest({ method, path, query, body, apiKey }));
    setBusy(false);
  };
  return (
    <form className="space-y-3" onSubmit={(e) => (e.preventDefault(), void send())}>
      {params.map((p) => (
        <label key={p.name} className="grid gap-1 text-sm sm:grid-cols-[12rem_minmax(0,1fr)] sm:items-start sm:gap-3">
          <span className="min-w-0 break-words">
            <span className="font-mono">{p.name}</span>
            {p.required && <span className="text-red-700 dark:text-red-400"> required</span>}
            {(p.description ?? p.schema?.description) && <span className="block text-xs text-slate-600 dark:text-slate-400">{p.description ?? p.schema?.description}</span>}
          </span>
          {p.schema?.enum ? (
            <select className={inputClass} value={values[p.name] ?? ''} onChange={(e) => setValues({ ...values, [p.name]: e.target.value })}>
              <option value="">—</option>
              {p.schema.enum.map((v) => (
                <option key={String(v)}>{String(v)}</option>
              ))}
            </select>
          ) : (
            <input className={inputClass} value={values[p.name] ?? ''} onChange={(e) => setValues({ ...values, [p.name]: e.target.value })} spellCheck={false} />
          )}
        </label>
      ))}
      {method === 'post' && (
        <label className="grid gap-1 text-sm">
          JSON body
          <textarea className={`${inputClass} h-36`} value={body} onChange={(e) => setBody(e.target.value)} spellCheck={false} />
        </label>
      )}
      <div className="flex min-w-0 flex-wrap items-center gap-3">
        <button type="submit" disabled={busy} className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500">
          {busy ? 'Sending…' : 'Send'}
        </button>
        <code className="min-w-0 break-all text-xs text-slate-600 dark:text-slate-400">
          {method.toUpperCase()} {consoleUrl({ path, query })}
        </code>
      </div>
      {answer && (
        <div className="space-y-1" data-testid="console-answer">
          <p className="text-sm">
            <span className="font-semibold">{answer.status || 'no answer'}</span> <span className="text-slate-600 dark:text-slate-400">in {answer.ms} ms</span>
          </p>
          <pre className="max-h-96 overflow-auto rounded-md bg-slate-100 p-3 text-xs dark:bg-slate-950">{answer.text}</pre>
        </div>
      )}
    </form>
  );
}
