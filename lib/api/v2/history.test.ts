/**
 * v2 over a lite server that has pruned its old blocks (issue 16): the devnet's lite server behind a
 * wrapper that refuses every block below PRUNED_BELOW with the error a non-archival node sends ("seqno not
 * in db", "lt not in db", "state already gc'd"; lib/testing/pruned-lite.ts), reached over ADNL/TCP by the
 * real client. The history methods then answer from the index in exactly the JSON the live path gives
 * over the unpruned chain (equivalence, method by method); with an index that does not hold those blocks
 * either, they answer the liteserver's error as 542, never 500.
 */
import { Address } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate';
import { adnlSeedOf } from '../../devnet';
import { startAdnlServer, type AdnlServer } from '../../devnet/transport/adnl-server';
import { createLiteClient } from '../../lite';
import { testApi, type Mode, type TestApi } from '../../testing/api';
import { startTestChain, type TestChain } from '../../testing/chain';
import { createTestDatabase, type TestDatabase } from '../../testing/database';
import { prunedLiteHandler } from '../../testing/pruned-lite';

const ROUNDS = 12;
const PRUNED_BELOW = 8;
const OLD = 3; // a pruned masterchain (and basechain) seqno
const MC_SHARD = '-9223372036854775808';

let chain: TestChain;
let server: AdnlServer;
let pruned: LiteClient;
/** The live path over the whole chain: what every answer must equal. */
let live: TestApi;
/** The pruned lite server with the index of the whole chain. */
let indexed: TestApi;
/** The pruned lite server with an index that holds none of it. */
let bare: TestApi;
let empty: TestDatabase;
/** The account with the most transactions, in pruned and kept blocks both. */
let busy: string;
/** An internal message delivered in a pruned block: source, destination, created_lt. */
let message: { source: string; destination: string; created_lt: string };

type Result = Record<string, unknown>;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v2-history', rounds: ROUNDS, tps: 8, index: true });
  server = await startAdnlServer({
    host: '127.0.0.1',
    port: 0,
    seed: adnlSeedOf(chain.devnet.seed),
    handler: prunedLiteHandler(chain.devnet.handler, chain.devnet.chain, PRUNED_BELOW),
  });
  pruned = createLiteClient({ kind: 'servers', servers: [{ host: '127.0.0.1', port: server.port, publicKey: server.publicKey }] }, { cache: false });
  live = testApi({ lite: chain.lite });
  indexed = testApi({ lite: pruned, db: chain.db!.db, tvm: chain.tvm });
  empty = await createTestDatabase();
  await migrate(empty.db);
  bare = testApi({ lite: pruned, db: empty.db, tvm: chain.tvm });

  const p = chain.db!.db.prisma;
  const [top] = await p.$queryRaw<{ account: string }[]>`
    SELECT account FROM transactions GROUP BY account
    HAVING min(mc_block_seqno) < ${PRUNED_BELOW} AND max(mc_block_seqno) >= ${PRUNED_BELOW} AND count(*) > 20
    ORDER BY count(*) DESC LIMIT 1`;
  busy = top!.account;
  const [m] = await p.$queryRaw<{ source: string; destination: string; created_lt: bigint }[]>`
    SELECT m.source, m.destination, m.created_lt FROM messages m JOIN transactions t ON t.hash = m.tx_hash
    WHERE m.direction = 'in' AND m.source IS NOT NULL AND t.mc_block_seqno = ${OLD} LIMIT 1`;
  message = { source: m!.source, destination: m!.destination, created_lt: m!.created_lt.toString() };
}, 180_000);

afterAll(async () => {
  pruned?.engine.close();
  await server?.close();
  await live?.close();
  await empty?.drop();
  await chain?.close();
});

async function ok(api: TestApi, method: string, params: Record<string, unknown>, mode: Mode = 'get'): Promise<unknown> {
  const r = await api.callV2(mode, method, params);
  expect([method, r.status, r.body.error]).toEqual([method, 200, undefined]);
  return r.body.result;
}

/** The same answer from the index (the lite server pruned it) as live over the whole chain. */
async function same(method: string, params: Record<string, unknown>, mode: Mode = 'get'): Promise<unknown> {
  const want = await ok(live, method, params, mode);
  expect(await ok(indexed, method, params, mode)).toEqual(want);
  return want;
}

/** Neither the lite server nor the index has it: 542 with the node's words, not a 500. */
async function gone(method: string, params: Record<string, unknown>, said: RegExp) {
  const r = await bare.callV2('get', method, params);
  expect([method, r.status, r.body.ok, r.body.code]).toEqual([method, 542, false, 542]);
  expect(r.body.error).toMatch(said);
  expect(r.body.error).toMatch(/the liteservers no longer keep this block, transaction or state, and the index does not hold it$/);
}

const block = async (workchain: number, seqno: number) => (await ok(live, 'lookupBlock', { workchain, shard: MC_SHARD, seqno })) as Result;

describe('v2 history the lite server pruned', () => {
  it('the pruned server really refuses old blocks, and answers recent ones itself', async () => {
    await gone('lookupBlock', { workchain: -1, shard: MC_SHARD, seqno: OLD }, /^LITE_SERVER_UNKNOWN: seqno not in db/);
    expect(await ok(bare, 'lookupBlock', { workchain: -1, shard: MC_SHARD, seqno: PRUNED_BELOW })).toEqual(await block(-1, PRUNED_BELOW));
  });

  it('lookupBlock by seqno, lt and time', async () => {
    for (const workchain of [-1, 0]) {
      const id = await same('lookupBlock', { workchain, shard: MC_SHARD, seqno: OLD });
      const header = (await ok(live, 'getBlockHeader', { workchain, shard: MC_SHARD, seqno: OLD })) as Result;
      // Within the block, at its edges, and between it and the one before (the first block ending after).
      for (const lt of [BigInt(header.start_lt as string), BigInt(header.end_lt as string), BigInt(header.start_lt as string) - 1n]) {
        expect(await same('lookupBlock', { workchain, shard: MC_SHARD, lt: lt.toString() })).toEqual(id);
      }
      await same('lookupBlock', { workchain, shard: MC_SHARD, unixtime: header.gen_utime });
    }
    await gone('lookupBlock', { workchain: 0, shard: MC_SHARD, lt: '1000' }, /lt not in db/);
  });

  it('getBlockHeader, by seqno and with both hashes', async () => {
    for (const workchain of [-1, 0]) {
      const id = await block(workchain, OLD);
      await same('getBlockHeader', { workchain, shard: MC_SHARD, seqno: OLD });
      await same('getBlockHeader', { workchain, shard: MC_SHARD, seqno: OLD, root_hash: id.root_hash, file_hash: id.file_hash });
    }
    await gone('getBlockHeader', { workchain: 0, shard: MC_SHARD, seqno: OLD }, /seqno not in db/);
    const id = await block(0, OLD);
    await gone('getBlockHeader', { workchain: 0, shard: MC_SHARD, seqno: OLD, root_hash: id.root_hash, file_hash: id.file_hash }, /block handle not in db/);
  });

  it('getShards', async () => {
    const shards = (await same('getShards', { seqno: OLD })) as { shards: unknown[] };
    expect(shards.shards).toHaveLength(1);
    await gone('getShards', { seqno: OLD }, /seqno not in db/);
  });

  it('getBlockTransactions and getBlockTransactionsExt, whole and page by page', async () => {
    for (const method of ['getBlockTransactions', 'getBlockTransactionsExt']) {
      type Listed = { account: string; lt: string; transaction_id?: { lt: string }; address?: { account_address: string } };
      const all = (await same(method, { workchain: 0, shard: MC_SHARD, seqno: OLD })) as { transactions: Listed[] };
      expect(all.transactions.length).toBeGreaterThan(2);
      // A page of 2 after the first: the cursor is the first one's lt and account.
      const first = all.transactions[0]!;
      const after = first.transaction_id
        ? { after_lt: first.transaction_id.lt, after_hash: first.address!.account_address }
        : { after_lt: first.lt, after_hash: first.account.split(':')[1] };
      const page = (await same(method, { workchain: 0, shard: MC_SHARD, seqno: OLD, count: 2, ...after })) as { incomplete: boolean; transactions: unknown[] };
      // (A node echoes each request's mode: the short ids of a page after a cursor say 135.)
      expect(page.transactions).toEqual(all.transactions.slice(1, 3).map((t) => (t.transaction_id ? t : { ...t, mode: 135 })));
      expect(page.incomplete).toBe(all.transactions.length > 3);
      await gone(method, { workchain: 0, shard: MC_SHARD, seqno: OLD }, /seqno not in db/);
    }
  });

  it('getTransactions and getTransactionsStd across the pruned boundary, from the latest and from an old transaction', async () => {
    const address = Address.parseRaw(busy).toString();
    for (const mode of ['get', 'post', 'rpc'] as const) {
      const txs = (await same('getTransactions', { address, limit: 100 }, mode)) as { transaction_id: { lt: string; hash: string } }[];
      expect(txs.length).toBeGreaterThan(20);
      await same('getTransactionsStd', { address, limit: 100 }, mode);
      // Starting at a transaction in a pruned block, and stopping at to_lt.
      const old = txs[txs.length - 3]!.transaction_id;
      await same('getTransactions', { address, limit: 10, lt: old.lt, hash: old.hash }, mode);
      await same('getTransactionsStd', { address, limit: 10, lt: old.lt, hash: old.hash }, mode);
      await same('getTransactions', { address, limit: 100, to_lt: txs[txs.length - 2]!.transaction_id.lt }, mode);
    }
    // A wrong hash at an indexed lt is no such transaction (404), from the index as from the lite server.
    const old = ((await ok(live, 'getTransactions', { address, limit: 100 })) as { transaction_id: { lt: string } }[]).at(-1)!.transaction_id;
    const wrong = { address, lt: old.lt, hash: Buffer.alloc(32, 7).toString('base64') };
    expect((await live.callV2('get', 'getTransactions', wrong)).status).toBe(404);
    expect((await indexed.callV2('get', 'getTransactions', wrong)).status).toBe(404);
    // From the latest, the lite server's part comes first, then its error where the index has nothing.
    await gone('getTransactions', { address, limit: 100 }, /lt not in db/);
  });

  it('tryLocateTx, tryLocateResultTx and tryLocateSourceTx of a message delivered in a pruned block', async () => {
    const params = { source: message.source, destination: message.destination, created_lt: message.created_lt };
    const result = (await same('tryLocateTx', params)) as { in_msg: { created_lt: string } };
    expect(result.in_msg.created_lt).toBe(message.created_lt);
    expect(await same('tryLocateResultTx', params)).toEqual(result);
    await same('tryLocateSourceTx', params);
    await gone('tryLocateTx', params, /not in db|state already gc'd/);
  });

  it('what the index does not serve (account states at pruned blocks) is 542, not 500', async () => {
    const address = Address.parseRaw(busy).toString();
    for (const api of [indexed, bare]) {
      const r = await api.callV2('get', 'getAddressInformation', { address, seqno: OLD });
      expect([r.status, r.body.error]).toEqual([542, expect.stringMatching(/^LITE_SERVER_UNKNOWN: (seqno not in db|state already gc'd): /)]);
    }
    // Recent blocks and the latest state are the lite server's as ever.
    expect(await ok(indexed, 'getAddressInformation', { address, seqno: PRUNED_BELOW + 1 })).toEqual(await ok(live, 'getAddressInformation', { address, seqno: PRUNED_BELOW + 1 }));
  });
});
