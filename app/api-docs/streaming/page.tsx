// The Streaming API's reference, rendered from its OpenAPI document (lib/stream/openapi.ts), with a console.
import type { Metadata } from 'next';
import { StreamingReference, type StreamingDoc } from '@/components/views/StreamingReference';
import { streamingOpenApi } from '@/lib/stream/openapi';

export const metadata: Metadata = { title: 'Streaming API reference' };

export default function StreamingReferencePage() {
  return <StreamingReference doc={streamingOpenApi() as unknown as StreamingDoc} documentUrl="/api/streaming/v2/openapi.json" />;
}
