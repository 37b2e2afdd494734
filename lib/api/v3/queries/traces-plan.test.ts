// The trace routes (/traces, /events, /actions, /balanceChanges) read off indexes for every combination of
// filters they allow: no sequential scan of traces, actions, action_accounts, transactions or messages,
// and no sort of rows found without an index condition (lib/testing/plan.ts indexProblems). The queries
// are the routes' own, EXPLAINed on the suite's engine. (Which page each account path returns is
// account-pages-plan.test.ts's and traces-equivalence.test.ts's subject.)
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../../db/generated/client';
import { migrate } from '../../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../../testing/database';
import { indexProblems, partitionSeqnos, planNodes, planTree, subsets } from '../../../testing/plan';
import { supportedActionTypes } from '../action-types';
import { bytes } from '../encode';
import { actionAccountsQuery, actionsQuery, traceActionsQuery, traceOfActionQuery, type ActionFilter } from './actions';
import { actionTxHashesQuery, jettonMovesQuery, tonMovesQuery, traceExistsQuery } from './balance-changes';
import { accountBusyQuery, accountOwnTracesQuery, accountPageQuery, accountWalkQuery, accountWindowQuery, tracesQuery, type TraceFilter } from './traces';
import { accountStatesQuery, messagesOfTracesQuery } from './transactions-load';
import { transactionsWhereQuery } from './transactions';

let t: TestDatabase;
const HOT = `0:${'A'.repeat(64)}`;
const TABLES = ['traces', 'actions', 'action_accounts', 'transactions', 'messages', 'message_contents', 'account_states'];

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  // On PostgreSQL, partitions of 1,000 masterchain seqnos: the rows below (seqnos 0..5999) fill six.
  await partitionSeqnos(t.db, 0, 5999, 1000);
  // 6,000 complete traces (one per masterchain block), each of two transactions: the root (a fifth of
  // them on HOT) received an external and sent one internal message to the second. Two actions per
  // trace of four types, each with both transactions' accounts.
  await t.db.session((s) =>
    s.exec(`
      INSERT INTO traces (trace_id, external_hash, mc_seqno_start, mc_seqno_end, start_lt, start_utime, end_lt, end_utime, state, transactions,
                          messages, pending_messages, is_incomplete, classification_state)
      SELECT decode(md5('t' || i), 'hex'), decode(md5('e' || i), 'hex'), i, i, i * 10, 1700000000 + i, i * 10 + 1 + i % 7, 1700000000 + i,
             'complete', 2, 1, 0, false, 'ok'
      FROM generate_series(0, 5999) i;
      INSERT INTO transactions (hash, account, lt, now, block_workchain, block_shard, block_seqno, mc_block_seqno, trace_id, prev_trans_hash,
                                prev_trans_lt, orig_status, end_status, total_fees, description, account_state_hash_before, account_state_hash_after)
      SELECT decode(md5('x' || i || '.' || j), 'hex'),
             CASE WHEN j = 0 AND i % 5 = 0 THEN '${HOT}' ELSE '0:' || upper(lpad(to_hex(j * 1000 + i % 700), 64, '0')) END,
             i * 10 + j, 1700000000 + i, 0, -9223372036854775808, i, i, decode(md5('t' || i), 'hex'), '\\x00', 0, 'active', 'active', 0, '{}',
             '\\x00', '\\x00'
      FROM generate_series(0, 5999) i, generate_series(0, 1) j;
      INSERT INTO messages (tx_hash, tx_lt, msg_hash, msg_hash_norm, direction, trace_id, destination, opcode, body_hash, sort_lt, mc_block_seqno)
      SELECT decode(md5('x' || i || '.0'), 'hex'), i * 10, decode(md5('e' || i), 'hex'), decode(md5('n' || i), 'hex'), 'in', decode(md5('t' || i), 'hex'),
             '0:' || upper(lpad(to_hex(i % 700), 64, '0')), 0, decode(md5('eb' || i), 'hex'), i * 10, i
      FROM generate_series(0, 5999) i;
      INSERT INTO messages (tx_hash, tx_lt, msg_hash, direction, trace_id, source, destination, value, created_lt, created_at, opcode, body_hash, sort_lt, mc_block_seqno)
      SELECT decode(md5('x' || i || '.' || j), 'hex'), i * 10 + j, decode(md5('m' || i), 'hex'), CASE WHEN j = 0 THEN 'out' ELSE 'in' END,
             decode(md5('t' || i), 'hex'), '0:' || upper(lpad(to_hex(i % 700), 64, '0')), '0:' || upper(lpad(to_hex(1000 + i % 700), 64, '0')),
             1000, i * 10 + 1, 1700000000 + i, i % 25, decode(md5('b' || i), 'hex'), i * 10 + 1, i
      FROM generate_series(0, 5999) i, generate_series(0, 1) j;
      INSERT INTO actions (trace_id, action_id, type, tx_hashes, start_lt, end_lt, start_utime, end_utime, trace_end_lt, trace_end_utime,
                           trace_mc_seqno_end, mc_seqno_end, source, destination, asset, amount, success, data)
      SELECT decode(md5('t' || i), 'hex'), decode(md5('a' || i || '.' || k), 'hex'),
             (ARRAY['ton_transfer', 'jetton_transfer', 'nft_transfer', 'call_contract'])[1 + (2 * i + k) % 4],
             ARRAY[decode(md5('x' || i || '.' || k), 'hex')], i * 10 + k, i * 10 + k, 1700000000 + i, 1700000000 + i, i * 10 + 1 + i % 7,
             1700000000 + i, i, i, '0:' || upper(lpad(to_hex(i % 700), 64, '0')), '0:' || upper(lpad(to_hex(1000 + i % 700), 64, '0')),
             '0:' || upper(lpad(to_hex(i % 30), 64, '0')), 5, true, '{}'
      FROM generate_series(0, 5999) i, generate_series(0, 1) k;
      INSERT INTO action_accounts (account, trace_id, action_id, trace_end_lt, end_lt)
      SELECT a.account, decode(md5('t' || i), 'hex'), decode(md5('a' || i || '.' || k), 'hex'), i * 10 + 1 + i % 7, i * 10 + k
      FROM generate_series(0, 5999) i, generate_series(0, 1) k,
           LATERAL (SELECT CASE WHEN i % 5 = 0 THEN '${HOT}' ELSE '0:' || upper(lpad(to_hex(i % 700), 64, '0')) END
                    UNION ALL SELECT '0:' || upper(lpad(to_hex(1000 + i % 700), 64, '0'))) a(account);
      ANALYZE;
    `),
  );
}, 60_000);
afterAll(() => t?.drop());

const md5 = (s: string) => createHash('md5').update(s).digest();
const tracesOf = (...i: number[]) => i.map((n) => md5(`t${n}`));
const QUIET = `0:${'11'.padStart(64, '0')}`;

/** The problems of each query, named; a query several combinations share is planned once. */
async function problemsOf(queries: Iterable<[string, Prisma.Sql]>): Promise<{ planned: number; distinct: number; bad: string[] }> {
  const seen = new Map<string, string[]>();
  const bad: string[] = [];
  let planned = 0;
  for (const [name, query] of queries) {
    planned++;
    const key = `${query.text}\n${JSON.stringify(query.values, (_, v) => (typeof v === 'bigint' ? String(v) : v))}`;
    let found = seen.get(key);
    if (!found) seen.set(key, (found = indexProblems(await planTree(t.db, query), TABLES)));
    if (found.length) bad.push(`${name}: ${found.join('; ')}`);
  }
  return { planned, distinct: seen.size, bad };
}

const RANGES: Record<string, { startUtime?: number; endUtime?: number; startLt?: bigint; endLt?: bigint }> = {
  '': {},
  lt: { startLt: 20_000n, endLt: 40_000n },
  utime: { startUtime: 1_700_001_000, endUtime: 1_700_002_000 },
  'lt+utime': { startLt: 20_000n, endLt: 40_000n, startUtime: 1_700_001_000, endUtime: 1_700_002_000 },
};
const SORTS = ['asc', 'desc'] as const;

describe('/traces and /events plans', () => {
  const KEYS: Record<string, Partial<TraceFilter>> = {
    '': {},
    trace_id: { traceId: tracesOf(10, 20) },
    tx_hash: { txHash: [md5('x10.0'), md5('x20.1')] },
    msg_hash: { msgHash: [md5('e10'), md5('n20')] },
  };
  const MC: Record<string, Partial<TraceFilter>> = { '': {}, mc_seqno: { mcSeqno: 3000 } };
  const page = { take: 20, skip: 0 };

  function* byFilters(): Generator<[string, Prisma.Sql]> {
    for (const [k, key] of Object.entries(KEYS))
      for (const [m, mc] of Object.entries(MC))
        for (const [r, range] of Object.entries(RANGES))
          for (const sort of SORTS) yield [[k, m, r, sort].filter(Boolean).join(' '), tracesQuery({ ...key, ...mc, ...range, ...page, sort })];
    // An account with mc_seqno: that block's traces, each checked for the account.
    for (const account of [HOT, QUIET])
      for (const [r, range] of Object.entries(RANGES))
        for (const sort of SORTS) yield [`account mc_seqno ${r} ${sort}`, tracesQuery({ account, mcSeqno: 3000, ...range, ...page, sort })];
  }

  /** Every step an account's page may take (findTraces without mc_seqno). */
  function* accountSteps(): Generator<[string, Prisma.Sql]> {
    const ids = tracesOf(...Array.from({ length: 64 }, (_, i) => 5000 + i)).map(bytes);
    for (const account of [HOT, QUIET])
      for (const [r, range] of Object.entries(RANGES))
        for (const sort of SORTS) {
          const f = { account, ...range, ...page, sort };
          const name = `account ${account === HOT ? 'busy' : 'quiet'} ${r} ${sort}`;
          if (range.startUtime !== undefined) {
            yield [`${name} busy check`, accountBusyQuery(account)];
            yield [`${name} window`, accountWindowQuery(f, account)];
            yield [`${name} own traces`, accountOwnTracesQuery(f, account)];
          } else {
            yield [`${name} walk`, accountWalkQuery(f, account, 64)];
            yield [`${name} page`, accountPageQuery(f, account, ids, 50_000n)];
          }
        }
  }

  it('every key, mc_seqno, range and order reads off an index', async () => {
    const { planned, bad } = await problemsOf(byFilters());
    expect(planned).toBe(4 * 2 * 4 * 2 + 2 * 4 * 2);
    expect(bad).toEqual([]);
  }, 60_000);

  it('every step of an account’s page reads off an index', async () => {
    const { planned, bad } = await problemsOf(accountSteps());
    expect(planned).toBe(2 * (2 * 2 * 2 + 2 * 2 * 3));
    expect(bad).toEqual([]);
  }, 60_000);

  it('the traces’ transactions, messages (with their bodies) and actions are read by trace id, the states by hash', async () => {
    const ids = tracesOf(...Array.from({ length: 20 }, (_, i) => 100 + i)).map(bytes);
    const { bad } = await problemsOf([
      ['transactions of traces', transactionsWhereQuery({ traceIds: ids })],
      ['messages of traces', messagesOfTracesQuery(ids)],
      ['account states of their transactions', accountStatesQuery(ids)],
      ['actions of traces', traceActionsQuery(ids, supportedActionTypes(undefined, null))],
      ['every action of traces (the Streaming API)', traceActionsQuery(ids, null)],
    ]);
    expect(bad).toEqual([]);
  });

  it('a state recorded under several masterchain blocks is read once per hash', async () => {
    // One state under three blocks (an account unchanged, or read at the head while catching up), another under one.
    await t.db.session((s) =>
      s.exec(`
        INSERT INTO account_states (hash, account, balance, account_status, mc_block_seqno)
        SELECT decode(md5('s1'), 'hex'), '0:${'1'.repeat(64)}', 5, 'active', b FROM generate_series(10, 12) b;
        INSERT INTO account_states (hash, account, balance, account_status, mc_block_seqno) VALUES (decode(md5('s2'), 'hex'), '0:${'2'.repeat(64)}', 7, 'active', 10);`),
    );
    const md5 = (x: string) => bytes(createHash('md5').update(x).digest());
    const rows = await t.db.sql.rows<{ account: string }>(accountStatesQuery([md5('s1'), md5('s2'), md5('absent')]));
    expect(rows.map((r) => r.account).sort()).toEqual([`0:${'1'.repeat(64)}`, `0:${'2'.repeat(64)}`]);
  });

  it('an account with mc_seqno checks the block’s traces, not a walk of the account’s transactions', async () => {
    const nodes = planNodes(await planTree(t.db, tracesQuery({ account: HOT, mcSeqno: 3000, ...page, sort: 'desc' })));
    expect(nodes.find((n) => n['Relation Name'] === 'traces')?.['Index Name']).toBe('traces_mc_seqno_end_idx');
    expect(nodes.filter((n) => n['Relation Name'] === 'transactions').map((n) => n['Index Name'])).not.toContain('transactions_account_lt_mc_block_seqno_key');
  });

  it('the check catches a sort of every trace', async () => {
    const bySize = Prisma.sql`SELECT tr.trace_id FROM traces tr ORDER BY tr.transactions DESC LIMIT ${20}`;
    expect(indexProblems(await planTree(t.db, bySize), TABLES)).not.toEqual([]);
  });
});

describe('/actions and /balanceChanges plans', () => {
  const supported = supportedActionTypes(undefined, null);
  /** The filters that combine (each alone or with any of the others). */
  const OPTIONAL: Record<string, Partial<ActionFilter>> = {
    account: { account: HOT },
    tx_hash: { txHash: [md5('x10.0'), md5('x20.1')] },
    msg_hash: { msgHash: [md5('m10'), md5('n20')] },
    mc_seqno: { mcSeqno: 3000 },
    action_type: { actionType: ['jetton_transfer', 'nft_transfer'] },
    exclude_action_type: { excludeActionType: ['call_contract'] },
  };
  /** The ids, which discard other filters (trace_id all but account; action_id all). */
  const IDS: Record<string, Partial<ActionFilter>> = {
    '': {},
    trace_id: { traceId: tracesOf(10, 20) },
    action_id: { actionId: [md5('a10.0'), md5('a20.1')] },
    'trace_id+action_id': { traceId: tracesOf(10, 20), actionId: [md5('a10.0')] },
  };

  function* combinations(): Generator<[string, Prisma.Sql]> {
    for (const [o, optional] of subsets(OPTIONAL))
      for (const [i, ids] of Object.entries(IDS))
        for (const [r, range] of Object.entries(RANGES))
          for (const sort of SORTS)
            yield [[o, i, r, sort].filter(Boolean).join(' '), actionsQuery({ ...optional, ...ids, ...range, supported, take: 20, skip: 0, sort })];
    // A quiet account, alone and with each range: its page index entries are few.
    for (const [r, range] of Object.entries(RANGES))
      for (const sort of SORTS) yield [`quiet account ${r} ${sort}`, actionsQuery({ account: QUIET, ...range, supported, take: 20, skip: 0, sort })];
  }

  it('every filter combination, id, range and order reads off an index', async () => {
    const { planned, distinct, bad } = await problemsOf(combinations());
    expect(planned).toBe(64 * 4 * 4 * 2 + 4 * 2);
    // The ids discard the other filters: trace_id all but account (and action_id), action_id all.
    expect(distinct).toBe(64 * 4 * 2 + 2 * 2 + 2 + 4 * 2);
    expect(bad).toEqual([]);
  }, 60_000);

  it('an account with a key checks the key’s actions against action_accounts by their key, not a walk of the account', async () => {
    for (const key of [{ traceId: tracesOf(10) }, { txHash: [md5('x10.0')] }, { mcSeqno: 3000 }]) {
      const nodes = planNodes(await planTree(t.db, actionsQuery({ account: HOT, ...key, supported, take: 20, skip: 0, sort: 'desc' })));
      const reads = nodes.filter((n) => n['Relation Name'] === 'action_accounts');
      expect(reads.length, JSON.stringify(Object.keys(key))).toBeGreaterThan(0);
      for (const n of reads) expect(n['Index Cond'], JSON.stringify(Object.keys(key))).toMatch(/\btrace_id = /);
    }
  });

  it('an action’s accounts, its trace and the balance changes read off indexes', async () => {
    const trace = bytes(md5('t10'));
    const action = bytes(md5('a10.0'));
    const keys = Array.from({ length: 20 }, (_, i) => ({ trace_id: bytes(md5(`t${100 + i}`)), action_id: bytes(md5(`a${100 + i}.1`)) }));
    const scopes = [{ traceId: trace }, { traceId: trace, actionId: action, txHashes: [bytes(md5('x10.0'))] }];
    const { bad } = await problemsOf([
      ['accounts of actions', actionAccountsQuery(keys)],
      ['trace of an action', traceOfActionQuery(action)],
      ['trace exists', traceExistsQuery(trace)],
      ['action’s transactions', actionTxHashesQuery(trace, action)],
      ...scopes.flatMap((scope, i): [string, Prisma.Sql][] => [
        [`ton moves ${i}`, tonMovesQuery(scope)],
        [`jetton moves ${i}`, jettonMovesQuery(scope)],
      ]),
    ]);
    expect(bad).toEqual([]);
  });

  it('the check catches a sort of every action', async () => {
    const byAmount = Prisma.sql`SELECT a.action_id FROM actions a ORDER BY a.amount DESC LIMIT ${20}`;
    expect(indexProblems(await planTree(t.db, byAmount), TABLES)).not.toEqual([]);
  });
});
