// The v3 HTTP layer without a database: unknown routes, methods, early parameter errors, OpenAPI.
import { describe, expect, it } from 'vitest';
import { testApi } from '../../testing/api';
import { v3OpenApi } from './openapi';
import { paramDoc } from './params';
import { v3PostRoutes, v3Routes } from './registry';

const ROUTES = [
  'masterchainInfo',
  'blocks',
  'masterchainBlockShardState',
  'masterchainBlockShards',
  'transactions',
  'transactionsByMasterchainBlock',
  'transactionsByMessage',
  'adjacentTransactions',
  'messages',
  'topAccountsByBalance',
  'addressBook',
  'metadata',
  'accountStates',
  'walletStates',
  'addressInformation',
  'account',
  'walletInformation',
  'wallet',
  'decode',
  'jetton/masters',
  'jetton/wallets',
  'jetton/transfers',
  'jetton/burns',
  'traces',
  'events',
  'actions',
  'balanceChanges',
  'pendingTransactions',
  'pendingTraces',
  'pendingActions',
  'nft/collections',
  'nft/items',
  'nft/transfers',
  'nft/sales',
  'dns/records',
  'vesting',
  'multisig/wallets',
  'multisig/orders',
  'search', // Atlas's extension (name search), not toncenter's
];
const POST_ROUTES = ['message', 'runGetMethod', 'estimateFee', 'decode', 'emulate'];
// Routing and early parameter errors need no chain and no database.
const api = testApi({});

describe('routing', () => {
  it('registers every route of this part of the contract', () => {
    expect([...v3Routes.keys()].sort()).toEqual([...ROUTES].sort());
    expect([...v3PostRoutes.keys()].sort()).toEqual([...POST_ROUTES].sort());
  });

  it('404 in the v3 envelope for a path no route claims, for any method', async () => {
    for (const method of ['GET', 'POST']) {
      const r = await api.callV3('noSuchRoute', {}, { method });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'route not found: /api/v3/noSuchRoute' });
      expect(r.headers.get('x-api-version')).toMatch(/^1\.2\./);
    }
  });

  it('405 for another method on a route', async () => {
    const r = await api.callV3('blocks', {}, { method: 'POST' });
    expect(r.status).toBe(405);
    expect(r.body).toEqual({ error: 'method POST is not allowed on /api/v3/blocks' });
  });

  it('parameter errors answer 422 before any database work', async () => {
    const r = await api.callV3('transactions', { workchain: 'x' });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ error: 'failed to decode: schema: error converting value for "workchain"' });
    const s = await api.callV3('blocks', { x_no_address_book: 'maybe' });
    expect(s.status).toBe(422);
    expect(s.body).toEqual({ error: 'failed to decode: schema: error converting value for "x_no_address_book"' });
  });
});

describe('/api/v3/openapi.json', () => {
  const doc = v3OpenApi() as unknown as {
    openapi: string;
    paths: Record<string, { get: { parameters: { name: string; in: string; schema: Record<string, unknown> }[]; responses: Record<string, { content?: { 'application/json': { schema: { $ref: string } } } }> } }>;
    components: { schemas: Record<string, unknown> };
  };

  it('lists every route with every query parameter and its response model', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set([...ROUTES, ...POST_ROUTES])].map((r) => `/api/v3/${r}`).sort());
    for (const route of v3Routes.values()) {
      const op = doc.paths[`/api/v3/${route.path}`]!.get;
      const names = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
      for (const [name, field] of Object.entries(route.query.shape)) {
        expect(names).toContain(name);
        expect(paramDoc(field as never)).toBeDefined();
      }
      const ref = op.responses['200']!.content!['application/json'].schema.$ref;
      expect(doc.components.schemas[ref.replace('#/components/schemas/', '')]).toBeDefined();
    }
    const tx = doc.paths['/api/v3/transactions']!.get.parameters.find((p) => p.name === 'account')!;
    expect(tx.schema.type).toBe('array');
  });

  it('components reference each other', () => {
    expect(JSON.stringify(doc.components.schemas.TransactionsResponse)).toContain('#/components/schemas/Transaction');
    expect(doc.components.schemas.Block).toMatchObject({ type: 'object', required: expect.arrayContaining(['masterchain_block_ref', 'prev_blocks']) });
  });
});
