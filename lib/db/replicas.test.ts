// Read replicas against a real streaming replica: a private PostgreSQL primary and a hot standby of it
// (pg_basebackup -R), both on loopback and started here whatever DATABASE_URL says (so the test runs,
// unchanged, in both CI suites). What the indexer's store path commits on the primary is served by the v3
// routes from the replica; a replica whose replay is paused serves its older view until it falls further
// behind than the limit, then the primary answers; a stopped replica fails no request.
import pg from 'pg';
import type { LiteClient } from 'ton-lite-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHealth } from '../health';
import { createLiteClient } from '../lite';
import { log } from '../log';
import { testApi, type TestApi } from '../testing/api';
import { startTestServer, type TestLiteServer } from '../testing/lite-servers';
import { startPrivatePostgres, type PrivatePostgres } from '../testing/private-postgres';
import { BLOCK_FIXTURES, fixtureBytes } from '../testing/fixtures';
import { MC_SEQNO } from '../testing/v3';
import { parseBlock } from '../indexer/parse-block';
import { storeMasterchainBlock } from '../indexer/store';
import { openDatabase, type Database } from './database';
import { migrate } from './migrate';
import { openReplicaReads, type ReplicaReads } from './replicas';

const mc = parseBlock(fixtureBytes(BLOCK_FIXTURES.master46991999), MC_SEQNO);
const shards = [parseBlock(fixtureBytes(BLOCK_FIXTURES.shard71398501), MC_SEQNO), parseBlock(fixtureBytes(BLOCK_FIXTURES.shard52111590), MC_SEQNO)];
const mcTx = mc.transactions[0]!.hash.toString('base64');
const shardTx = shards[0]!.transactions[0]!.hash.toString('base64');

let primaryServer: PrivatePostgres;
let replicaServer: PrivatePostgres;
let primary: Database;
let replicaUrl: string;
let reads: ReplicaReads;
let api: TestApi;
let lite: TestLiteServer;
let client: LiteClient;
let health: ReturnType<typeof createHealth>;

beforeAll(async () => {
  primaryServer = await startPrivatePostgres();
  const url = await primaryServer.createDatabase('atlas');
  primary = await openDatabase({ engine: 'postgresql', url });
  await migrate(primary);
  await primary.prisma.indexerState.create({ data: { id: 'main', network: 'mainnet', zeroStateRootHash: new Uint8Array(32), zeroStateFileHash: new Uint8Array(32) } });
  replicaServer = await primaryServer.startReplica();
  // A password in the URL (trust auth ignores it) that health must not show.
  replicaUrl = `postgresql://postgres:secret@127.0.0.1:${replicaServer.port}/atlas`;
  // Probed by the test when it wants a fresh measure (the background probe would race its steps).
  reads = await openReplicaReads(primary, { urls: [replicaUrl], maxLagMs: 60_000, statementTimeoutMs: 3000, log, probeMs: 3_600_000 });
  api = testApi({ db: primary, reads });
  lite = await startTestServer(0);
  client = createLiteClient({ kind: 'servers', servers: [lite.endpoint] }, { timeoutMs: 1000, cache: false });
  health = createHealth(async () => ({ config: { network: 'mainnet' }, db: primary, reads, lite: client }), { probeMaxAgeMs: 0 });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await reads?.close();
  await primary?.close();
  client?.engine.close();
  await lite?.stop();
  await replicaServer?.destroy();
  await primaryServer?.destroy();
});

/** The transactions the v3 API answers for one hash (a read that tolerates lag). */
async function transactionsByHash(hash: string): Promise<unknown[]> {
  const r = await api.callV3<{ transactions: unknown[] }>('transactions', { hash });
  expect(r.status).toBe(200);
  return r.body.transactions;
}

/** Polls until `check` holds (a replica replays in its own time), failing after `ms`. */
async function eventually(check: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`still not ${what} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether the GET routes' read client is a standby: the same client reads.run hands a route. */
const readsFromStandby = () => reads.run(async (db) => (await db.prisma.$queryRaw<{ standby: boolean }[]>`SELECT pg_is_in_recovery() AS standby`)[0]!.standby);

async function onReplica<T>(sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: replicaUrl });
  await c.connect();
  try {
    return (await c.query(sql)).rows as T[];
  } finally {
    await c.end();
  }
}

it('reads go to the replica, and what the indexer stores on the primary shows through the API from there', async () => {
  await reads.probe();
  expect(reads.replicas()).toEqual([{ url: `postgresql://127.0.0.1:${replicaServer.port}/atlas`, state: 'ok', lag_ms: 0, checked_at: expect.any(String) }]);
  expect(await readsFromStandby()).toBe(true);

  await storeMasterchainBlock(primary.prisma, [mc], { indexerId: 'main', mcSeqno: MC_SEQNO });
  await eventually(async () => (await transactionsByHash(mcTx)).length === 1, 'replayed');
  const h = await health();
  expect(h).toMatchObject({ status: 'ok', db: 'ok', replicas: [{ state: 'ok' }] });
  expect(JSON.stringify(h)).not.toContain('secret');
});

it('a replica whose replay is paused answers with its older view until it is further behind than the limit; then the primary answers', async () => {
  await onReplica('SELECT pg_wal_replay_pause()');
  await eventually(async () => (await onReplica<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state'))[0]!.state === 'paused', 'paused');
  await storeMasterchainBlock(primary.prisma, shards, { indexerId: 'main', mcSeqno: MC_SEQNO + 1 });
  expect(await primary.prisma.transaction.count({ where: { hash: new Uint8Array(shards[0]!.transactions[0]!.hash) } })).toBe(1);
  await reads.probe();
  expect(reads.replicas()[0]).toMatchObject({ state: 'ok' });
  // The primary has it; the route does not: it read the replica.
  expect(await transactionsByHash(shardTx)).toEqual([]);
  expect(await transactionsByHash(mcTx)).toHaveLength(1);

  // An hour of indexing the paused replica has not replayed: its index is an hour behind the primary's.
  await primary.prisma.$executeRaw`UPDATE indexer_state SET updated_at = updated_at + interval '1 hour'`;
  await reads.probe();
  expect(reads.replicas()[0]).toMatchObject({ state: 'lagging', lag_ms: expect.any(Number), error: expect.stringMatching(/ms behind the primary/) });
  expect(reads.replicas()[0]!.lag_ms).toBeGreaterThanOrEqual(3_600_000);
  expect(await readsFromStandby()).toBe(false);
  expect(await transactionsByHash(shardTx)).toHaveLength(1);
  // A lagging replica is reported, not a degraded Atlas: no request fails for it.
  expect(await health()).toMatchObject({ status: 'ok', replicas: [{ state: 'lagging' }] });

  await onReplica('SELECT pg_wal_replay_resume()');
  await eventually(async () => (await reads.probe(), reads.replicas()[0]!.state === 'ok'), 'caught up');
  expect(reads.replicas()[0]!.lag_ms).toBe(0);
  expect(await readsFromStandby()).toBe(true);
  expect(await transactionsByHash(shardTx)).toHaveLength(1);
});

it('a stopped replica fails no request: the read runs again on the primary, and health shows it down', async () => {
  await replicaServer.stop('fast');
  // No probe since: the routes find out by failing to connect, and answer from the primary.
  expect(reads.replicas()[0]!.state).toBe('ok');
  expect(await transactionsByHash(shardTx)).toHaveLength(1);
  for (const path of ['masterchainInfo', 'blocks', 'transactions']) expect((await api.callV3(path)).status).toBe(200);
  expect(reads.replicas()[0]).toMatchObject({ state: 'down', lag_ms: null, error: expect.any(String) });
  expect(await readsFromStandby()).toBe(false);

  await reads.probe();
  const h = await health();
  expect(h).toMatchObject({ status: 'ok', db: 'ok', replicas: [{ state: 'down', error: `cannot connect to 127.0.0.1:${replicaServer.port}` }] });
});
