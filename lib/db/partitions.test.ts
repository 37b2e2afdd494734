// The partition keeper on the suite's engine: on PostgreSQL it creates range partitions ahead of a seqno,
// moves rows the DEFAULT partition caught into the partition made for them, and never overlaps partitions
// of another size; on PGlite (plain tables) it does nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from './migrate';
import { listPartitions, PartitionKeeper, type PartitionRange } from './partitions';
import { config } from '../config';
import { createTestDatabase, type TestDatabase } from '../testing/database';

// Each engine's cases are registered only in the suite that runs on it (CI runs both), never skipped.
const onPostgres = !!config().databaseUrl;
const onEngine = (postgres: boolean) => (postgres === onPostgres ? it : () => undefined);

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
});
afterAll(() => t?.drop());

const partitions = async (table = 'transactions') =>
  (await t.db.session((s) => listPartitions(s))).filter((r) => r.table === table).map((r) => [r.from, r.to]);
const named = (made: PartitionRange[], table = 'transactions') => made.filter((r) => r.table === table).map((r) => [r.from, r.to]);

/** One transaction stored at masterchain seqno `seqno`, as a bulk copy would write it. */
async function insertAt(seqno: number, tag: string) {
  await t.db.session((s) =>
    s.query(
      `INSERT INTO transactions (hash, account, lt, now, block_workchain, block_shard, block_seqno, mc_block_seqno, prev_trans_hash, prev_trans_lt,
                                 orig_status, end_status, total_fees, description, account_state_hash_before, account_state_hash_after)
       VALUES (decode(md5($1), 'hex'), '0:00', $2::bigint, 0, 0, 0, 0, $2::int, '\\x00', 0, 'active', 'active', 0, '{}', '\\x00', '\\x00')`,
      [tag, seqno],
    ),
  );
}
const partitionOf = async (tag: string) =>
  (await t.db.session((s) => s.query<{ part: string }>(`SELECT tableoid::regclass::text AS part FROM transactions WHERE hash = decode(md5($1), 'hex')`, [tag])))[0]?.part;

describe('PartitionKeeper', () => {
  onEngine(false)('on PGlite, the tables are plain and nothing is created', async () => {
    expect(await new PartitionKeeper(t.db, { size: 10 }).ensure(5)).toEqual([]);
    expect(await t.db.session((s) => listPartitions(s))).toEqual([]);
    await insertAt(45, 'plain');
    expect(await partitionOf('plain')).toBe('transactions');
  });

  onEngine(true)('on PostgreSQL, creates the partition of a seqno and the next ones in every table, once', async () => {
    const keeper = new PartitionKeeper(t.db, { size: 10, ahead: 2 });
    const made = await keeper.ensure(5);
    expect(named(made)).toEqual([[0, 10], [10, 20], [20, 30]]);
    for (const table of ['transactions', 'messages', 'account_states', 'actions']) expect(await partitions(table)).toEqual([[0, 10], [10, 20], [20, 30]]);
    // Known to exist: no new partition for a seqno inside them, by this keeper or a fresh one.
    expect(await keeper.ensure(9)).toEqual([]);
    expect(named(await new PartitionKeeper(t.db, { size: 10, ahead: 1 }).ensure(12))).toEqual([]);
  });

  onEngine(true)('on PostgreSQL, a row the DEFAULT partition caught moves into the partition created for it', async () => {
    await insertAt(45, 'early');
    expect(await partitionOf('early')).toBe('transactions_default');
    const made = await new PartitionKeeper(t.db, { size: 10, ahead: 0 }).ensure(41);
    expect(named(made)).toEqual([[40, 50]]);
    expect(await partitionOf('early')).toBe('transactions_p40');
    // Rows keep landing in their partition from now on; a gap below is filled when asked for.
    await insertAt(47, 'later');
    expect(await partitionOf('later')).toBe('transactions_p40');
    expect(named(await new PartitionKeeper(t.db, { size: 10, ahead: 0 }).ensure(33))).toEqual([[30, 40]]);
  });

  onEngine(true)('on PostgreSQL, a keeper of another size fits its partitions between the existing ones', async () => {
    // Size 25 at 52: its aligned ranges [50, 75) and [75, 100) start where [40, 50) ends.
    const made = await new PartitionKeeper(t.db, { size: 25, ahead: 1 }).ensure(52);
    expect(named(made)).toEqual([[50, 75], [75, 100]]);
    // Size 8 at 58 is covered by [50, 75); at 101 its aligned range [96, 104) is cut to start after [75, 100).
    expect(named(await new PartitionKeeper(t.db, { size: 8, ahead: 0 }).ensure(101))).toEqual([[100, 104]]);
    expect(await partitions()).toEqual([[0, 10], [10, 20], [20, 30], [30, 40], [40, 50], [50, 75], [75, 100], [100, 104]]);
  });
});
