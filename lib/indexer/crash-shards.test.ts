/**
 * Crash safety across shard splits and merges: the real `npm run indexer` process, reading over ADNL a
 * devnet whose basechain splits and merges, is killed with SIGKILL just as it reaches each masterchain
 * block that registers a split (the before_split block, then both children) or a merge, and restarted.
 * The kill is sent the moment the child logs the block before the window committed, not after a random
 * delay: it lands while the child works on the window's blocks, and a failure names the window it hit.
 * Afterwards the index must equal the chain, topology included (verifyRange: 0 differences).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '../config';
import { startDevnet, type Devnet } from '../devnet';
import { createTrafficGenerator } from '../devnet/genesis';
import { loadBlock } from '../ton';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { rmDir, tempDir } from '../testing/devnet';
import { exited, spawnIndexer, withIndexDatabase } from '../testing/indexer-process';
import { createLiteClient } from '../lite';
import { verifyRange } from './verify';

const dataDir = tempDir('atlas-crash-shards-');
let devnet: Devnet;
let pgDb: TestDatabase | undefined;

beforeAll(async () => {
  devnet = await startDevnet({ dataDir, seed: 'crash-shards', blockMs: 0, tps: 0, traffic: false, adnlPort: 0, shards: 2, shardSchedule: { kind: 'cycle', rounds: 3 } });
  const traffic = createTrafficGenerator(devnet.chain, devnet.genesisAccounts, { seed: 'crash-shards', tps: 5 });
  for (let i = 0; i < 16; i++) {
    await traffic.step();
    await devnet.sealNow();
  }
  if (config().databaseUrl) pgDb = await createTestDatabase();
}, 180_000);

afterAll(async () => {
  await pgDb?.drop();
  await devnet?.close();
  rmDir(dataDir);
});

/** Masterchain blocks whose shard blocks split or merge (before_split, after_split, after_merge). */
function splitWindows(): number[] {
  const out: number[] = [];
  for (let k = 1; k <= devnet.chain.lastSeqno; k++) {
    const infos = devnet.chain.store.round(k).map((m) => loadBlock(devnet.chain.store.root(m).beginParse()).info);
    if (infos.some((i) => i.beforeSplit || i.afterSplit || i.afterMerge)) out.push(k);
  }
  return out;
}

describe('indexer crash safety across splits and merges', () => {
  it('survives a kill -9 at each split and merge window with no gaps or duplicates', async () => {
    const windows = splitWindows();
    // A before_split block, the children after it, a merged block, and so on.
    expect(windows.length).toBeGreaterThanOrEqual(4);
    for (const k of windows.slice(1, 5)) {
      const child = spawnIndexer(dataDir, [], pgDb?.url);
      // Killed as it logs the block before the window: it is downloading, parsing or storing the window's
      // blocks. (It cannot run far ahead meanwhile: this process serves its lite queries.)
      await child.passed(k - 1);
      child.proc.kill('SIGKILL');
      await exited(child.proc);
      // Its cursor, from its own logs: at the window (k - 1 .. k + 1) when it died.
      expect(child.position(), `cursor when killed at window ${k}`).toBeGreaterThanOrEqual(k - 1);
      expect(child.position(), `cursor when killed at window ${k}`).toBeLessThanOrEqual(k + 1);
    }
    const final = spawnIndexer(dataDir, ['--catch-up'], pgDb?.url);
    expect(await exited(final.proc), final.stderr()).toBe(0);

    await withIndexDatabase(dataDir, pgDb?.db, async ({ prisma }) => {
      const head = devnet.chain.lastSeqno;
      const lite = createLiteClient({ kind: 'engine', engine: devnet.engine }, { cache: false });
      const shardBlocks = Array.from({ length: head }, (_, i) => devnet.chain.store.round(i + 1).length).reduce((a, b) => a + b, 0);
      expect(await prisma.block.count({ where: { workchain: 0 } })).toBe(shardBlocks);
      const report = await verifyRange({ prisma, client: lite, from: 1, to: head });
      expect(report.differences).toEqual([]);
    });
  }, 600_000);
});
