// /api/v3/messages reads a page off an index for every combination of filters the route allows: no
// sequential scan of messages, and no sort of rows found without an index condition (a sort of the rows
// an index condition found — one account's, one opcode's, one hash's — is bounded by that filter; a sort
// of everything is the whole-table query this module replaced). The query is the route's own, EXPLAINed
// on the suite's engine over a table with externals, log messages and a hot account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../../db/generated/client';
import { migrate } from '../../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../../testing/database';
import { indexProblems, partitionSeqnos, planNodes, planTree, subsets, type PlanNode } from '../../../testing/plan';
import { messageWindowQuery, type MessageFilter } from './messages';

let t: TestDatabase;
const HOT = `0:${'A'.repeat(64)}`;

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  // On PostgreSQL, partitions of 100 masterchain seqnos: the rows below (seqnos 0..599) fill six.
  await partitionSeqnos(t.db, 0, 599, 100);
  // 6,000 internal messages (an out row in the sender's transaction, an in row in the receiver's), 2,000
  // external-in (no source, created_lt or created_at) and 1,000 external-out (no destination).
  await t.db.session((s) =>
    s.exec(`
      INSERT INTO messages (tx_hash, tx_lt, msg_hash, direction, source, destination, created_lt, created_at, opcode, body_hash, sort_lt, mc_block_seqno)
      SELECT decode(md5(d || i), 'hex'), i * 10 + (d = 'in')::int, decode(md5('m' || i), 'hex'), d,
             CASE WHEN i % 5 = 0 THEN '${HOT}' ELSE '0:' || upper(lpad(to_hex(i % 300), 64, '0')) END,
             '0:' || upper(lpad(to_hex(1000 + i % 400), 64, '0')), i * 10, 1700000000 + i, i % 25, decode(md5('b' || i), 'hex'), i * 10, (i - 1) / 10
      FROM generate_series(1, 6000) i, unnest(ARRAY['out', 'in']) d;
      INSERT INTO messages (tx_hash, tx_lt, msg_hash, direction, destination, msg_hash_norm, opcode, body_hash, sort_lt, mc_block_seqno)
      SELECT decode(md5('x' || i), 'hex'), i * 30 + 7, decode(md5('e' || i), 'hex'), 'in', '0:' || upper(lpad(to_hex(i % 300), 64, '0')),
             decode(md5('n' || i), 'hex'), i % 3, decode(md5('eb' || i), 'hex'), i * 30 + 7, (i * 3 - 1) / 10
      FROM generate_series(1, 2000) i;
      INSERT INTO messages (tx_hash, tx_lt, msg_hash, direction, source, created_lt, created_at, opcode, body_hash, sort_lt, mc_block_seqno)
      SELECT decode(md5('l' || i), 'hex'), i * 60 + 3, decode(md5('lm' || i), 'hex'), 'out', '${HOT}', i * 60 + 4, 1700000000 + i * 6, 7,
             decode(md5('lb' || i), 'hex'), i * 60 + 4, (i * 6 - 1) / 10
      FROM generate_series(1, 1000) i;
      ANALYZE messages;
    `),
  );
}, 60_000);
afterAll(() => t?.drop());

const hash = (s: string) => Buffer.from(s.padEnd(64, '0'), 'hex');

/** The filters the route takes, each alone or with any of the others. */
const KEYS: Record<string, Partial<MessageFilter>> = {
  source: { source: HOT },
  destination: { destination: `0:${'0'.repeat(61)}3E8` },
  opcode: { opcode: 7 },
  msg_hash: { hashes: [hash('ab'), hash('cd')] },
  body_hash: { bodyHash: hash('ef') },
  direction: { direction: 'in' },
};
const NULLS: Record<string, Partial<MessageFilter>> = { 'source=null': { source: null }, 'destination=null': { destination: null } };
const RANGES: Record<string, Partial<MessageFilter>> = {
  '': {},
  lt: { startLt: 20_000n, endLt: 40_000n },
  utime: { startUtime: 1_700_001_000, endUtime: 1_700_002_000 },
  'lt+utime': { startLt: 20_000n, endLt: 40_000n, startUtime: 1_700_001_000, endUtime: 1_700_002_000 },
};
const EXTERNALS: Record<string, Partial<MessageFilter>> = { '': {}, exclude_externals: { excludeExternals: true }, only_externals: { onlyExternals: true } };

function* combinations(): Generator<[string, MessageFilter]> {
  const keySets = [...subsets(KEYS), ...Object.entries(NULLS)];
  for (const [k, keys] of keySets)
    for (const [r, range] of Object.entries(RANGES))
      for (const [e, ext] of Object.entries(EXTERNALS))
        for (const sort of ['asc', 'desc'] as const) yield [[k, r, e, sort].filter(Boolean).join(' '), { ...keys, ...range, ...ext, sort }];
}

const problems = (root: PlanNode) => indexProblems(root, 'messages');

describe('/messages plans', () => {
  it('every filter combination, range, externals choice and order reads off an index', async () => {
    const bad: string[] = [];
    let planned = 0;
    for (const [name, filter] of combinations()) {
      const found = problems(await planTree(t.db, messageWindowQuery(filter, 40)));
      planned++;
      if (found.length) bad.push(`${name}: ${found.join('; ')}`);
    }
    expect(planned).toBe((64 + 2) * 4 * 3 * 2);
    expect(bad).toEqual([]);
  }, 120_000);

  it('the check catches the whole-table query this module replaced', async () => {
    const grouped = Prisma.sql`SELECT m.msg_hash, min(m.sort_lt) AS k FROM messages m GROUP BY m.msg_hash ORDER BY k DESC LIMIT 20`;
    expect(problems(await planTree(t.db, grouped))).not.toEqual([]);
  });

  it('the unfiltered newest page walks the order index backwards and stops (no sort, no grouping)', async () => {
    const nodes = planNodes(await planTree(t.db, messageWindowQuery({ sort: 'desc' }, 20)));
    // PGlite: a Limit over one index scan; PostgreSQL: over a Merge Append of each partition's scan of it.
    const types = nodes.map((n) => n['Node Type'].replace('Index Only Scan', 'Index Scan'));
    expect(types[0]).toBe('Limit');
    expect(new Set(types.slice(1).filter((x) => x !== 'Merge Append'))).toEqual(new Set(['Index Scan']));
    expect(new Set(nodes.slice(1).flatMap((n) => n['Index Name'] ?? []))).toEqual(new Set(['messages_sort_lt_msg_hash_idx']));
  });

  it('one account’s page uses the account’s index in order', async () => {
    const nodes = planNodes(await planTree(t.db, messageWindowQuery({ source: HOT, sort: 'asc' }, 20)));
    expect(nodes.some((n) => n['Node Type'] === 'Sort')).toBe(false);
    expect(nodes.find((n) => n['Relation Name'] === 'messages')?.['Index Name']).toBe('messages_source_sort_lt_msg_hash_idx');
  });
});
