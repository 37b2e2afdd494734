// Upgrading a populated index to the partitioned layout (migration 20261128100000_partitions), as a user
// would: the database migrated up to the migration before it and holding rows in the old shape, then
// migrated to the end. Every row is kept, the new seqno columns are filled from the transactions, and on
// PostgreSQL each row sits in its range partition (none in DEFAULT); PGlite keeps plain tables.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS_DIR, readMigrations } from './migrate';
import { createTestDatabase, type TestDatabase } from '../testing/database';

const PARTITIONS = '20261128100000_partitions';
let t: TestDatabase;

/** The shipped migrations before the partitioning one, in a directory of their own. */
function migrationsBefore(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atlas-mig-'));
  for (const m of readMigrations().filter((x) => x.name < name)) fs.cpSync(path.join(MIGRATIONS_DIR, m.name), path.join(dir, m.name), { recursive: true });
  return dir;
}

const query = <T extends Record<string, unknown>>(sql: string) => t.db.session((s) => s.query<T>(sql));

beforeAll(async () => {
  t = await createTestDatabase();
  const dir = migrationsBefore(PARTITIONS);
  await migrate(t.db, { dir });
  fs.rmSync(dir, { recursive: true, force: true });
  // Rows in the old shape: 40 transactions under masterchain seqnos 5 and 2,500,005 (two ranges), one
  // stored without a seqno (its block has one); an in and an out message each; the state each left; one
  // state no transaction names; an action per transaction of two traces.
  await t.db.session((s) =>
    s.exec(`
      INSERT INTO blocks (workchain, shard, seqno, root_hash, file_hash, mc_block_seqno, global_id, version, after_merge, before_split, after_split,
                          want_merge, want_split, key_block, vert_seqno_incr, flags, gen_utime, start_lt, end_lt, validator_list_hash_short,
                          gen_catchain_seqno, min_ref_mc_seqno, prev_key_block_seqno, vert_seqno, master_ref_seqno, rand_seed, created_by, tx_count, prev_blocks)
      VALUES (0, 0, 77, '\\x01', '\\x01', 2500005, 0, 0, false, false, false, false, false, false, false, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '\\x00', '\\x00', 1, '[]');
      INSERT INTO transactions (hash, account, lt, now, block_workchain, block_shard, block_seqno, mc_block_seqno, prev_trans_hash, prev_trans_lt,
                                orig_status, end_status, total_fees, description, account_state_hash_before, account_state_hash_after)
      SELECT decode(md5('t' || i), 'hex'), '0:' || i, i, 0, 0, 0, CASE WHEN i = 40 THEN 77 ELSE 1 END,
             CASE WHEN i = 40 THEN NULL WHEN i <= 20 THEN 5 ELSE 2500005 END,
             '\\x00', 0, 'active', 'active', i, '{}', '\\x00', decode(md5('s' || i), 'hex')
      FROM generate_series(1, 40) i;
      INSERT INTO messages (tx_hash, tx_lt, msg_hash, direction, source, destination, sort_lt)
      SELECT decode(md5('t' || i), 'hex'), i, decode(md5('m' || i || d), 'hex'), d, '0:1', '0:2', i
      FROM generate_series(1, 40) i, unnest(ARRAY['in', 'out']) d;
      INSERT INTO account_states (hash, account, balance, account_status)
      SELECT decode(md5('s' || i), 'hex'), '0:' || i, i, 'active' FROM generate_series(1, 40) i
      UNION ALL SELECT decode(md5('orphan'), 'hex'), '0:99', 0, 'nonexist';
      INSERT INTO actions (trace_id, action_id, type, tx_hashes, start_lt, end_lt, start_utime, end_utime, trace_end_lt, trace_end_utime,
                           trace_mc_seqno_end, mc_seqno_end, success, data)
      SELECT decode(md5(CASE WHEN i <= 20 THEN 'a' ELSE 'b' END), 'hex'), decode(md5('x' || i), 'hex'), 'ton_transfer', '{}', i, i, 0, 0, i, 0,
             CASE WHEN i <= 20 THEN 5 ELSE 2500005 END, 5, true, '{}'
      FROM generate_series(1, 40) i;
    `),
  );
  const result = await migrate(t.db);
  expect(result.applied[0]).toBe(PARTITIONS);
}, 60_000);
afterAll(() => t?.drop());

describe(`upgrading a populated index with ${PARTITIONS}`, () => {
  it('keeps every row and fills the partition keys from the transactions', async () => {
    const counts = await query<{ t: string; m: string; s: string; a: string }>(
      'SELECT (SELECT count(*) FROM transactions)::text AS t, (SELECT count(*) FROM messages)::text AS m, (SELECT count(*) FROM account_states)::text AS s, (SELECT count(*) FROM actions)::text AS a',
    );
    expect(counts).toEqual([{ t: '40', m: '80', s: '41', a: '40' }]);
    // The transaction stored without a seqno took its block's.
    expect(await query("SELECT mc_block_seqno FROM transactions WHERE hash = decode(md5('t40'), 'hex')")).toEqual([{ mc_block_seqno: 2500005 }]);
    // Messages and states carry their transaction's seqno; a state no transaction names goes to 0.
    expect(await query('SELECT count(*)::int AS n FROM messages m JOIN transactions t ON t.hash = m.tx_hash WHERE m.mc_block_seqno <> t.mc_block_seqno')).toEqual([{ n: 0 }]);
    expect(await query('SELECT count(*)::int AS n FROM account_states s JOIN transactions t ON t.account_state_hash_after = s.hash WHERE s.mc_block_seqno <> t.mc_block_seqno')).toEqual([{ n: 0 }]);
    expect(await query("SELECT mc_block_seqno FROM account_states WHERE hash = decode(md5('orphan'), 'hex')")).toEqual([{ mc_block_seqno: 0 }]);
    // The keys hold: the same row again is a conflict.
    await expect(query('INSERT INTO transactions SELECT * FROM transactions LIMIT 1')).rejects.toThrow(/duplicate key/);
  });

  it('puts the rows in their range partitions on PostgreSQL, leaves plain tables on PGlite', async () => {
    const where = await query<{ part: string; n: number }>(`
      SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM transactions GROUP BY 1
      UNION ALL SELECT tableoid::regclass::text, count(*)::int FROM messages GROUP BY 1
      UNION ALL SELECT tableoid::regclass::text, count(*)::int FROM account_states GROUP BY 1
      UNION ALL SELECT tableoid::regclass::text, count(*)::int FROM actions GROUP BY 1 ORDER BY 1`);
    if (t.db.engine === 'pglite') {
      expect(where).toEqual([
        { part: 'account_states', n: 41 },
        { part: 'actions', n: 40 },
        { part: 'messages', n: 80 },
        { part: 'transactions', n: 40 },
      ]);
      return;
    }
    expect(where).toEqual([
      { part: 'account_states_p0', n: 21 },
      { part: 'account_states_p2000000', n: 20 },
      { part: 'actions_p0', n: 20 },
      { part: 'actions_p2000000', n: 20 },
      { part: 'messages_p0', n: 40 },
      { part: 'messages_p2000000', n: 40 },
      { part: 'transactions_p0', n: 20 },
      { part: 'transactions_p2000000', n: 20 },
    ]);
  });
});
