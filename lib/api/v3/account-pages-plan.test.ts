// The per-account list routes with many rows behind an account. /actions?account=: a page of a busy
// account must be read off an index in the route's order, not sorted out of all of the account's rows
// (bench v3 measures the latency with 1M rows; the plan check keeps a query change from silently losing
// the index; the query is the route's own SQL, EXPLAINed on the suite's engine). /traces?account=: both
// ways findTraces finds a page (the newest traces for a busy account, the account's own traces
// otherwise) give exactly the slice of all its traces, in both orders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '../../db/generated/client';
import { migrate } from '../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../testing/database';
import { plan as planOf } from '../../testing/plan';
import { actionsQuery } from './actions-query';
import { findTraces } from './traces-query';
import { supportedActionTypes } from './action-types';

let t: TestDatabase;
const HOT = `0:${'A'.repeat(64)}`;
const BUSY = `0:${'B'.repeat(64)}`;
const OLD = `0:${'C'.repeat(64)}`;

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  // 4,000 actions, each with two accounts: HOT on every other one, the rest spread over 500 accounts.
  await t.db.session((s) =>
    s.exec(`
      INSERT INTO actions (trace_id, action_id, type, tx_hashes, start_lt, end_lt, start_utime, end_utime, trace_end_lt, trace_end_utime,
                           trace_mc_seqno_end, mc_seqno_end, success, data)
      SELECT decode(md5(i::text), 'hex'), decode(md5('a' || i), 'hex'), 'ton_transfer', '{}', i * 10, i * 10 + 1, i, i, i * 10 + 5, i, i, i, true, '{}'
      FROM generate_series(1, 4000) i;
      INSERT INTO action_accounts (account, trace_id, action_id, trace_end_lt, end_lt)
      SELECT CASE WHEN i % 2 = 0 THEN '${HOT}' ELSE '0:' || upper(lpad(to_hex(i % 500), 64, '0')) END,
             decode(md5(i::text), 'hex'), decode(md5('a' || i), 'hex'), i * 10 + 5, i * 10 + 1
      FROM generate_series(1, 4000) i;
      INSERT INTO action_accounts (account, trace_id, action_id, trace_end_lt, end_lt)
      SELECT '0:' || upper(lpad(to_hex(1000 + i % 700), 64, '0')), decode(md5(i::text), 'hex'), decode(md5('a' || i), 'hex'), i * 10 + 5, i * 10 + 1
      FROM generate_series(1, 4000) i;
      -- 6,000 traces of 2 transactions; BUSY has one in every third trace (4,000 transactions in all:
      -- enough for the window path), OLD only in the 300 oldest traces (the window misses it).
      INSERT INTO traces (trace_id, mc_seqno_start, mc_seqno_end, start_lt, start_utime, end_lt, end_utime, state, transactions, messages,
                          pending_messages, is_incomplete, classification_state)
      SELECT decode(md5('t' || i), 'hex'), i, i, i * 10, i, i * 10 + 3 + (i % 7), i, 'complete', 2, 1, 0, false, 'ok' FROM generate_series(1, 6000) i;
      INSERT INTO transactions (hash, account, lt, now, block_workchain, block_shard, block_seqno, trace_id, prev_trans_hash, prev_trans_lt,
                                orig_status, end_status, total_fees, description, account_state_hash_before, account_state_hash_after)
      SELECT decode(md5('x' || i || j), 'hex'),
             CASE WHEN i % 3 = 0 OR (j = 1 AND i <= 300) THEN CASE WHEN i <= 300 AND j = 1 THEN '${OLD}' ELSE '${BUSY}' END
                  ELSE '0:' || upper(lpad(to_hex(i), 64, '0')) END,
             i * 10 + j, i, 0, 0, i, decode(md5('t' || i), 'hex'), '\\x00', 0, 'active', 'active', 0, '{}', '\\x00', '\\x00'
      FROM generate_series(1, 6000) i, generate_series(0, 1) j;
      ANALYZE;
    `),
  );
}, 60_000);
afterAll(() => t?.drop());

const plan = (query: Prisma.Sql) => planOf(t.db, query);

const page = { supported: supportedActionTypes(undefined, null), take: 20, skip: 0 };

describe('/actions?account= reads a page off action_accounts in order', () => {
  it.each(['desc', 'asc'] as const)('sort=%s: the account page index, no sort of the account’s actions', async (sort) => {
    const nodes = await plan(actionsQuery({ account: HOT, sort, ...page }));
    expect(nodes.some((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort')).toBe(false);
    expect(nodes.find((n) => n['Relation Name'] === 'action_accounts')?.['Index Name']).toBe('action_accounts_account_page_idx');
  });

  it('with an lt range too', async () => {
    const nodes = await plan(actionsQuery({ account: HOT, sort: 'desc', startLt: 100n, endLt: 20_000n, ...page }));
    expect(nodes.some((n) => n['Node Type'] === 'Sort')).toBe(false);
    expect(nodes.find((n) => n['Relation Name'] === 'action_accounts')?.['Index Name']).toBe('action_accounts_account_page_idx');
  });
});

describe('/traces?account= pages', () => {
  /** Every trace with a transaction of `account`, in the route's order: what any page must be a slice of. */
  async function all(account: string, sort: 'asc' | 'desc'): Promise<string[]> {
    const rows = await t.db.prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT encode(trace_id, 'hex') AS id FROM traces WHERE trace_id IN (SELECT trace_id FROM transactions WHERE account = $1)
       ORDER BY end_lt ${sort}, trace_id ${sort}`,
      account,
    );
    return rows.map((r) => r.id);
  }
  const ids = (rows: { trace_id: Uint8Array }[]) => rows.map((r) => Buffer.from(r.trace_id).toString('hex'));

  it.each([
    ['a busy account (read off the newest traces)', BUSY],
    ['an account busy only long ago (its own traces, sorted)', OLD],
  ])('%s: every page is the exact slice, both orders', async (_, account) => {
    for (const sort of ['desc', 'asc'] as const) {
      const expected = await all(account, sort);
      expect(expected.length).toBeGreaterThan(250);
      for (const [skip, take] of [[0, 20], [40, 100], [1990, 20], [expected.length - 5, 20]] as const) {
        expect(ids(await findTraces(t.db.prisma, { account, take, skip, sort }))).toEqual(expected.slice(skip, skip + take));
      }
    }
  });
});
