// The per-account list routes with many rows behind an account. /actions?account=: a page of a busy
// account must be read off an index in the route's order, not sorted out of all of the account's rows
// (bench v3 measures the latency with 1M rows; the plan check keeps a query change from silently losing
// the index; the query is the route's own SQL, EXPLAINed on the suite's engine); with a trace_id or
// mc_seqno, the key's actions checked against the account are exactly its page filtered by the key.
// /traces?account=: every way findTraces finds a page (the walk down or up the account's transactions,
// with the traces still running at its edge; with a time filter the newest traces for a busy account,
// the account's own traces otherwise; with mc_seqno that block's traces checked against the account)
// gives exactly the slice of all its traces, in both orders, and the walk reads indexes.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '../../../db/generated/client';
import { migrate } from '../../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../../testing/database';
import { partitionSeqnos, plan as planOf } from '../../../testing/plan';
import { actionsQuery, findActions } from './actions';
import { accountPageQuery, accountWalkQuery, findTraces } from './traces';
import { supportedActionTypes } from '../action-types';

let t: TestDatabase;
const HOT = `0:${'A'.repeat(64)}`;
const BUSY = `0:${'B'.repeat(64)}`;
const OLD = `0:${'C'.repeat(64)}`;
const SPAN = `0:${'D'.repeat(64)}`;
const OTHER = `0:${'E'.repeat(64)}`;

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  // On PostgreSQL, partitions of 1,000 masterchain seqnos: the transactions and actions below span seven.
  await partitionSeqnos(t.db, 0, 6000, 1000);
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
      INSERT INTO transactions (hash, account, lt, now, block_workchain, block_shard, block_seqno, mc_block_seqno, trace_id, prev_trans_hash, prev_trans_lt,
                                orig_status, end_status, total_fees, description, account_state_hash_before, account_state_hash_after)
      SELECT decode(md5('x' || i || j), 'hex'),
             CASE WHEN i % 3 = 0 OR (j = 1 AND i <= 300) THEN CASE WHEN i <= 300 AND j = 1 THEN '${OLD}' ELSE '${BUSY}' END
                  ELSE '0:' || upper(lpad(to_hex(i), 64, '0')) END,
             i * 10 + j, i, 0, 0, i, i, decode(md5('t' || i), 'hex'), '\\x00', 0, 'active', 'active', 0, '{}', '\\x00', '\\x00'
      FROM generate_series(1, 6000) i, generate_series(0, 1) j;
      -- SPAN: 400 short traces of its own, and 6 long ones it joined early that end after every other
      -- trace (its transactions in them are old, the traces newest): the newest-first walk meets some and
      -- must find the rest as traces still running at its edge.
      INSERT INTO traces (trace_id, mc_seqno_start, mc_seqno_end, start_lt, start_utime, end_lt, end_utime, state, transactions, messages,
                          pending_messages, is_incomplete, classification_state)
      SELECT decode(md5('s' || i), 'hex'), i, i, i * 10 + 5, i, i * 10 + 6, i, 'complete', 1, 0, 0, false, 'ok' FROM generate_series(1, 400) i
      UNION ALL
      SELECT decode(md5('l' || j), 'hex'), j, 7000, j * 1000 + 7, j, 70000 + j, 7000, 'complete', 2, 1, 0, false, 'ok' FROM generate_series(1, 6) j;
      INSERT INTO transactions (hash, account, lt, now, block_workchain, block_shard, block_seqno, mc_block_seqno, trace_id, prev_trans_hash, prev_trans_lt,
                                orig_status, end_status, total_fees, description, account_state_hash_before, account_state_hash_after)
      SELECT decode(md5('y' || i), 'hex'), '${SPAN}', i * 10 + 5, i, 0, 0, i, i, decode(md5('s' || i), 'hex'), '\\x00'::bytea, 0, 'active', 'active', 0, '{}'::jsonb, '\\x00'::bytea, '\\x00'::bytea
      FROM generate_series(1, 400) i
      UNION ALL
      SELECT decode(md5('z' || j || k), 'hex'), CASE WHEN k = 0 THEN '${SPAN}' ELSE '${OTHER}' END, CASE WHEN k = 0 THEN j * 1000 + 7 ELSE 70000 + j END,
             j, 0, 0, j, j, decode(md5('l' || j), 'hex'), '\\x00'::bytea, 0, 'active', 'active', 0, '{}'::jsonb, '\\x00'::bytea, '\\x00'::bytea
      FROM generate_series(1, 6) j, generate_series(0, 1) k;
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

describe('/actions?account= with a key (trace_id, mc_seqno): the key’s actions checked against the account', () => {
  const md5 = (x: string) => createHash('md5').update(x).digest();
  const ids = (rows: { action_id: Uint8Array }[]) => rows.map((r) => Buffer.from(r.action_id).toString('hex'));
  const lts = { '': {}, lt: { startLt: 5_000n, endLt: 30_000n } };

  it.each(['desc', 'asc'] as const)('sort=%s: exactly the account’s page filtered by the key', async (sort) => {
    for (const [r, range] of Object.entries(lts)) {
      // Every action of HOT (the walk of its page index), filtered here by each key.
      const everything = await findActions(t.db.sql, { account: HOT, ...range, sort, ...page, take: 4000 });
      expect(everything.length).toBeGreaterThan(500);
      const traces = [2, 4, 3, 1000, 1002].map((i) => md5(String(i)));
      const inTraces = new Set(traces.map((h) => h.toString('hex')));
      const byTrace = await findActions(t.db.sql, { account: HOT, traceId: traces, ...range, sort, ...page, take: 100 });
      // trace_id discards the lt range (toncenter's precedence): the reference is the unranged page.
      const unranged = r ? await findActions(t.db.sql, { account: HOT, sort, ...page, take: 4000 }) : everything;
      expect(ids(byTrace), r).toEqual(ids(unranged.filter((a) => inTraces.has(Buffer.from(a.trace_id).toString('hex')))));
      expect(byTrace.length).toBe(4);
      for (const seqno of [1000, 1001]) {
        const inBlock = await findActions(t.db.sql, { account: HOT, mcSeqno: seqno, ...range, sort, ...page, take: 100 });
        expect(ids(inBlock), `${r} ${seqno}`).toEqual(ids(everything.filter((a) => a.trace_mc_seqno_end === seqno)));
      }
    }
  });
});

describe('/traces?account= pages', () => {
  type Range = { startLt?: bigint; endLt?: bigint; startUtime?: number; endUtime?: number };
  /** Every trace with a transaction of `account` in `range`, in the route's order: what any page must be a slice of. */
  async function all(account: string, sort: 'asc' | 'desc', r: Range = {}): Promise<string[]> {
    const key = r.startUtime !== undefined || r.endUtime !== undefined ? 'end_utime' : 'end_lt';
    const rows = await t.db.prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT encode(trace_id, 'hex') AS id FROM traces WHERE trace_id IN (SELECT trace_id FROM transactions WHERE account = $1)
         AND end_lt BETWEEN $2::int8 AND $3::int8 AND end_utime BETWEEN $4::int8 AND $5::int8
       ORDER BY ${key} ${sort}, trace_id ${sort}`,
      account, r.startLt ?? -1n, r.endLt ?? 2n ** 62n, r.startUtime ?? -1, r.endUtime ?? 2 ** 40,
    );
    return rows.map((x) => x.id);
  }
  const ids = (rows: { trace_id: Uint8Array }[]) => rows.map((r) => Buffer.from(r.trace_id).toString('hex'));

  async function everyPage(account: string, range: Range, min: number) {
    for (const sort of ['desc', 'asc'] as const) {
      const expected = await all(account, sort, range);
      expect(expected.length).toBeGreaterThan(min);
      for (const [skip, take] of [[0, 1], [0, 20], [3, 7], [40, 100], [1990, 20], [expected.length - 5, 20], [expected.length, 10]] as const) {
        const got = ids(await findTraces(t.db.sql, { account, take, skip, sort, ...range }));
        expect(got, `${sort} ${skip}+${take}`).toEqual(expected.slice(skip, skip + take));
      }
    }
  }

  it.each([
    ['a busy account', BUSY],
    ['an account busy only long ago', OLD],
    ['an account in traces that run long past its transactions in them', SPAN],
  ])('%s: every page is the exact slice, both orders', async (_, account) => {
    await everyPage(account, {}, 250);
  });

  it.each([
    ['an lt range', { startLt: 2_000n, endLt: 40_000n }],
    ['from an lt', { startLt: 3_500n }],
    ['up to an lt', { endLt: 30_000n }],
    ['a time range (end_utime order)', { startUtime: 100, endUtime: 5_000 }],
  ] as const)('%s: every page is the exact slice, both orders', async (_, range) => {
    await everyPage(BUSY, range, 200);
    await everyPage(SPAN, range, 0);
  });

  it('with mc_seqno: the account’s traces that ended in that block, both orders', async () => {
    for (const [account, seqno] of [[BUSY, 3000], [BUSY, 3001], [OLD, 150], [SPAN, 200], [SPAN, 7000]] as const) {
      const inBlock = await t.db.prisma.$queryRawUnsafe<{ id: string }[]>(
        `SELECT encode(trace_id, 'hex') AS id FROM traces WHERE mc_seqno_end = $1 AND state = 'complete'`,
        seqno,
      );
      const ended = new Set(inBlock.map((r) => r.id));
      for (const sort of ['desc', 'asc'] as const) {
        const expected = (await all(account, sort)).filter((id) => ended.has(id));
        const got = ids(await findTraces(t.db.sql, { account, mcSeqno: seqno, take: 20, skip: 0, sort }));
        expect(got, `${account} ${seqno} ${sort}`).toEqual(expected);
        if (seqno !== 3001) expect(got.length).toBeGreaterThan(0);
      }
    }
  });

  it('the long traces are on SPAN’s first page, newest first, though its transactions in them are old', async () => {
    const first = await findTraces(t.db.sql, { account: SPAN, take: 6, skip: 0, sort: 'desc' });
    expect(first.map((r) => r.end_lt)).toEqual([70006n, 70005n, 70004n, 70003n, 70002n, 70001n]);
  });

  it.each(['desc', 'asc'] as const)('sort=%s: the walk reads the account’s transactions, the page the traces by key and (newest first) the span index', async (sort) => {
    const f = { account: SPAN, take: 20, skip: 0, sort, startLt: 10n };
    const walk = await plan(accountWalkQuery(f, SPAN, 64));
    expect(walk.find((n) => n['Relation Name'] === 'transactions')?.['Index Name']).toBe('transactions_account_lt_mc_block_seqno_key');
    expect(walk.some((n) => n['Node Type'] === 'Sort')).toBe(false);
    const ids = Array.from({ length: 64 }, (_, i) => new Uint8Array(createHash('md5').update(`s${i + 1}`).digest()));
    const nodes = await plan(accountPageQuery(f, SPAN, ids, 3_000n));
    const indexes = new Set(nodes.map((n) => n['Index Name']).filter(Boolean));
    expect(indexes.has('traces_pkey')).toBe(true);
    expect(indexes.has('traces_lt_span_idx')).toBe(sort === 'desc');
    expect(nodes.some((n) => n['Node Type'] === 'Seq Scan' || n['Node Type'] === 'Gather')).toBe(false);
  });
});
