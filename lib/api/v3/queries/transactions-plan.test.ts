// /api/v3/transactions reads a page off an index for every combination of filters the route allows: no
// sequential scan of transactions, and no sort of rows found without an index condition (a sort of the
// rows an index condition found — one account's, one block's, some hashes' — is bounded by that filter).
// So do /transactionsByMessage (every combination of message keys and direction, through messages) and
// /adjacentTransactions. The queries are the routes' own, EXPLAINed on the suite's engine.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../../db/generated/client';
import { migrate } from '../../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../../testing/database';
import { indexProblems, partitionSeqnos, planNodes, planTree, subsets, type PlanNode } from '../../../testing/plan';
import { bytes } from '../encode';
import {
  adjacentTransactionsQuery,
  transactionsByMessageQuery,
  transactionsQuery,
  transactionsWhereQuery,
  type MessageTransactionFilter,
  type TransactionFilter,
} from './transactions';
import { descriptionsQuery, messagesOfTransactionsQuery } from './transactions-load';

let t: TestDatabase;
const HOT = `0:${'A'.repeat(64)}`;
const md5 = (x: string) => createHash('md5').update(x).digest();
const acc = (i: number) => `0:${i.toString(16).toUpperCase().padStart(64, '0')}`;

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  // On PostgreSQL, partitions of 200 masterchain seqnos: the rows below fill six.
  await partitionSeqnos(t.db, 0, 1199, 200);
  // 12,000 transactions in 600 shard blocks of 2 masterchain blocks each (0..1199), a fifth of them on one hot account.
  await t.db.session((s) =>
    s.exec(`
      INSERT INTO transactions (hash, account, lt, now, block_workchain, block_shard, block_seqno, mc_block_seqno, trace_id, prev_trans_hash,
                                prev_trans_lt, orig_status, end_status, total_fees, description, account_state_hash_before, account_state_hash_after)
      SELECT decode(md5('t' || i), 'hex'), CASE WHEN i % 5 = 0 THEN '${HOT}' ELSE '0:' || upper(lpad(to_hex(i % 700), 64, '0')) END,
             i * 10, 1700000000 + i / 3, CASE WHEN i % 10 = 0 THEN -1 ELSE 0 END, -9223372036854775808, i / 20, (i - 1) / 10,
             decode(md5('r' || i), 'hex'), '\\x00', 0, 'active', 'active', 0, '{}', '\\x00', '\\x00'
      FROM generate_series(1, 12000) i;
      -- Each transaction from the second on received an internal message from the one before it (an out
      -- row in the sender's, an in row in its own); every tenth message is an external with a normalized hash.
      INSERT INTO messages (tx_hash, tx_lt, msg_hash, msg_hash_norm, direction, opcode, body_hash, sort_lt, mc_block_seqno)
      SELECT decode(md5('t' || (i - d)), 'hex'), (i - d) * 10, decode(md5('m' || i), 'hex'),
             CASE WHEN i % 10 = 0 THEN decode(md5('n' || i), 'hex') END, CASE WHEN d = 1 THEN 'out' ELSE 'in' END, i % 25,
             decode(md5('b' || i), 'hex'), i * 10, (i - d - 1) / 10
      FROM generate_series(2, 12000) i, generate_series(0, 1) d;
      ANALYZE transactions;
      ANALYZE messages;
    `),
  );
}, 60_000);
afterAll(() => t?.drop());

const OPTIONAL: Record<string, Partial<TransactionFilter>> = {
  block: { workchain: 0, shard: -(2n ** 63n), seqno: 300 },
  mc_seqno: { mcSeqno: 600 },
  exclude_account: { excludeAccounts: [acc(3), acc(4)] },
  hash: { hashes: [Buffer.alloc(32, 1), Buffer.alloc(32, 2)] },
  lt: { lt: 50_000n },
};
const ACCOUNTS: Record<string, Partial<TransactionFilter>> = { '': {}, account: { accounts: [HOT] }, accounts: { accounts: [HOT, acc(7), acc(8)] } };
const PARTIAL_BLOCKS: Record<string, Partial<TransactionFilter>> = { workchain: { workchain: 0 }, 'workchain+shard': { workchain: 0, shard: -(2n ** 63n) } };
const RANGES: Record<string, Partial<TransactionFilter>> = {
  '': {},
  lt_range: { startLt: 20_000n, endLt: 40_000n },
  utime: { startUtime: 1_700_001_000, endUtime: 1_700_002_000 },
  'lt_range+utime': { startLt: 20_000n, endLt: 40_000n, startUtime: 1_700_001_000, endUtime: 1_700_002_000 },
};

function* combinations(): Generator<[string, TransactionFilter]> {
  const sets = [...subsets(OPTIONAL), ...Object.entries(PARTIAL_BLOCKS)];
  for (const [a, accounts] of Object.entries(ACCOUNTS))
    for (const [k, keys] of sets)
      for (const [r, range] of Object.entries(RANGES))
        for (const sort of ['asc', 'desc'] as const) yield [[a, k, r, sort].filter(Boolean).join(' '), { ...accounts, ...keys, ...range, sort }];
}

const problems = (root: PlanNode) => indexProblems(root, ['transactions', 'messages']);

describe('/transactions plans', () => {
  it('every filter combination, range and order reads off an index', async () => {
    const bad: string[] = [];
    let planned = 0;
    for (const [name, filter] of combinations()) {
      const found = problems(await planTree(t.db, transactionsQuery(filter, { take: 20, skip: 0 })));
      planned++;
      if (found.length) bad.push(`${name}: ${found.join('; ')}`);
    }
    expect(planned).toBe(3 * (32 + 2) * 4 * 2);
    expect(bad).toEqual([]);
  }, 120_000);

  it('the check catches a sort of the whole table', async () => {
    const byFees = Prisma.sql`SELECT t.hash FROM transactions t ORDER BY t.total_fees DESC LIMIT ${20}`;
    expect(problems(await planTree(t.db, byFees))).not.toEqual([]);
  });

  it('the newest page walks the lt index and stops; a quiet account’s page walks its own index', async () => {
    const newest = planNodes(await planTree(t.db, transactionsQuery({ sort: 'desc' }, { take: 20, skip: 0 })));
    // Ties on lt are put in account order as they come (Incremental Sort), never by sorting everything.
    expect(newest.some((n) => n['Node Type'] === 'Sort')).toBe(false);
    expect(newest.find((n) => n['Relation Name'] === 'transactions')?.['Index Name']).toBe('transactions_lt_idx');
    // A quiet account (a hot one may be found faster by walking lt: a fifth of all rows are its own).
    const account = planNodes(await planTree(t.db, transactionsQuery({ accounts: [acc(7)], sort: 'desc' }, { take: 20, skip: 0 })));
    expect(account.find((n) => n['Index Name'])?.['Index Name']).toBe('transactions_account_lt_mc_block_seqno_key');
  });
});

describe('/transactionsByMessage and /adjacentTransactions plans', () => {
  // The message keys the route takes (at least one), each alone or with the others, and a direction.
  const KEYS: Record<string, Partial<MessageTransactionFilter>> = {
    msg_hash: { msgHashes: [md5('m500'), md5('n600')] },
    body_hash: { bodyHash: md5('b700') },
    opcode: { opcode: 7 },
  };
  const DIRECTIONS: Record<string, Partial<MessageTransactionFilter>> = { '': {}, in: { direction: 'in' }, out: { direction: 'out' } };

  it('every message key combination, direction and order reads off an index', async () => {
    const bad: string[] = [];
    let planned = 0;
    for (const [k, keys] of subsets(KEYS).slice(1))
      for (const [d, direction] of Object.entries(DIRECTIONS))
        for (const sort of ['asc', 'desc'] as const) {
          const found = problems(await planTree(t.db, transactionsByMessageQuery({ ...keys, ...direction, sort }, { take: 20, skip: 0 })));
          planned++;
          if (found.length) bad.push(`${[k, d, sort].filter(Boolean).join(' ')}: ${found.join('; ')}`);
        }
    expect(planned).toBe(7 * 3 * 2);
    expect(bad).toEqual([]);
  }, 60_000);

  it('a transaction’s neighbours, each direction, transactions and their descriptions by hash read off indexes', async () => {
    const hash = bytes(md5('t500'));
    for (const direction of [undefined, 'in', 'out'] as const) {
      expect(problems(await planTree(t.db, adjacentTransactionsQuery(hash, direction))), String(direction)).toEqual([]);
    }
    expect(problems(await planTree(t.db, transactionsWhereQuery({ hashes: [hash, bytes(md5('t900'))] })))).toEqual([]);
  });
});

describe('a page’s parts (transactions-load.ts)', () => {
  // A page's rows as the parts read them: transaction i has lt 10·i and masterchain seqno (i − 1) / 10.
  const row = (i: number) => ({ hash: bytes(md5(`t${i}`)), lt: BigInt(i * 10), mcBlockSeqno: Math.floor((i - 1) / 10) });
  // One block's rows, and rows scattered over the whole index (an account's page).
  const PAGES = [[501, 502, 503, 504].map(row), [7, 3_007, 6_007, 11_007].map(row)];
  /** The plan of `query` reads off indexes (problems), and each index scan of `table` uses one of `indexes`. */
  async function probesBy(query: Prisma.Sql, table: string, indexes: string[]) {
    const root = await planTree(t.db, query);
    expect(problems(root)).toEqual([]);
    const scans = planNodes(root).filter((n) => n['Relation Name'] === table && n['Index Name']);
    expect(scans.length).toBeGreaterThan(0);
    expect(scans.map((n) => n['Index Name']).filter((name) => !indexes.includes(String(name)))).toEqual([]);
  }

  it('a page’s messages: one probe of the (tx_lt, tx_hash) index per transaction, whichever rows', async () => {
    for (const rows of PAGES) await probesBy(messagesOfTransactionsQuery(rows), 'messages', ['messages_tx_lt_tx_hash_idx']);
    // It finds each transaction’s messages: the in row and the out row of transaction 501.
    const found = await t.db.sql.rows<{ direction: string }>(messagesOfTransactionsQuery([row(501)]));
    expect(found.map((m) => m.direction).sort()).toEqual(['in', 'out']);
  });

  it('a page’s descriptions: one probe per transaction of an index led by lt or by (mc_block_seqno, lt), whichever rows', async () => {
    for (const rows of PAGES) await probesBy(descriptionsQuery(rows), 'transactions', ['transactions_mc_block_seqno_lt_idx', 'transactions_lt_idx']);
    // Each row's description, and none for a key naming no transaction (a wrong seqno).
    await t.db.session((s) => s.exec(`UPDATE transactions SET description = '{"n": 501}' WHERE hash = decode(md5('t501'), 'hex')`));
    const found = await t.db.sql.rows<{ hash: Uint8Array; description: unknown }>(descriptionsQuery([row(501), { ...row(502), mcBlockSeqno: 7 }]));
    expect(found.map((r) => [Buffer.from(r.hash).equals(row(501).hash), r.description])).toEqual([[true, { n: 501 }]]);
  });
});
