/**
 * Crash safety: the real `npm run indexer` process, reading a devnet over ADNL, is killed with SIGKILL at
 * 12 random moments while it catches up and restarted each time (on whichever engine the suite runs
 * against); and, on a private PostgreSQL server of the test's own, the server is really restarted
 * (pg_ctl stop -m fast / immediate, then start) under a catching-up indexer several times. Afterwards
 * the index must equal the chain: every block and transaction once, no gaps, no duplicates, every trace's
 * counters right (verifyRange).
 * The restart part belongs to the PostgreSQL suite (DATABASE_URL set; CI runs it there): its server is its
 * own whatever engine the suite uses, so running it in the PGlite suite too would repeat it unchanged. It
 * needs the PostgreSQL server binaries, and fails (does not skip) without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '../config';
import { openDatabase, type Database } from '../db/database';
import { startPrivatePostgres } from '../testing/private-postgres';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { startDevnet, type Devnet } from '../devnet';
import { createTrafficGenerator } from '../devnet/genesis';
import { rmDir, tempDir, verifyChain } from '../testing/devnet';
import { createLiteClient } from '../lite';
import { verifyRange } from './verify';
import { exited, spawnIndexer as spawnIndexerProcess, withIndexDatabase, type IndexerChild } from '../testing/indexer-process';

const KILLS = 12;
const RESTARTS = 6;
const dataDir = tempDir('atlas-crash-');
let devnet: Devnet;
let pgDb: TestDatabase | undefined;

beforeAll(async () => {
  devnet = await startDevnet({ dataDir, seed: 'crash-safety', blockMs: 0, tps: 0, traffic: false, adnlPort: 0 });
  const traffic = createTrafficGenerator(devnet.chain, devnet.genesisAccounts, { seed: 'crash-safety', tps: 15 });
  for (let i = 0; i < 60; i++) {
    await traffic.step();
    await devnet.sealNow();
  }
  // On PostgreSQL the child gets a fresh database; on PGlite it uses $ATLAS_DATA_DIR/db (created by it).
  if (config().databaseUrl) pgDb = await createTestDatabase();
}, 120_000);

afterAll(async () => {
  await pgDb?.drop();
  await devnet?.close();
  rmDir(dataDir);
});

function spawnIndexer(args: string[] = [], databaseUrl = pgDb?.url): IndexerChild {
  return spawnIndexerProcess(dataDir, args, databaseUrl);
}

const withDatabase = <T>(fn: (db: Database) => Promise<T>) => withIndexDatabase(dataDir, pgDb?.db, fn);

/** The index holds the whole chain: every block and transaction once, equal to the chain's. */
async function expectIndexEqualsChain({ prisma: p }: Database) {
  const head = devnet.chain.lastSeqno;
  const lite = createLiteClient({ kind: 'engine', engine: devnet.engine }, { cache: false });
  expect((await p.indexerState.findUnique({ where: { id: 'main' } }))?.lastMcSeqno).toBe(head);
  expect(await p.block.count({ where: { workchain: -1 } })).toBe(head);
  expect(await p.transaction.count()).toBe(verifyChain(devnet.chain).transactions);
  const report = await verifyRange({ prisma: p, client: lite, from: 1, to: head });
  expect(report.differences).toEqual([]);
  // verifyRange checks each trace's counters; here also that each transaction was counted once and that
  // every trace that completed got its actions.
  expect((await p.trace.aggregate({ _sum: { transactions: true } }))._sum.transactions).toBe(verifyChain(devnet.chain).transactions);
  expect(await p.trace.count({ where: { state: 'complete', classifierVersion: null } })).toBe(0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('indexer crash safety', () => {
  it(`survives ${KILLS} kill -9s during catch-up with no gaps or duplicates`, async () => {
    const head = devnet.chain.lastSeqno;
    // Deterministic "random" moments: spread over start-up, migration, fetching and committing.
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let midCatchUp = 0;
    for (let i = 0; i < KILLS; i++) {
      const child = spawnIndexer();
      if (i % 4 === 3) {
        // Some moments fall in start-up: connecting, migrating, claiming the chain.
        await sleep(rand() * 1500);
      } else {
        await child.indexing;
        // Then anywhere in its first blocks: downloading, parsing, inside the database transaction.
        await sleep(rand() * 1200);
      }
      child.proc.kill('SIGKILL');
      await exited(child.proc);
      if (child.position() >= 0 && child.position() < head) midCatchUp++;
    }
    // How many kills fell inside a catch-up depends on the machine's speed; a quarter of them at least.
    expect(midCatchUp).toBeGreaterThanOrEqual(KILLS / 4);

    // Let it finish: it must resume from whatever the kills left.
    const final = spawnIndexer(['--catch-up']);
    expect(await exited(final.proc), final.stderr()).toBe(0);

    await withDatabase(expectIndexEqualsChain);
  }, 600_000);

  // Registered only in the PostgreSQL suite (see the header): not a skipped test in the other.
  if (config().databaseUrl) {
    it(`survives ${RESTARTS} PostgreSQL server restarts (fast and immediate) during catch-up with no gaps or duplicates`, async () => {
      const head = devnet.chain.lastSeqno;
      const server = await startPrivatePostgres();
      let child: IndexerChild | undefined;
      try {
        const url = await server.createDatabase('atlas');
        child = spawnIndexer(['--catch-up'], url);
        let seed = 54321;
        const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
        let midCatchUp = 0;
        for (let i = 0; i < RESTARTS; i++) {
          // Spread over the catch-up: after the cursor passes the i-th of RESTARTS + 1 equal steps, somewhere
          // in the next block (fetching, or inside its database transaction).
          await child.passed(Math.floor(((i + 1) * head) / (RESTARTS + 2)));
          await sleep(rand() * 150);
          // fast: clients are disconnected and the server checkpoints; immediate: it aborts like a crash and
          // recovers from the WAL at start. Either way open transactions are lost mid-flight.
          await server.stop(i % 2 ? 'immediate' : 'fast');
          if (child.position() < head) midCatchUp++;
          await sleep(rand() * 1000); // the indexer meets a dead server and retries with backoff
          await server.start();
        }
        // The child's cursor is read from its logs; with the server down it cannot move, so every restart
        // must have hit the catch-up (the steps end well before the head).
        expect(midCatchUp).toBe(RESTARTS);
        expect(child.failures()).toBeGreaterThan(0); // the restarts did reach it
        // The same process finishes the catch-up on its own: it retried from its stored cursor each time.
        expect(await exited(child.proc), child.stderr()).toBe(0);
        const db = await openDatabase({ engine: 'postgresql', url });
        try {
          await expectIndexEqualsChain(db);
        } finally {
          await db.close();
        }
      } finally {
        child?.proc.kill('SIGKILL');
        await server.destroy();
      }
    }, 600_000);
  }
});
