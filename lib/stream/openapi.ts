// /api/streaming/v2/openapi.json: the Streaming API described from the schemas it validates and sends
// with — subscription.ts's requests, protocol.ts's notifications and replies — and the v3 objects inside
// them as v3's own document defines them (its components()), so the document cannot drift from the code.
// OpenAPI has no WebSocket: the /ws path is described as its upgrade, its messages as components named
// in `x-websocket-messages`.
import { z } from 'zod';
import { components } from '../api/v3/openapi';
import { ErrorReply, Notification, NOTIFICATIONS, RequestId, StatusReply } from './protocol';
import { SubscriptionRequest, UnsubscribeRequest } from './subscription';

type JsonSchema = Record<string, unknown>;

const WsSubscribe = SubscriptionRequest.extend({ operation: z.literal('subscribe').describe('replaces the connection\'s whole subscription') });
const WsUnsubscribe = UnsubscribeRequest.extend({ operation: z.literal('unsubscribe').describe('drops addresses and/or traces from the subscription') });
const WsPing = z.object({ id: RequestId.nullish().describe('echoed in the reply'), operation: z.literal('ping').describe('answered {"id", "status": "pong"}') });

/** The components this document defines, in the order a reader meets them. */
const STREAM_MODELS = {
  SubscriptionRequest,
  WsSubscribe,
  WsUnsubscribe,
  WsPing,
  StatusReply,
  ErrorReply,
  Notification,
  ...NOTIFICATIONS,
} as const;

/** The components reachable from the stream's own: the v3 models a notification carries, no others. */
function reachable(all: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const visit = (name: string) => {
    if (out[name] || !all[name]) return;
    out[name] = all[name];
    for (const m of JSON.stringify(all[name]).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) visit(m[1]!);
  };
  for (const name of Object.keys(STREAM_MODELS)) visit(name);
  return out;
}

const ref = (name: keyof typeof STREAM_MODELS) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: keyof typeof STREAM_MODELS) => ({ 'application/json': { schema: ref(name) } });
const security = [{ APIKeyHeader: [] }, { APIKeyQuery: [] }, {}];

const refusals = {
  '401': { description: 'The API key is unknown or revoked.', content: json('ErrorReply') },
  '403': { description: 'The key may not call v3 (streams count as v3), or (WebSocket) the origin is not in CORS_ORIGINS.', content: json('ErrorReply') },
  '429': { description: 'The rate limit is spent, or the key or client address holds its most streams: `connection limit reached: …` (Retry-After).', content: json('ErrorReply') },
};

/** The query form of the subscription (GET, for the browser's EventSource): lists repeated or comma-separated. */
function queryParameters(schemas: Record<string, JsonSchema>) {
  const props = (schemas.SubscriptionRequest?.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(props).map(([name, schema]) => ({ name, in: 'query', required: name === 'types', description: schema.description, schema: { ...schema, description: undefined }, style: 'form', explode: false }));
}

const SSE_TEXT =
  'The answer is `text/event-stream`: first `event: connected` with `{"id"?, "status": "subscribed"}`, then each notification as a `data:` line of JSON ' +
  '(EventSource\'s `onmessage`), a `: keepalive` comment every STREAM_KEEPALIVE_MS while idle, and `event: error` with `{"error"}` before the server ends the stream ' +
  '(a slow consumer, shutdown).';

const WS_TEXT =
  'A WebSocket (Upgrade: websocket). The client sends JSON text frames `{"id"?, "operation": "subscribe" | "unsubscribe" | "ping", …}` (WsSubscribe, WsUnsubscribe, WsPing), ' +
  'each answered `{"id", "status"}` (StatusReply) or `{"id", "error"}` (ErrorReply) on a connection that stays open; notifications arrive as text frames (Notification). ' +
  'At most STREAM_WS_MESSAGES_PER_SECOND messages a second: the first past it is refused, one more in that second closes with 1008. ' +
  'Close codes: 1001 shutdown, 1008 a slow consumer, a refused connection or a message flood (the reason in words), 1009 a message over 256 KiB.';

export function streamingOpenApi() {
  const schemas = reachable(components(STREAM_MODELS));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Atlas — toncenter Streaming API v2',
      version: '2',
      description:
        'Transactions, actions, traces, account states and jetton wallets pushed as they reach pending, confirmed and finalized, over SSE and WebSocket, with the v3 objects inside. ' +
        'A trace is sent again as its finality rises, never lower; trace_invalidated says what was sent below finalized is void. The stream does not replay the past: after a gap, read /api/v3.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { APIKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' }, APIKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' } },
      schemas,
    },
    paths: {
      '/api/streaming/v2/sse': {
        post: {
          operationId: 'streaming_v2_sse',
          tags: ['streaming'],
          summary: 'Subscribe; notifications as server-sent events',
          description: SSE_TEXT,
          requestBody: { required: true, content: json('SubscriptionRequest') },
          responses: {
            '200': { description: 'The stream: `event: connected`, then notifications as `data:` lines.', content: { 'text/event-stream': { schema: ref('Notification') } } },
            '400': { description: 'A bad subscription, with its reason (`types are required for subscription`, `invalid address: "EQx"`, …): no stream.', content: json('ErrorReply') },
            ...refusals,
            '413': { description: 'The body is over 256 KiB.', content: json('ErrorReply') },
          },
          security,
        },
        get: {
          operationId: 'streaming_v2_sse_get',
          tags: ['streaming'],
          summary: 'The same, subscribed by query (for the browser\'s EventSource, which cannot POST)',
          description: SSE_TEXT,
          parameters: queryParameters(schemas),
          responses: {
            '200': { description: 'The stream, as for POST.', content: { 'text/event-stream': { schema: ref('Notification') } } },
            '400': { description: 'A bad subscription, with its reason.', content: json('ErrorReply') },
            ...refusals,
          },
          security,
        },
      },
      '/api/streaming/v2/ws': {
        get: {
          operationId: 'streaming_v2_ws',
          tags: ['streaming'],
          summary: 'WebSocket: subscribe, unsubscribe, ping; notifications as text frames',
          description: WS_TEXT,
          'x-websocket-messages': { client: [ref('WsSubscribe'), ref('WsUnsubscribe'), ref('WsPing')], server: [ref('StatusReply'), ref('ErrorReply'), ref('Notification')] },
          responses: {
            '101': { description: 'Switching protocols: the WebSocket is open (a refused one is told why in a JSON frame, then closed with 1008).' },
            '426': { description: 'A plain HTTP request: this endpoint needs a WebSocket client.', content: json('ErrorReply') },
          },
          security,
        },
      },
    },
  };
}
