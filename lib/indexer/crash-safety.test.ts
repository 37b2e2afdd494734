/**
 * Crash safety: the real `npm run indexer` process, reading a devnet over ADNL, is killed with SIGKILL at
 * 20 random moments while it catches up and restarted each time; on PostgreSQL its database connections
 * are also cut under it. Afterwards the index must equal the chain: every block and transaction once,
 * no gaps, no duplicates (verifyRange), on whichever engine the suite runs against.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '../config';
import { openDatabase, type Database } from '../db/database';
import { createTestDatabase, type TestDatabase } from '../db/testing';
import { startDevnet, type Devnet } from '../devnet';
import { createTrafficGenerator } from '../devnet/genesis';
import { rmDir, tempDir, verifyChain } from '../devnet/test-support';
import { createLiteClient } from '../lite';
import { verifyRange } from './verify';

const KILLS = 20;
const ROOT = path.resolve(__dirname, '../..');
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

interface Child {
  proc: ChildProcess;
  /** Resolves when the indexer has claimed the chain and starts indexing (or rejects if it exits first). */
  indexing: Promise<void>;
  /** Where its cursor was when it was killed, from its own logs (-1: it never started indexing). */
  position: () => number;
}

/** The real indexer process, logging at debug level so the test sees where it is (its JSON log lines). */
function spawnIndexer(args: string[] = []): Child {
  // The child is not a test (no VITEST, NODE_ENV=production): it must log.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'VITEST' && k !== 'NODE_ENV' && k !== 'DATABASE_URL'));
  const env = { ...inherited, TON_NETWORK: 'devnet', ATLAS_DATA_DIR: dataDir, LOG_LEVEL: 'debug', NODE_ENV: 'production' as const, ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) };
  const proc = spawn(process.execPath, ['--import', 'tsx', 'scripts/indexer.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let position = -1;
  let started!: () => void;
  let failed!: (e: Error) => void;
  const indexing = new Promise<void>((resolve, reject) => ((started = resolve), (failed = reject)));
  indexing.catch(() => undefined); // a child killed during start-up never gets there
  let buffered = '';
  proc.stdout!.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      const entry = line.startsWith('{') ? (JSON.parse(line) as { msg?: string; seqno?: number; from?: number }) : {};
      if (entry.msg === 'indexing' && entry.from) {
        position = entry.from - 1;
        started();
      }
      if (entry.msg === 'indexed' && entry.seqno) position = entry.seqno;
    }
  });
  proc.once('exit', (code) => failed(new Error(`indexer exited with ${code} before indexing`)));
  return { proc, indexing, position: () => position };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null || child.signalCode ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));

/** The child's database, opened here while no child runs (PGlite admits one process). */
async function withDatabase<T>(fn: (db: Database) => Promise<T>): Promise<T> {
  if (pgDb) return fn(pgDb.db);
  const db = await openDatabase({ engine: 'pglite', dir: path.join(dataDir, 'db') });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Cuts every connection of the test database, as a PostgreSQL restart would. */
async function cutConnections(url: string) {
  const c = new pg.Client({ connectionString: config().databaseUrl });
  await c.connect();
  try {
    await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [new URL(url).pathname.slice(1)]);
  } finally {
    await c.end();
  }
}

describe('indexer crash safety', () => {
  it(`survives ${KILLS} kill -9s and cut database connections during catch-up with no gaps or duplicates`, async () => {
    const head = devnet.chain.lastSeqno;
    // Deterministic "random" moments: spread over start-up, migration, fetching and committing.
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let midCatchUp = 0;
    for (let i = 0; i < KILLS; i++) {
      const child = spawnIndexer();
      if (i % 5 === 4) {
        // Some moments fall in start-up: connecting, migrating, claiming the chain.
        await sleep(rand() * 1500);
      } else {
        await child.indexing;
        if (pgDb && i % 4 === 3) {
          await cutConnections(pgDb.url!);
          await sleep(rand() * 200);
        }
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
    let stderr = '';
    final.proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    expect(await exited(final.proc), stderr).toBe(0);

    const lite = createLiteClient({ kind: 'engine', engine: devnet.engine }, { cache: false });
    await withDatabase(async ({ prisma: p }) => {
      expect((await p.indexerState.findUnique({ where: { id: 'main' } }))?.lastMcSeqno).toBe(head);
      expect(await p.block.count({ where: { workchain: -1 } })).toBe(head);
      expect(await p.transaction.count()).toBe(verifyChain(devnet.chain).transactions);
      const report = await verifyRange({ prisma: p, client: lite, from: 1, to: head });
      expect(report.differences).toEqual([]);
    });
  }, 300_000);
});
