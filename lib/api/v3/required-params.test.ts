// Every v3 route that requires a parameter, called without it, over HTTP: toncenter's status and words
// (ton-index-go's handlers), since clients match on them. The v2-style routes answer 401, the rest 422;
// the request is judged before anything is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate';
import { testApi, type TestApi } from '../../testing/api';
import { createTestDatabase, type TestDatabase } from '../../testing/database';
import type { HttpTestServer } from '../../testing/http-server';

let t: TestDatabase;
let api: TestApi;
let server: HttpTestServer;

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  api = testApi({ db: t.db });
  server = await api.serve();
});
afterAll(async () => {
  await server?.close();
  await api?.close();
  await t?.drop();
});

const ACCOUNT = '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8';

const GET: [path: string, status: number, error: string][] = [
  ['addressInformation', 401, 'address of account is required'],
  ['account', 401, 'address of account is required'],
  ['walletInformation', 401, 'address of account is required'],
  ['wallet', 401, 'address of account is required'],
  ['transactionsByMessage', 422, 'at least one of msg_hash, body_hash, opcode should be specified'],
  ['addressBook', 422, 'at least 1 address required'],
  ['metadata', 422, 'at least 1 address required'],
  ['accountStates', 422, 'address of account is required'],
  ['walletStates', 422, 'address of account is required'],
  ['nft/sales', 422, 'at least 1 address required'],
  ['dns/records', 422, 'either wallet address or domain is required'],
  ['pendingTransactions', 422, 'at least 1 account address required'],
  ['pendingTraces', 422, 'account or ext_msg_hash should be specified'],
  ['pendingActions', 422, 'account or ext_msg_hash should be specified'],
  ['multisig/wallets', 422, 'At least one of address or wallet_address should be specified'],
  ['multisig/orders', 422, 'At least one of address or multisig_address should be specified'],
];

const POST: [path: string, body: Record<string, unknown>, status: number, error: string][] = [
  ['message', {}, 401, 'boc is required'],
  ['message', { boc: '' }, 401, 'boc is required'],
  ['runGetMethod', { method: 'seqno', stack: [] }, 401, 'address is required'],
  ['runGetMethod', { address: ACCOUNT, stack: [] }, 401, 'method is required'],
];

describe('a missing required parameter', () => {
  it.each(GET)('GET %s: %i %s', async (path, status, error) => {
    const r = await fetch(`${server.url}/api/v3/${path}`);
    expect(r.status).toBe(status);
    expect(await r.json()).toEqual({ error });
  });

  it.each(POST)('POST %s %j: %i %s', async (path, body, status, error) => {
    const r = await fetch(`${server.url}/api/v3/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(r.status).toBe(status);
    expect(await r.json()).toEqual({ error });
  });
});
