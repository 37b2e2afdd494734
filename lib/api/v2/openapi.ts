// /api/v2/openapi.json, generated from the same parameter schemas the routes validate with.
import { z } from 'zod';
import { V2_API_VERSION } from '../../version';
import { PROOF_HEADER, PROOF_HEADER_DOC } from '../proof-header';
import type { V2Method } from './method';
import { v2Methods } from './registry';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

const envelope = {
  type: 'object',
  required: ['ok'],
  properties: { ok: { type: 'boolean' }, result: {}, error: { type: 'string' }, code: { type: 'integer' }, '@extra': { type: 'string' } },
};
const responses = {
  '200': { description: 'Success: {ok:true, result}', content: { 'application/json': { schema: envelope } } },
  default: { description: 'Error: {ok:false, code, error}; the HTTP status equals code', content: { 'application/json': { schema: envelope } } },
};
/** A lite-only method's answers may say they were checked by proof. */
const provableResponses = { ...responses, '200': { ...responses['200'], headers: { [PROOF_HEADER]: PROOF_HEADER_DOC } } };

function paramsSchema(m: V2Method): JsonSchema {
  const { $schema: _, ...schema } = z.toJSONSchema(m.params, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return schema;
}

function operation(m: V2Method, verb: 'get' | 'post') {
  const schema = paramsSchema(m);
  const base = {
    operationId: `${m.name}_${verb}`,
    summary: m.summary,
    tags: [m.verbs === 'post' ? 'send and run' : 'read'],
    ...(m.deprecated && { deprecated: true }),
    responses: m.liteOnly ? provableResponses : responses,
  };
  if (verb === 'post') {
    return { ...base, requestBody: { required: true, content: { 'application/json': { schema: { ...schema, additionalProperties: false } } } } };
  }
  const required = new Set(schema.required ?? []);
  const parameters = Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: s,
    ...(s.type === 'array' ? { style: 'form', explode: true } : {}),
  }));
  return { ...base, parameters };
}

export function v2OpenApi() {
  const paths: Record<string, unknown> = {};
  for (const m of v2Methods.values()) {
    paths[`/api/v2/${m.name}`] = m.verbs === 'read' ? { get: operation(m, 'get'), post: operation(m, 'post') } : { post: operation(m, 'post') };
  }
  paths['/api/v2/jsonRPC'] = {
    post: {
      operationId: 'jsonRPC',
      summary: 'Call any method: {jsonrpc:"2.0", id, method, params}; answers the method\'s envelope plus jsonrpc and id, with the same HTTP status',
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['method'],
              properties: { jsonrpc: { const: '2.0' }, id: {}, method: { enum: [...v2Methods.keys()] }, params: { type: 'object' } },
            },
          },
        },
      },
      responses,
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Atlas — toncenter API v2', version: V2_API_VERSION },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { APIKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' }, APIKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' } },
    },
    paths,
  };
}
