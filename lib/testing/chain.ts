/**
 * Test support for the APIs on a real chain: a seeded devnet with the genesis scenario and some
 * traffic, one lite client over its in-process lite_api engine, optionally a database indexed from
 * it, and the API over both (callV2, callV3, postV3, serve: lib/testing/api.ts).
 *
 *   const chain = await startTestChain({ seed: 'v2-accounts', rounds: 3, index: true });
 *   afterAll(() => chain.close());
 */
import type { LiteClient } from 'ton-lite-client';
import { migrate } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from './database';
import { startDevnet, type Devnet, type ShardSchedule } from '../devnet';
import { createTrafficGenerator } from '../devnet/genesis';
import type { GenesisAccount } from '../devnet/genesis';
import { rmDir, tempDir } from './devnet';
import type { IndexerEvents } from '../indexer/events';
import { Indexer } from '../indexer/follower';
import type { PendingEntry } from '../pending';
import { createLiteClient } from '../lite';
import { log } from '../log';
import { testApi, type TestApi } from './api';
import { TvmPool } from '../tvm/pool';

export interface TestChain extends TestApi {
  devnet: Devnet;
  lite: LiteClient;
  /** Present with `index: true`: the chain indexed up to its head. */
  db?: TestDatabase;
  /** The indexer (with `index: true`). */
  indexer?: Indexer;
  /** A genesis account by name (genesis.json), e.g. 'faucet', 'wallet_v4r2', 'jetton_minter'. */
  account(name: string): GenesisAccount;
  /** Seals a round and, with `index: true`, indexes it. */
  seal(): Promise<void>;
  /** Indexes what the chain sealed since (with `index: true`). */
  index(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `derive: true` runs the indexer's derive stage (token tables) in the API's TVM pool; `shards` and
 * `shardSchedule` make a devnet of several basechain shards (DEVNET_SHARDS, DEVNET_SHARD_SCHEDULE).
 * `listen`: the indexer's event listener and the pending store's (what the Streaming API's publisher provides).
 */
export async function startTestChain(opts: {
  seed: string;
  rounds?: number;
  tps?: number;
  index?: boolean;
  derive?: boolean;
  shards?: number;
  shardSchedule?: ShardSchedule;
  listen?: { indexer?: IndexerEvents; pendingStored?: (entry: PendingEntry) => void };
}): Promise<TestChain> {
  const dir = tempDir('atlas-chain-');
  const devnet = await startDevnet({ dataDir: dir, seed: opts.seed, blockMs: 0, tps: 0, traffic: false, adnlPort: 0, shards: opts.shards, shardSchedule: opts.shardSchedule });
  const traffic = createTrafficGenerator(devnet.chain, devnet.genesisAccounts, { seed: opts.seed, tps: opts.tps ?? 10 });
  for (let i = 0; i < (opts.rounds ?? 0); i++) {
    await traffic.step();
    await devnet.sealNow();
  }
  const lite = createLiteClient({ kind: 'engine', engine: devnet.engine }, { cache: false });
  let db: TestDatabase | undefined;
  let indexer: Indexer | undefined;
  let indexed = 0;
  const indexToHead = async () => {
    for (; indexed < devnet.chain.lastSeqno; ) await indexer!.indexMasterchainBlock(++indexed);
  };
  const tvm = new TvmPool();
  if (opts.index) {
    db = await createTestDatabase();
    await migrate(db.db);
    indexer = new Indexer({ prisma: db.db.prisma, client: lite, log, network: 'devnet', startSeqno: 1, tvm: opts.derive ? tvm : undefined, events: opts.listen?.indexer });
    await indexer.claim();
    await indexToHead();
  }
  const api = testApi({ lite, db: db?.db, tvm, onPendingStored: opts.listen?.pendingStored });
  return {
    ...api,
    devnet,
    lite,
    db,
    indexer,
    account(name) {
      const a = devnet.genesisAccounts.find((x) => x.name === name);
      if (!a) throw new Error(`no genesis account ${name}; there are ${devnet.genesisAccounts.map((x) => x.name).join(', ')}`);
      return a;
    },
    async seal() {
      await devnet.sealNow();
      if (indexer) await indexToHead();
    },
    index: indexToHead,
    async close() {
      await indexer?.stop();
      await api.close();
      await db?.drop();
      lite.engine.close();
      await devnet.close();
      rmDir(dir);
    },
  };
}
