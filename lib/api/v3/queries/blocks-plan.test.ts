// /api/v3/blocks (and masterchainBlockShards) read a page off an index for every combination of filters
// the route allows (lib/testing/plan.ts indexProblems), EXPLAINed on the suite's engine; so do
// masterchainInfo, masterchainBlockShardState and the masterchain-block check of the mc_seqno filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../../db/generated/client';
import { migrate } from '../../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../../testing/database';
import { indexProblems, planNodes, planTree, subsets } from '../../../testing/plan';
import { blocksQuery, masterchainBlockQuery, masterchainEndQuery, shardStateQuery, type BlockFilter } from './blocks';

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  // 4,000 masterchain blocks, each with two shard blocks.
  await t.db.session((s) =>
    s.exec(`
      INSERT INTO blocks (workchain, shard, seqno, root_hash, file_hash, mc_block_seqno, global_id, version, after_merge, before_split, after_split,
                          want_merge, want_split, key_block, vert_seqno_incr, flags, gen_utime, start_lt, end_lt, validator_list_hash_short,
                          gen_catchain_seqno, min_ref_mc_seqno, prev_key_block_seqno, vert_seqno, master_ref_seqno, rand_seed, created_by, tx_count, prev_blocks)
      SELECT w, CASE WHEN w = -1 THEN -9223372036854775808 ELSE sh END, i, decode(md5('r' || w || sh || i), 'hex'), decode(md5('f' || w || sh || i), 'hex'),
             i, -239, 0, false, false, false, false, false, false, false, 0, 1700000000 + i, i::int8 * 1000000, i::int8 * 1000000 + 99, 0, 0, 0, 0, 0, 0,
             '\\x00', '\\x00', 1, '[]'
      FROM generate_series(1, 4000) i, (VALUES (-1, 0::int8), (0, -6917529027641081856), (0, 6917529027641081856)) v(w, sh)
      WHERE w = 0 OR sh = 0;
      -- Each masterchain block's shard state: itself and the two shards' blocks.
      INSERT INTO shard_state (mc_seqno, workchain, shard, seqno)
      SELECT i, w, CASE WHEN w = -1 THEN -9223372036854775808 ELSE sh END, i
      FROM generate_series(1, 4000) i, (VALUES (-1, 0::int8), (0, -6917529027641081856), (0, 6917529027641081856)) v(w, sh)
      WHERE w = 0 OR sh = 0;
      ANALYZE blocks;
      ANALYZE shard_state;
    `),
  );
}, 60_000);
afterAll(() => t?.drop());

const KEYS: Record<string, Partial<BlockFilter>> = {
  workchain: { workchain: 0 },
  shard: { shard: -6917529027641081856n },
  seqno: { seqno: 2000 },
  root_hash: { rootHash: Buffer.alloc(32, 1) },
  file_hash: { fileHash: Buffer.alloc(32, 2) },
  mc_seqno: { mcSeqno: 2000 },
};
const RANGES: Record<string, Partial<BlockFilter>> = {
  '': {},
  lt: { startLt: 1_000_000_000n, endLt: 2_000_000_000n },
  utime: { startUtime: 1_700_001_000, endUtime: 1_700_002_000 },
  'lt+utime': { startLt: 1_000_000_000n, endLt: 2_000_000_000n, startUtime: 1_700_001_000, endUtime: 1_700_002_000 },
};

describe('/blocks plans', () => {
  it('every filter combination, range and order reads off an index', async () => {
    const bad: string[] = [];
    let planned = 0;
    for (const [k, keys] of subsets(KEYS))
      for (const [r, range] of Object.entries(RANGES))
        for (const sort of ['asc', 'desc'] as const) {
          const found = indexProblems(await planTree(t.db, blocksQuery({ ...keys, ...range, sort }, { take: 20, skip: 0 })), 'blocks');
          planned++;
          if (found.length) bad.push(`${[k, r, sort].filter(Boolean).join(' ')}: ${found.join('; ')}`);
        }
    expect(planned).toBe(64 * 4 * 2);
    expect(bad).toEqual([]);
  }, 120_000);

  it('the newest blocks come off the gen_utime index, ties put in order as they come', async () => {
    const nodes = planNodes(await planTree(t.db, blocksQuery({ sort: 'desc' }, { take: 20, skip: 0 })));
    expect(nodes.some((n) => n['Node Type'] === 'Sort')).toBe(false);
    expect(nodes.find((n) => n['Relation Name'] === 'blocks')?.['Index Name']).toBe('blocks_gen_utime_idx');
  });
});

describe('masterchainInfo, masterchainBlockShardState and the masterchain-block check', () => {
  it('the first and last masterchain blocks walk the primary key from either end: no sort of the masterchain', async () => {
    for (const end of ['first', 'last'] as const) {
      const nodes = planNodes(await planTree(t.db, masterchainEndQuery(end)));
      expect(nodes.some((n) => n['Node Type'] === 'Sort'), end).toBe(false);
      expect(nodes.find((n) => n['Relation Name'] === 'blocks')?.['Index Name'], end).toBe('blocks_pkey');
    }
  });

  it('a shard state and a masterchain block are read by key', async () => {
    expect(indexProblems(await planTree(t.db, shardStateQuery(2000)), ['blocks', 'shard_state'])).toEqual([]);
    expect(indexProblems(await planTree(t.db, masterchainBlockQuery(2000)), 'blocks')).toEqual([]);
  });

  it('the check catches a sort of every block', async () => {
    const byTxCount = Prisma.sql`SELECT b.seqno FROM blocks b ORDER BY b.tx_count DESC LIMIT ${20}`;
    expect(indexProblems(await planTree(t.db, byTxCount), 'blocks')).not.toEqual([]);
  });
});
