// The interactive reference of /api/v2 or /api/v3, rendered from its own OpenAPI document. toncenter's
// documentation paths lead here: /api/v2/ and /api/v3/ opened in a browser, and /api/v3/index.html.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ApiReference } from '@/components/views/ApiReference';
import { v2OpenApi } from '@/lib/api/v2/openapi';
import { v3OpenApi } from '@/lib/api/v3/openapi';
import type { OpenApiDocument } from '@/lib/client/console';

const APIS = {
  v2: { title: 'API v2 reference', document: v2OpenApi, url: '/api/v2/openapi.json' },
  v3: { title: 'API v3 reference', document: v3OpenApi, url: '/api/v3/doc.json' },
} as const;

type Props = { params: Promise<{ api: string }> };

const apiOf = (name: string) => (name === 'v2' || name === 'v3' ? APIS[name] : undefined);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: apiOf((await params).api)?.title ?? 'API reference' };
}

export default async function ApiReferencePage({ params }: Props) {
  const api = apiOf((await params).api);
  if (!api) notFound();
  return <ApiReference doc={api.document() as unknown as OpenApiDocument} documentUrl={api.url} />;
}
