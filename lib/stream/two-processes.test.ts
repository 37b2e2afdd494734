// Two API processes and the process that indexes, sharing one Redis: what the indexing process publishes
// (its predictions, confirmed shard blocks, committed blocks) reaches the clients of both API processes,
// every event, the same bytes.
import { Address, toNano } from '@ton/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database';
import { migrate } from '../db/migrate';
import { normalizedHash } from '../ton/normalized-hash';
import { startApiProcess, type ApiProcess } from '../testing/api-process';
import { messageBoc, signedTransfer } from '../testing/devnet';
import { startPrivatePostgres, type PrivatePostgres } from '../testing/private-postgres';
import { startTestRedis, type TestRedis } from '../testing/redis';
import { startStreamChain, type StreamChain } from '../testing/stream';
import { openSse, openWs } from '../testing/stream-clients';
import { genesisWallet } from '../testing/wallets';
import { rawUpper } from '../ton/address';

let pgServer: PrivatePostgres;
let redis: TestRedis;
let keysDb: Database;
let processes: ApiProcess[] = [];
let s: StreamChain;

beforeAll(async () => {
  // The API processes read API keys from one database: PGlite is one process's, so a private PostgreSQL.
  [pgServer, redis] = await Promise.all([startPrivatePostgres(), startTestRedis()]);
  const url = await pgServer.createDatabase('atlas');
  keysDb = await openDatabase({ engine: 'postgresql', url });
  await migrate(keysDb);
  processes = await Promise.all([1, 2].map(() => startApiProcess({ DATABASE_URL: url, REDIS_URL: redis.url, RATE_LIMIT_ANON_RPS: '1000', LOG_LEVEL: 'warn' })));
  s = await startStreamChain({ seed: 'stream-two-processes', redisUrl: redis.url });
}, 180_000);

afterAll(async () => {
  await s?.close();
  await Promise.all(processes.map((p) => p.close()));
  await keysDb?.close();
  await redis?.close();
  await pgServer?.destroy();
});

it('each process delivers every event to its own clients, the same bytes', async () => {
  const alice = await genesisWallet(s.chain, 'alice');
  const account = rawUpper(alice.address);
  const sub = { types: ['transactions', 'actions', 'account_state_change', 'blocks'], addresses: [account], min_finality: 'pending' };
  const [a, b] = processes;
  const ws = await openWs(a!.url);
  expect(await ws.request({ operation: 'subscribe', ...sub })).toMatchObject({ status: 'subscribed' });
  const sse = await openSse(b!.url, { subscription: sub });
  expect(sse.status).toBe(200);

  const msg = await signedTransfer(alice, [{ to: Address.parse(s.chain.account('bob').address), value: toNano('0.05'), body: 'two processes' }]);
  const key = normalizedHash(msg)!.toString('base64');
  expect((await s.chain.callV2('post', 'sendBoc', { boc: messageBoc(msg).toString('base64') })).body.ok).toBe(true);
  await s.sealAndIndex();
  await s.sealAndIndex({ confirmed: false });

  const shape = (list: Record<string, unknown>[]) =>
    list.filter((n) => n.trace_external_hash_norm === key || n.type === 'blocks' || n.type === 'account_state_change').map((n) => JSON.stringify(n));
  const enough = (list: string[]) => list.filter((x) => x.includes('"finality":"finalized"') && x.includes(key)).length === 2 && list.filter((x) => x.includes('"type":"blocks"')).length >= 2;
  const viaWs = await ws.waitFor((m) => enough(shape(m)) && shape(m), 'everything on process A');
  const viaSse = await sse.waitFor(() => enough(shape(sse.notifications())) && shape(sse.notifications()), 'everything on process B');
  expect(viaWs.filter((x) => x.includes(key)).map((x) => JSON.parse(x).type + ':' + JSON.parse(x).finality)).toEqual([
    'transactions:pending', 'actions:pending', 'transactions:confirmed', 'actions:confirmed', 'transactions:finalized', 'actions:finalized',
  ]);
  expect(viaSse.slice(0, viaWs.length)).toEqual(viaWs.slice(0, viaSse.length));
  ws.close();
  sse.close();
}, 120_000);
