/**
 * Range backfill (`npm run indexer -- --from A --to B`) on a devnet: the real process, reading the devnet
 * over ADNL, is killed with SIGKILL mid-range and started again with the same range; it goes on where the
 * first one stopped (no block indexed twice), logs its progress (done/total, rate, ETA), and the index it
 * ends with is the one an uninterrupted run makes, table for table. And a backfill of older blocks next to
 * a follower that started near the head (on the same database, while the chain grows) leaves the
 * follower's cursor and work alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '../config';
import { Prisma, type PrismaClient } from '../db/generated/client';
import { migrate } from '../db/migrate';
import { startDevnet, type Devnet } from '../devnet';
import { createTrafficGenerator } from '../devnet/genesis';
import { createLiteClient } from '../lite';
import { log } from '../log';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { rmDir, tempDir, verifyChain } from '../testing/devnet';
import { exited, spawnIndexer, withIndexDatabase, type IndexerLogLine } from '../testing/indexer-process';
import { TvmPool } from '../tvm/pool';
import { Indexer } from './follower';
import { backfillRange } from './range-backfill';

const ROUNDS = 16;
const dataDir = tempDir('atlas-backfill-');
let devnet: Devnet;
let traffic: ReturnType<typeof createTrafficGenerator>;
/** The child processes' database on PostgreSQL (on PGlite: $ATLAS_DATA_DIR/db, made by the first child). */
let childDb: TestDatabase | undefined;
const tvm = new TvmPool();
/** This process's client of the devnet (closing it would close the devnet's engine: once, at the end). */
let lite: ReturnType<typeof createLiteClient>;

beforeAll(async () => {
  devnet = await startDevnet({ dataDir, seed: 'range-backfill', blockMs: 0, tps: 0, traffic: false, adnlPort: 0 });
  traffic = createTrafficGenerator(devnet.chain, devnet.genesisAccounts, { seed: 'range-backfill', tps: 10 });
  for (let i = 0; i < ROUNDS; i++) {
    await traffic.step();
    await devnet.sealNow();
  }
  lite = createLiteClient({ kind: 'engine', engine: devnet.engine }, { cache: false });
  if (config().databaseUrl) childDb = await createTestDatabase();
}, 120_000);

afterAll(async () => {
  lite?.engine.close();
  await childDb?.drop();
  await tvm.close();
  await devnet?.close();
  rmDir(dataDir);
});

/** The fields of the backfill's log lines the test reads. */
interface BackfillLine extends IndexerLogLine {
  component?: string;
  done?: number;
  total?: number;
  percent?: number;
  blocksPerSecond?: number;
  transactionsPerSecond?: number;
  etaSeconds?: number | null;
  alreadyIndexed?: number;
  indexed?: number;
}

/** `npm run indexer -- --from 1 --to <to> --progress-every 0` as its own process, its log lines collected. */
function spawnBackfill(to: number) {
  const child = spawnIndexer(dataDir, ['--from', '1', '--to', String(to), '--progress-every', '0'], childDb?.url);
  const lines = () => child.lines() as readonly BackfillLine[];
  return {
    proc: child.proc,
    lines,
    backfilled: () => lines().filter((l) => l.msg === 'backfilled').map((l) => l.seqno!),
    stderr: child.stderr,
    /** Resolves once it has logged `n` blocks backfilled. */
    passed: (n: number) => child.logged('backfilled', n),
  };
}

/**
 * Every row of every table of the index, each table's rows in a stable order, as JSON: what two indexes
 * must agree on. Left out: times of writing (timestamps) and the indexer's own cursor row. A table's
 * serial `id` (insertion order, e.g. jetton_masters') is compared as the row's rank: a transaction a kill
 * cut short still used up sequence values, so the numbers may have gaps, but the order must be the same.
 */
async function snapshot(prisma: PrismaClient): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const plain = (_: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v);
  // (JSON.stringify turns a Date into a string before a replacer sees it: times go before.)
  const timeless = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).filter(([, v]) => !(v instanceof Date)));
  for (const model of Object.values(Prisma.ModelName)) {
    if (model === 'IndexerState') continue;
    const delegate = (prisma as unknown as Record<string, { findMany(): Promise<Record<string, unknown>[]> }>)[model[0]!.toLowerCase() + model.slice(1)]!;
    let rows = await delegate.findMany();
    if (rows.some((r) => typeof r.id === 'bigint')) {
      rows = [...rows].sort((a, b) => (a.id as bigint) < (b.id as bigint) ? -1 : 1).map((r, rank) => ({ ...r, id: rank }));
    }
    out[model] = rows.map((row) => JSON.stringify(timeless(row), plain)).sort();
  }
  return out;
}

const cursorOf = async (prisma: PrismaClient) => (await prisma.indexerState.findUnique({ where: { id: 'main' } }))?.lastMcSeqno ?? null;

describe('range backfill', () => {
  it('killed mid-range and run again, it resumes where it stopped, reports progress and ends with the index of an uninterrupted run', async () => {
    const head = devnet.chain.lastSeqno;
    const chainTxs = verifyChain(devnet.chain).transactions;

    // The uninterrupted run, in this process, on a database of its own.
    const whole = await createTestDatabase();
    try {
      await migrate(whole.db);
      const indexer = new Indexer({ prisma: whole.db.prisma, client: lite, log, network: 'devnet', tvm });
      await indexer.claim();
      const r = await backfillRange({ prisma: whole.db.prisma, indexer, from: 1, to: head, log });
      await indexer.stop();
      expect(r).toMatchObject({ total: head, alreadyIndexed: 0, indexed: head, transactions: chainTxs, stopped: false });
      expect(await whole.db.prisma.transaction.count()).toBe(chainTxs);

      // The real process, killed with SIGKILL a few blocks in, then started again with the same range.
      const first = spawnBackfill(head);
      await first.passed(5);
      first.proc.kill('SIGKILL');
      await exited(first.proc);
      const before = first.backfilled();
      expect(before.length).toBeLessThan(head);

      const second = spawnBackfill(head);
      expect(await exited(second.proc), second.stderr()).toBe(0);
      const start = second.lines().find((l) => l.msg?.startsWith('backfill resuming'));
      // What the first run committed (its last block may have committed before it could log it).
      expect(start).toMatchObject({ total: head, done: start!.alreadyIndexed });
      expect(start!.alreadyIndexed).toBeGreaterThanOrEqual(before.length);
      expect(start!.alreadyIndexed).toBeLessThanOrEqual(before.length + 1);
      // It went on from there: no block the first run indexed was indexed again, none was left out.
      const after = second.backfilled();
      expect(after.filter((s) => before.includes(s))).toEqual([]);
      expect(after).toHaveLength(head - start!.alreadyIndexed!);
      expect(after).toEqual([...after].sort((a, b) => a - b));
      expect(after.at(-1)).toBe(head);

      // Progress after every block (--progress-every 0): done of total, percent, rates, ETA.
      const progress = second.lines().filter((l) => l.msg === 'backfill progress');
      expect(progress).toHaveLength(after.length);
      progress.forEach((p, i) => {
        expect(p).toMatchObject({ seqno: after[i], done: start!.alreadyIndexed! + i + 1, total: head });
        expect(p.percent).toBe(Math.floor(((start!.alreadyIndexed! + i + 1) / head) * 1000) / 10);
        expect(typeof p.blocksPerSecond).toBe('number');
        expect(typeof p.transactionsPerSecond).toBe('number');
        expect(p.etaSeconds === null || typeof p.etaSeconds === 'number').toBe(true);
      });
      expect(progress.at(-1)).toMatchObject({ done: head, percent: 100, etaSeconds: 0 });
      // The backfill's own last word (a TVM worker started for the last blocks may log its start after it).
      expect(second.lines().filter((l) => l.component === 'backfill').at(-1)).toMatchObject({ msg: 'backfill done', done: head, total: head, indexed: after.length });

      // The same index, row for row; and neither run moved the follower's cursor.
      const expected = await snapshot(whole.db.prisma);
      expect(expected.Transaction).toHaveLength(chainTxs);
      await withIndexDatabase(dataDir, childDb?.db, async (db) => {
        const got = await snapshot(db.prisma);
        for (const table of Object.keys(expected)) expect([table, got[table]]).toEqual([table, expected[table]]);
        expect(await cursorOf(db.prisma)).toBeNull();
      });
      expect(await cursorOf(whole.db.prisma)).toBeNull();
    } finally {
      await whole.drop();
    }
  }, 600_000);

  it('fills older blocks next to a follower that started near the head, without disturbing it', async () => {
    const start = devnet.chain.lastSeqno - 2;
    const db = await createTestDatabase();
    const follower = new Indexer({ prisma: db.db.prisma, client: lite, log, network: 'devnet', startSeqno: start, pollMs: 20, tvm });
    try {
      await migrate(db.db);
      void follower.run();
      const live = (seqno: number) => async () => {
        const deadline = Date.now() + 60_000;
        while (follower.progress.lastIndexedSeqno !== seqno) {
          if (Date.now() > deadline) throw new Error(`the follower did not reach ${seqno}: ${JSON.stringify(follower.progress)}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      await live(devnet.chain.lastSeqno)();

      // The older range, filled while the chain grows and the follower follows it.
      const backfiller = new Indexer({ prisma: db.db.prisma, client: lite, log, network: 'devnet', tvm });
      await backfiller.claim();
      const growing = (async () => {
        for (let i = 0; i < 3; i++) {
          await traffic.step();
          await devnet.sealNow();
        }
      })();
      const r = await backfillRange({ prisma: db.db.prisma, indexer: backfiller, from: 1, to: start - 1, log });
      await growing;
      await backfiller.stop();
      expect(r).toMatchObject({ alreadyIndexed: 0, indexed: start - 1, stopped: false });
      const head = devnet.chain.lastSeqno;
      await live(head)();

      // The follower's cursor is its own: at the head it followed to, never moved by the backfill.
      expect(follower.progress.state).toBe('live');
      expect(await cursorOf(db.db.prisma)).toBe(head);
      // Every block once: the backfill's and the follower's together are the whole chain.
      expect(await db.db.prisma.block.count({ where: { workchain: -1 } })).toBe(head);
      expect(await db.db.prisma.transaction.count()).toBe(verifyChain(devnet.chain).transactions);

      // The same range again does nothing: every block of it is there.
      const again = new Indexer({ prisma: db.db.prisma, client: lite, log, network: 'devnet', tvm });
      await again.claim();
      expect(await backfillRange({ prisma: db.db.prisma, indexer: again, from: 1, to: head, log })).toMatchObject({ alreadyIndexed: head, indexed: 0 });
      await again.stop();
    } finally {
      await follower.stop();
      await db.drop();
    }
  }, 300_000);
});
