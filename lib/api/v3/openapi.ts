// /api/v3/openapi.json, generated from the routes' query schemas (params.ts docs) and response models.
import { z } from 'zod';
import { PROOF_HEADER, PROOF_HEADER_DOC } from '../proof-header';
import { V3_API_VERSION } from './envelope';
import { MODELS } from './models';
import { paramDoc } from './params';
import { v3PostRoutes, v3Routes } from './registry';
import type { V3PostRoute, V3Route } from './route';
import { settingsQuery } from './http';

type JsonSchema = Record<string, unknown>;

/**
 * The v3 models as OpenAPI components, each referenced by name, and `more` beside them: the Streaming
 * API's document (lib/stream/openapi.ts) adds its messages, which carry the v3 models by reference.
 */
export function components(more: Record<string, z.ZodType> = {}): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of [...Object.entries(MODELS), ...Object.entries(more)]) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, JsonSchema> };
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  return schemas;
}

const modelName = (schema: z.ZodType): string => {
  const found = Object.entries(MODELS).find(([, s]) => s === schema);
  if (!found) throw new Error('a route answers with a model missing from MODELS');
  return found[0];
};

function parameters(shape: Record<string, z.ZodType>) {
  return Object.entries(shape).map(([name, field]) => {
    const doc = paramDoc(field);
    if (!doc) throw new Error(`query field ${name} was not built with params.ts`);
    return {
      name,
      in: 'query',
      required: false,
      description: doc.description,
      schema: doc.schema,
      ...(doc.kind === 'array' ? { style: 'form', explode: true } : {}),
    };
  });
}

const headerParams = [
  { name: 'X-No-Address-Book', in: 'header', required: false, description: 'Answer address_book as {}.', schema: { type: 'boolean' } },
  { name: 'X-No-Metadata', in: 'header', required: false, description: 'Answer metadata as {}.', schema: { type: 'boolean' } },
  { name: 'X-Timeout', in: 'header', required: false, description: 'Query timeout in ms (accepted).', schema: { type: 'integer' } },
];

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/RequestError' } } } });

function operation(route: V3Route) {
  const responses: Record<string, unknown> = {
    '200': {
      description: 'Success',
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${modelName(route.response)}` } } },
      ...(route.liteOnly ? { headers: { [PROOF_HEADER]: PROOF_HEADER_DOC } } : {}),
    },
  };
  for (const [code, text] of Object.entries(route.errors)) responses[code] = errorResponse(text);
  responses.default = errorResponse('Internal error: {error: "internal server error (ref …)"}, the details logged under that reference');
  return {
    operationId: `api_v3_get_${route.path.replace(/\W/g, '_')}`,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    parameters: [...parameters(route.query.shape), ...parameters(settingsQuery.shape), ...headerParams],
    responses,
    security: [{ APIKeyHeader: [] }, { APIKeyQuery: [] }, {}],
  };
}

function postOperation(route: V3PostRoute) {
  const body = z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete body.$schema;
  const responses: Record<string, unknown> = {
    '200': { description: 'Success', content: { 'application/json': { schema: { $ref: `#/components/schemas/${modelName(route.response)}` } } } },
  };
  for (const [code, text] of Object.entries(route.errors)) responses[code] = errorResponse(text);
  responses.default = errorResponse('v2 failure (status and message forwarded) or internal error');
  return {
    operationId: `api_v3_post_${route.path.replace(/\W/g, '_')}`,
    tags: [route.tag ?? 'api/v2'],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    requestBody: { required: true, content: { 'application/json': { schema: body } } },
    responses,
    security: [{ APIKeyHeader: [] }, { APIKeyQuery: [] }, {}],
  };
}

export function v3OpenApi() {
  const paths: Record<string, unknown> = {};
  for (const route of v3Routes.values()) paths[`/api/v3/${route.path}`] = { get: operation(route) };
  // A path may have both (decode): the POST joins the GET's entry.
  for (const route of v3PostRoutes.values()) paths[`/api/v3/${route.path}`] = { ...(paths[`/api/v3/${route.path}`] as object | undefined), post: postOperation(route) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Atlas — toncenter Index API v3',
      version: V3_API_VERSION,
      description:
        'toncenter-compatible index API. Addresses print as raw `wc:HEX`, hashes as standard base64, 64-bit numbers as strings. ' +
        'Parameter names are case-insensitive; array parameters repeat the key (`key[]` also works); address and hash arrays also take comma lists.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { APIKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' }, APIKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' } },
      schemas: components(),
    },
    paths,
  };
}
