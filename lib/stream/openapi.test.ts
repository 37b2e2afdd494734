// The Streaming API's OpenAPI document: built from the schemas the endpoints validate and send with, so
// every request field a subscription takes and every notification type is described, every reference
// resolves, and the HTTP edge leaves the document's path to the app (served under `next dev` too).
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { unlimitedAccess } from '../auth/access';
import { parseConfig } from '../config';
import { createAtlasServer } from '../server/server';
import { log } from '../log';
import { DOC_PATH, SSE_PATH, streamGateway } from './gateway';
import { StreamHub } from './hub';
import { streamingOpenApi } from './openapi';
import { EVENT_TYPES } from './protocol';
import { SubscriptionRequest } from './subscription';

type Schema = { properties?: Record<string, { description?: string; const?: unknown }>; oneOf?: { $ref: string }[] };

describe('the Streaming API document', () => {
  const doc = streamingOpenApi();
  const schemas = doc.components.schemas as Record<string, Schema>;

  it('describes every field a subscription takes, in the body and as GET query parameters', () => {
    const fields = Object.keys(SubscriptionRequest.shape);
    expect(Object.keys(schemas.SubscriptionRequest!.properties!)).toEqual(fields);
    for (const f of fields) expect(schemas.SubscriptionRequest!.properties![f]!.description, f).toMatch(/\w/);
    expect(doc.paths[SSE_PATH].get.parameters.map((p) => p.name)).toEqual(fields);
    expect(doc.paths[SSE_PATH].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SubscriptionRequest' });
  });

  it('describes a notification of every event type, each carrying the v3 objects by reference', () => {
    const notifications = schemas.Notification!.oneOf!.map((r) => schemas[r.$ref.split('/').pop()!]!);
    expect(notifications.map((n) => n.properties!.type!.const).sort()).toEqual([...EVENT_TYPES].sort());
    const text = JSON.stringify(doc);
    for (const model of ['Transaction', 'Action', 'TraceNode', 'AccountState', 'JettonWallet', 'AddressBook', 'Metadata']) expect(schemas[model], model).toBeDefined();
    // Every reference resolves within the document.
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) expect(schemas[name!], name).toBeDefined();
  });

  it('is served by the app: the HTTP edge passes its path on instead of answering it as a stream', async () => {
    const config = parseConfig({ VITEST: 'true' });
    const hub = new StreamHub({ limits: config.stream, log });
    const edge = createAtlasServer({
      config,
      handle: (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"the app"}'),
      log,
      streams: streamGateway({ hub, config, access: async () => unlimitedAccess, log }),
    });
    await new Promise<void>((resolve) => edge.server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(edge.server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${url}${DOC_PATH}`)).json()).toEqual({ from: 'the app' });
      expect((await fetch(`${url}/api/streaming/v2/other.json`)).status).toBe(404);
    } finally {
      hub.close();
      await edge.close();
    }
  });
});
