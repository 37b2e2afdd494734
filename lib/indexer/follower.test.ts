/**
 * The indexer against the real devnet over the real lite_api: genesis plus traffic, indexed block by
 * block into the real database; then checked against the chain, re-run for idempotency, followed live,
 * and refused on another chain.
 */
import { Address } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate';
import { listPartitions } from '../db/partitions';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { startDevnet, type Devnet } from '../devnet';
import { createTrafficGenerator } from '../devnet/genesis';
import { rmDir, tempDir, verifyChain } from '../testing/devnet';
import { createLiteClient } from '../lite';
import { log } from '../log';
import { ChainMismatchError } from './chain-identity';
import { Indexer } from './follower';
import type { SeenShardBlock } from './events';
import { verifyRange } from './verify';

let devnet: Devnet;
let lite: LiteClient;
let t: TestDatabase;
let traffic: ReturnType<typeof createTrafficGenerator>;
const dir = tempDir();

beforeAll(async () => {
  devnet = await startDevnet({ dataDir: dir, seed: 'indexer-test', blockMs: 0, tps: 0, traffic: false, adnlPort: 0 });
  traffic = createTrafficGenerator(devnet.chain, devnet.genesisAccounts, { seed: 'indexer-test', tps: 15 });
  for (let i = 0; i < 6; i++) {
    await traffic.step();
    await devnet.sealNow();
  }
  lite = createLiteClient({ kind: 'engine', engine: devnet.engine });
  t = await createTestDatabase();
  await migrate(t.db);
}, 120_000);

afterAll(async () => {
  await t?.drop();
  await devnet?.close();
  rmDir(dir);
});

const indexer = (network = 'devnet') => new Indexer({ prisma: t.db.prisma, client: lite, log, network, startSeqno: 1, pollMs: 20 });

describe('Indexer on the devnet', () => {
  it('indexes every block and transaction of the chain, and they match the chain', async () => {
    const ix = indexer();
    expect(await ix.claim()).toBeNull();
    const head = devnet.chain.lastSeqno;
    await ix.indexRange(1, head);

    const chain = verifyChain(devnet.chain);
    expect(chain.transactions).toBeGreaterThan(50);
    expect(await t.db.prisma.transaction.count()).toBe(chain.transactions);
    // One masterchain and one basechain block per round.
    expect(await t.db.prisma.block.count({ where: { workchain: -1 } })).toBe(head);
    expect(await t.db.prisma.block.count({ where: { workchain: 0 } })).toBe(head);
    expect((await t.db.prisma.indexerState.findUnique({ where: { id: 'main' } }))?.lastMcSeqno).toBe(head);

    const report = await verifyRange({ prisma: t.db.prisma, client: lite, from: 1, to: head });
    expect(report.differences).toEqual([]);
    expect(report.transactions).toBe(chain.transactions);
  }, 90_000);

  it('stores what the lite client returns for an account: transactions, lts, hashes and the latest state', async () => {
    const faucet = devnet.genesisAccounts.find((a) => a.name === 'faucet')!;
    const addr = Address.parseRaw(faucet.address);
    const mc = await lite.getMasterchainInfo();
    const st = await lite.getAccountState(addr, mc.last);
    const txs = await lite.getAccountTransactions(addr, st.lastTx!.lt.toString(), Buffer.from(st.lastTx!.hash.toString(16).padStart(64, '0'), 'hex'), 10);
    const { loadTransaction, Cell } = await import('@ton/core');
    const cells = Cell.fromBoc(txs.transactions);
    for (const c of cells) {
      const tx = loadTransaction(c.beginParse());
      const row = await t.db.prisma.transaction.findFirst({ where: { hash: new Uint8Array(c.hash()) } });
      expect(row).not.toBeNull();
      expect(row!.lt).toBe(tx.lt);
      expect(row!.account).toBe(faucet.address.toUpperCase());
      expect(BigInt(row!.totalFees.toString())).toBe(tx.totalFees.coins);
    }
    const latest = await t.db.prisma.latestAccountState.findUnique({ where: { account: faucet.address.toUpperCase() } });
    expect(BigInt(latest!.balance.toString())).toBe(st.balance.coins);
    expect(latest!.lastTransLt).toBe(st.lastTx!.lt);
  });

  it('writes the shard state of each masterchain block: the block and the top shard block', async () => {
    const rows = await t.db.prisma.shardState.findMany({ where: { mcSeqno: 3 }, orderBy: { workchain: 'asc' } });
    expect(rows.map((r) => [r.workchain, r.seqno])).toEqual([
      [-1, 3],
      [0, 3],
    ]);
  });

  it('re-indexing a range adds nothing and loses nothing', async () => {
    const before = await t.db.prisma.transaction.count();
    await indexer().indexRange(2, 4);
    expect(await t.db.prisma.transaction.count()).toBe(before);
    expect(await t.db.prisma.message.count({ where: { txLt: { gt: 0n } } })).toBeGreaterThan(0);
  });

  it('follows the head live from the cursor', async () => {
    const ix = indexer();
    const run = ix.run();
    await devnet.sealNow();
    await devnet.sealNow();
    const target = devnet.chain.lastSeqno;
    for (let i = 0; i < 200 && (ix.progress.lastIndexedSeqno ?? 0) < target; i++) await new Promise((r) => setTimeout(r, 25));
    expect(ix.progress.lastIndexedSeqno).toBe(target);
    expect(ix.progress.state).toBe('live');
    await ix.stop();
    await run;
    expect(ix.progress.state).toBe('stopped');
    expect(await t.db.prisma.block.count({ where: { workchain: -1 } })).toBe(target);
  });

  it('indexes a shard block seen ahead from that one download, under the masterchain block that registered it', async () => {
    const seen: SeenShardBlock[] = [];
    const ix = new Indexer({ prisma: t.db.prisma, client: lite, log, network: 'devnet', events: { shardBlockSeen: (s) => seen.push(s) } });
    const last = (await ix.claim())!;
    await ix.indexMasterchainBlock(last); // already stored: tells the watcher the shard tops
    await traffic.step();
    await devnet.sealNow();
    const downloads: string[] = [];
    const query = lite.engine.query.bind(lite.engine);
    lite.engine.query = ((f: unknown, req: { id?: { workchain: number; seqno: number } }, ...rest: unknown[]) => {
      if (f === Functions.liteServer_getBlock) downloads.push(`${req.id!.workchain}:${req.id!.seqno}`);
      return (query as (...a: unknown[]) => unknown)(f, req, ...rest);
    }) as typeof lite.engine.query;
    try {
      await ix.watcher!.poll();
      expect(seen.map((s) => s.id.workchain)).toEqual([0]);
      const ahead = seen[0]!.id;
      expect(await ix.indexMasterchainBlock(last + 1)).toBeGreaterThan(0);
      expect(downloads.filter((d) => d === `0:${ahead.seqno}`)).toHaveLength(1);
      const block = await t.db.prisma.block.findFirst({ where: { workchain: 0, seqno: ahead.seqno } });
      expect(block?.mcBlockSeqno).toBe(last + 1);
      const txs = await t.db.prisma.transaction.findMany({ where: { blockWorkchain: 0, blockSeqno: ahead.seqno } });
      expect(txs.length).toBe(seen[0]!.block.transactions.length);
      expect(new Set(txs.map((x) => x.mcBlockSeqno))).toEqual(new Set([last + 1]));
    } finally {
      lite.engine.query = query;
      await ix.stop();
    }
    expect((await verifyRange({ prisma: t.db.prisma, client: lite, from: last + 1, to: last + 1 })).differences).toEqual([]);
  });

  it('verify reports a transaction missing from the database', async () => {
    const victim = await t.db.prisma.transaction.findFirst({ where: { mcBlockSeqno: 2 } });
    await t.db.prisma.message.deleteMany({ where: { txHash: victim!.hash } });
    await t.db.prisma.transaction.deleteMany({ where: { hash: victim!.hash } });
    const report = await verifyRange({ prisma: t.db.prisma, client: lite, from: 2, to: 2 });
    const [missing, ...rest] = report.differences;
    expect(missing).toContain(`transaction ${Buffer.from(victim!.hash).toString('hex')}`);
    // Its trace no longer adds up either (when it had one to itself, the trace row is what remains).
    const trace = victim!.traceId ? Buffer.from(victim!.traceId).toString('hex') : '';
    for (const d of rest) expect(d).toMatch(new RegExp(`^trace ${trace}`));
    // Re-indexing the block repairs it.
    await indexer().indexRange(2, 2);
    expect((await verifyRange({ prisma: t.db.prisma, client: lite, from: 2, to: 2 })).differences).toEqual([]);
  });

  it('refuses to index another chain into the same database', async () => {
    const other = tempDir();
    const devnet2 = await startDevnet({ dataDir: other, seed: 'another-chain', blockMs: 0, tps: 0, traffic: false, adnlPort: 0 });
    try {
      const client2 = createLiteClient({ kind: 'engine', engine: devnet2.engine });
      const ix = new Indexer({ prisma: t.db.prisma, client: client2, log, network: 'devnet' });
      await expect(ix.claim()).rejects.toThrow(ChainMismatchError);
      await expect(ix.claim()).rejects.toThrow(/indexes another chain/);
    } finally {
      await devnet2.close();
      rmDir(other);
    }
  }, 60_000);
});

describe('Indexer partitions (PostgreSQL)', () => {
  it('creates the partition of each block and the next ones as the index advances; PGlite stays plain', async () => {
    const fresh = await createTestDatabase();
    try {
      await migrate(fresh.db);
      // Three masterchain blocks per partition, one partition ahead: the devnet's few blocks cross several.
      const ix = new Indexer({ prisma: fresh.db.prisma, client: lite, log, network: 'devnet', startSeqno: 1, partitions: { size: 3, ahead: 1 } });
      await ix.claim();
      const head = devnet.chain.lastSeqno;
      expect(head).toBeGreaterThan(4);
      const ranges = async (table: string) =>
        (await fresh.db.session((s) => listPartitions(s))).filter((r) => r.table === table).map((r) => [r.from, r.to]);
      for (let seqno = 1; seqno <= head; seqno++) {
        await ix.indexMasterchainBlock(seqno);
        if (fresh.db.engine === 'pglite') continue;
        // The block's own partition and the next one exist once it is written, in every partitioned table.
        const upTo = (Math.floor(seqno / 3) + 2) * 3;
        const expected = Array.from({ length: upTo / 3 }, (_, k) => [k * 3, k * 3 + 3]);
        for (const table of ['transactions', 'messages', 'account_states', 'actions']) expect(await ranges(table)).toEqual(expected);
      }
      await ix.stop();
      const where = await fresh.db.session((s) =>
        s.query<{ part: string; n: string }>('SELECT tableoid::regclass::text AS part, count(*)::text AS n FROM transactions GROUP BY 1 ORDER BY 1'),
      );
      expect(where.reduce((n, r) => n + Number(r.n), 0)).toBe(verifyChain(devnet.chain).transactions);
      if (fresh.db.engine === 'pglite') {
        expect(where.map((r) => r.part)).toEqual(['transactions']);
        expect(await fresh.db.session((s) => listPartitions(s))).toEqual([]);
      } else {
        // Every row in its range partition, none left to the DEFAULT safety net.
        expect(where.map((r) => r.part)).not.toContain('transactions_default');
        expect(where.length).toBeGreaterThan(1);
      }
    } finally {
      await fresh.drop();
    }
  }, 120_000);
});

describe('Indexer on a devnet reopened from disk', () => {
  it('indexes old blocks whose states the liteserver no longer keeps, with the accounts\' states at the head', async () => {
    const seqnos = devnet.chain.lastSeqno;
    const txs = verifyChain(devnet.chain).transactions;
    await devnet.close();
    // Reopened, the devnet keeps only its newest state: asking for an old block's state fails.
    devnet = await startDevnet({ dataDir: dir, seed: 'indexer-test', blockMs: 0, tps: 0, traffic: false, adnlPort: 0 });
    const client = createLiteClient({ kind: 'engine', engine: devnet.engine });
    const faucet = Address.parseRaw(devnet.genesisAccounts.find((a) => a.name === 'faucet')!.address);
    const old = (await client.lookupBlockByID({ workchain: -1, shard: '-9223372036854775808', seqno: 2 })).id;
    await expect(client.getAccountState(faucet, old)).rejects.toThrow(/no longer kept/);

    const fresh = await createTestDatabase();
    try {
      await migrate(fresh.db);
      const warnings: string[] = [];
      const spy = Object.assign(Object.create(log) as typeof log, { warn: (_obj: unknown, msg: string) => warnings.push(msg) });
      const ix = new Indexer({ prisma: fresh.db.prisma, client, log: spy, network: 'devnet', startSeqno: 1, pollMs: 20 });
      await ix.run({ untilLive: true });
      expect(ix.progress.lastIndexedSeqno).toBe(seqnos);
      expect(await fresh.db.prisma.transaction.count()).toBe(txs);
      // Said once, not once per account or block.
      expect(warnings.filter((w) => /no longer keeps the states/.test(w))).toHaveLength(1);
      expect(warnings.filter((w) => /retrying/.test(w))).toEqual([]);
      // The latest state is the head's, and re-reading older blocks did not roll it back.
      const head = await client.getMasterchainInfo();
      const st = await client.getAccountState(faucet, head.last);
      const latest = await fresh.db.prisma.latestAccountState.findUniqueOrThrow({ where: { account: devnet.genesisAccounts.find((a) => a.name === 'faucet')!.address.toUpperCase() } });
      expect(latest.lastTransLt).toBe(st.lastTx!.lt);
      expect(BigInt(latest.balance.toFixed())).toBe(st.balance.coins);
    } finally {
      await fresh.drop();
    }
  }, 120_000);
});
