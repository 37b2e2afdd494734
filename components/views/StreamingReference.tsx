// The Streaming API's reference (/api-docs/streaming), rendered from its OpenAPI document
// (/api/streaming/v2/openapi.json): the endpoints, the subscription's fields, the WebSocket messages and
// every notification's payload, each field with its type and description. The live console is
// StreamConsole (a WebSocket opened from the page).
import { Badge, Card, PageTitle } from '../ui/Card';
import { StreamConsole } from './StreamConsole';

export interface JsonSchemaDoc {
  type?: string | string[];
  description?: string;
  const?: unknown;
  enum?: unknown[];
  $ref?: string;
  anyOf?: JsonSchemaDoc[];
  oneOf?: JsonSchemaDoc[];
  items?: JsonSchemaDoc;
  properties?: Record<string, JsonSchemaDoc>;
  additionalProperties?: JsonSchemaDoc | boolean;
  required?: string[];
}

interface OperationDoc {
  summary?: string;
  description?: string;
  responses?: Record<string, { description?: string }>;
}

export interface StreamingDoc {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Partial<Record<'get' | 'post', OperationDoc>>>;
  components: { schemas: Record<string, JsonSchemaDoc> };
}

const refName = (ref: string) => ref.split('/').pop()!;

/** A description's text, its `code spans` (the document's Markdown) shown as code. */
function Described({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) =>
        i % 2 ? (
          <code key={i} className="rounded bg-slate-100 px-1 font-mono text-xs dark:bg-slate-800">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** A schema's type in a few words: `string`, `list of string`, `Transaction`, `map of Transaction`, `"trace"`. */
export function typeText(s: JsonSchemaDoc | undefined): string {
  if (!s) return 'any';
  if (s.$ref) return refName(s.$ref);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return [...new Set(alternatives.filter((a) => a.type !== 'null').map(typeText))].join(' | ');
  if (s.type === 'array') return `list of ${typeText(s.items)}`;
  if (s.type === 'object' && typeof s.additionalProperties === 'object') return `map of ${typeText(s.additionalProperties)}`;
  // null is how an optional field may be sent: said by the field table's words, not as a type.
  return Array.isArray(s.type) ? s.type.filter((t) => t !== 'null').join(' | ') : (s.type ?? 'any');
}

function FieldTable({ schema, label }: { schema: JsonSchemaDoc | undefined; label: string }) {
  const required = new Set(schema?.required ?? []);
  return (
    <table className="w-full table-fixed text-left text-sm" aria-label={label}>
      <thead className="text-slate-600 dark:text-slate-400">
        <tr>
          <th className="w-2/5 py-1 pr-3 font-medium sm:w-1/4">Field</th>
          <th className="py-1 font-medium">Type and meaning</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
        {Object.entries(schema?.properties ?? {}).map(([name, field]) => (
          <tr key={name} className="align-top">
            <td className="break-words py-1.5 pr-3 font-mono">
              {name}
              {required.has(name) && <span className="sr-only"> (always present)</span>}
            </td>
            <td className="min-w-0 break-words py-1.5">
              <span className="font-mono text-xs text-brand-700 dark:text-brand-500">{typeText(field)}</span>
              {field.description && (
                <span className="block text-slate-700 dark:text-slate-300">
                  <Described text={field.description} />
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The notification components, in the order the document's Notification lists them. */
function notificationNames(doc: StreamingDoc): string[] {
  return (doc.components.schemas.Notification?.oneOf ?? []).flatMap((s) => (s.$ref ? [refName(s.$ref)] : []));
}

export function StreamingReference({ doc, documentUrl }: { doc: StreamingDoc; documentUrl: string }) {
  const schemas = doc.components.schemas;
  return (
    <div className="space-y-4">
      <PageTitle sub={<>Version {doc.info.version} · the OpenAPI document: <a className="text-brand-600 underline dark:text-brand-500" href={documentUrl}>{documentUrl}</a></>}>{doc.info.title}</PageTitle>
      {doc.info.description && <p className="text-sm text-slate-700 dark:text-slate-300">{doc.info.description}</p>}
      <Card title="Endpoints" id="endpoints">
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {Object.entries(doc.paths).flatMap(([path, item]) =>
            (['post', 'get'] as const).flatMap((method) => {
              const op = item[method];
              if (!op) return [];
              return [
                <li key={`${method} ${path}`} className="space-y-1 py-2" data-testid={`endpoint-${method}-${path}`}>
                  <p className="flex min-w-0 flex-wrap items-baseline gap-x-2">
                    <span className="w-12 shrink-0 font-mono text-xs font-semibold uppercase text-brand-700 dark:text-brand-500">{method}</span>
                    <span className="break-all font-mono text-sm">{path}</span>
                    <span className="min-w-0 text-sm text-slate-600 dark:text-slate-400">{op.summary}</span>
                  </p>
                  {op.description && (
                    <p className="text-sm text-slate-700 dark:text-slate-300">
                      <Described text={op.description} />
                    </p>
                  )}
                  <dl className="grid gap-x-3 text-sm sm:grid-cols-[4rem_minmax(0,1fr)]">
                    {Object.entries(op.responses ?? {}).map(([code, r]) => (
                      <div key={code} className="contents">
                        <dt className="font-mono text-slate-600 dark:text-slate-400">{code}</dt>
                        <dd className="min-w-0 break-words">{r.description && <Described text={r.description} />}</dd>
                      </div>
                    ))}
                  </dl>
                </li>,
              ];
            }),
          )}
        </ul>
      </Card>
      <Card title="Subscription fields" id="fields">
        <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">The SSE request&apos;s JSON body (or its query, for GET) and a WebSocket <span className="font-mono">subscribe</span>.</p>
        <FieldTable schema={schemas.SubscriptionRequest} label="Subscription fields" />
      </Card>
      <Card title="WebSocket messages" id="websocket">
        <div className="space-y-4">
          {(['WsSubscribe', 'WsUnsubscribe', 'WsPing', 'StatusReply', 'ErrorReply'] as const).map((name) => (
            <section key={name} aria-label={name} className="space-y-1">
              <h3 className="flex items-center gap-2 font-mono text-sm font-semibold">
                {name} <Badge>{name.startsWith('Ws') ? 'client → server' : 'server → client'}</Badge>
              </h3>
              <FieldTable schema={schemas[name]} label={`${name} fields`} />
            </section>
          ))}
        </div>
      </Card>
      <Card title="Notifications" id="notifications">
        <div className="space-y-4">
          {notificationNames(doc).map((name) => (
            <section key={name} aria-label={name} className="space-y-1" data-testid={`notification-${name}`}>
              <h3 className="font-mono text-sm font-semibold">{typeText(schemas[name]?.properties?.type)}</h3>
              <FieldTable schema={schemas[name]} label={`${name} fields`} />
            </section>
          ))}
        </div>
      </Card>
      <StreamConsole />
    </div>
  );
}
