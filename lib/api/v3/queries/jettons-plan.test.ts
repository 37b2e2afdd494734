// The jetton routes (jetton/masters, jetton/wallets, jetton/transfers, jetton/burns) read a page off an
// index for every combination of filters their queries allow (lib/testing/plan.ts indexProblems): no
// sequential scan, no sort of rows found without an index condition. The queries are the routes' own,
// EXPLAINed on the suite's engine over tables with a hot owner and a hot jetton (a fifth and a third of
// the rows), where reading the key's index in the page's order matters most.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../../db/generated/client';
import { migrate } from '../../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../../testing/database';
import { badPlans, indexProblems, listFilter as list, planNodes, planTree, product, sqlTestAccount as sqlAcc, testAccount as acc } from '../../../testing/plan';
import { jettonBurnsQuery, jettonTransfersQuery, type JettonBurnFilter, type JettonTransferFilter } from './jetton-events';
import { jettonMastersQuery, type JettonMasterFilter } from './jetton-masters';
import { jettonWalletsQuery, type JettonWalletFilter } from './jetton-wallets';

let t: TestDatabase;
const HOT = `0:${'A'.repeat(64)}`;
const HOT_JETTON = `0:${'B'.repeat(64)}`;
const owner = (k: number) => acc(10_000 + k);
const jetton = (k: number) => acc(20_000 + k);
const wallet = (k: number) => acc(100_000 + k);
const page = { take: 20, skip: 0 };

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  await t.db.session((s) =>
    s.exec(`
      -- 3,000 masters, a tenth of them under one admin.
      INSERT INTO jetton_masters (address, total_supply, mintable, admin_address, last_transaction_lt)
      SELECT ${sqlAcc('20000 + i')}, i, true, CASE WHEN i % 10 = 0 THEN '${HOT}' ELSE ${sqlAcc('30000 + i % 500')} END, i
      FROM generate_series(1, 3000) i;
      -- 12,000 wallets of 3,000 owners (HOT holds a fifth) and 200 jettons (HOT_JETTON a third), a quarter empty.
      INSERT INTO jetton_wallets (address, balance, owner, jetton, last_transaction_lt)
      SELECT ${sqlAcc('100000 + i')}, CASE WHEN i % 4 = 0 THEN 0 ELSE (i * 7919) % 100000 END,
             CASE WHEN i % 5 = 0 THEN '${HOT}' ELSE ${sqlAcc('10000 + i % 3000')} END,
             CASE WHEN i % 3 = 0 THEN '${HOT_JETTON}' ELSE ${sqlAcc('20000 + i % 200')} END, i
      FROM generate_series(1, 12000) i;
      -- 12,000 transfers (one in twenty aborted) and 6,000 burns between 500 owners and HOT, of 1,000 wallets.
      INSERT INTO jetton_transfers (tx_hash, tx_lt, tx_now, tx_aborted, mc_seqno, query_id, amount, source, destination, jetton_wallet,
                                    jetton_master, forward_ton_amount)
      SELECT decode(md5('t' || i), 'hex'), i * 10, 1700000000 + i / 3, i % 20 = 0, i / 10, 0, i,
             CASE WHEN i % 5 = 0 THEN '${HOT}' ELSE ${sqlAcc('10000 + i % 500')} END, CASE WHEN i % 5 = 1 THEN '${HOT}' ELSE ${sqlAcc('10000 + (i * 7) % 500')} END,
             ${sqlAcc('100000 + i % 1000')}, CASE WHEN i % 3 = 0 THEN '${HOT_JETTON}' ELSE ${sqlAcc('20000 + i % 50')} END, 0
      FROM generate_series(1, 12000) i;
      INSERT INTO jetton_burns (tx_hash, tx_lt, tx_now, tx_aborted, mc_seqno, query_id, owner, jetton_wallet, jetton_master, amount)
      SELECT decode(md5('b' || i), 'hex'), i * 20, 1700000000 + i / 2, i % 20 = 0, i / 5, 0,
             CASE WHEN i % 5 = 0 THEN '${HOT}' ELSE ${sqlAcc('10000 + i % 500')} END, ${sqlAcc('100000 + i % 1000')},
             CASE WHEN i % 3 = 0 THEN '${HOT_JETTON}' ELSE ${sqlAcc('20000 + i % 50')} END, i
      FROM generate_series(1, 6000) i;
      ANALYZE;
    `),
  );
}, 60_000);
afterAll(() => t?.drop());

const SORTS = { asc: { sort: 'asc' }, desc: { sort: 'desc' } } as const;
const RANGES = {
  '': {},
  lt: { startLt: 20_000n, endLt: 40_000n },
  utime: { startUtime: 1_700_001_000, endUtime: 1_700_002_000 },
  'lt+utime': { startLt: 20_000n, endLt: 40_000n, startUtime: 1_700_001_000, endUtime: 1_700_002_000 },
};

describe('/jetton/masters plans', () => {
  it('every filter combination reads off an index', async () => {
    const cases = product<JettonMasterFilter>(list('address', jetton(5), jetton(6)), list('adminAddress', HOT, acc(30_007)));
    const { planned, bad } = await badPlans(t.db, cases.map(([n, f]) => [n, jettonMastersQuery(f, page)]), ['jetton_masters']);
    expect(planned).toBe(9);
    expect(bad).toEqual([]);
  });
});

describe('/jetton/wallets plans', () => {
  it('every filter combination, exclude_zero_balance and order (id, balance asc, balance desc) reads off an index', async () => {
    const cases = product<JettonWalletFilter>(
      list('address', wallet(5), wallet(6)),
      list('owner', HOT, owner(7)),
      list('jetton', HOT_JETTON, jetton(5)),
      { '': {}, exclude_zero_balance: { excludeZeroBalance: true } },
      { '': {}, ...SORTS },
      // Several jettons need exactly one owner (the route answers 422 otherwise).
    ).filter(([, f]) => (f.jetton?.length ?? 0) < 2 || f.owner?.length === 1);
    const { planned, bad } = await badPlans(t.db, cases.map(([n, f]) => [n, jettonWalletsQuery(f, page)]), ['jetton_wallets']);
    expect(planned).toBe(3 * (2 + 3 + 2) * 2 * 3);
    expect(bad).toEqual([]);
  }, 60_000);

  it('a page of one jetton’s or one owner’s wallets, by id or by balance, is read off its own index in the page’s order', async () => {
    // 1,000 more wallets of one jetton and one owner (8% of the table), the newest (the highest ids), each
    // holding 1: below every other wallet but the empty ones. For a key that common, walking the id index or
    // the (balance, id) index of all wallets looks cheap, and reads every older (richer, or empty) wallet of
    // the others first.
    const POOR = { jetton: acc(900_001), owner: acc(900_002) };
    await t.db.session((s) =>
      s.exec(`
        INSERT INTO jetton_wallets (address, balance, owner, jetton, last_transaction_lt)
        SELECT ${sqlAcc('900000 + i')}, 1, '${POOR.owner}', '${POOR.jetton}', i FROM generate_series(10, 1009) i;
        ANALYZE jetton_wallets;`),
    );
    const keyed: [string, JettonWalletFilter, string][] = [
      ['hot jetton', { jetton: [HOT_JETTON] }, 'jetton'],
      ['poor jetton', { jetton: [POOR.jetton] }, 'jetton'],
      ['poor owner', { owner: [POOR.owner] }, 'owner'],
    ];
    const read: string[] = [];
    for (const [name, f, key] of keyed) {
      for (const sort of [undefined, 'asc', 'desc'] as const) {
        const index = `jetton_wallets_${key}_${sort ? 'balance_id' : 'id'}_idx`;
        const nodes = planNodes(await planTree(t.db, jettonWalletsQuery({ ...f, sort }, page)));
        const scan = nodes.find((n) => n['Relation Name'] === 'jetton_wallets');
        const sorts = nodes.filter((n) => n['Node Type'].endsWith('Sort')).map((n) => n['Node Type']);
        if (scan?.['Index Name'] !== index || sorts.length) read.push(`${name} ${sort ?? 'by id'}: ${scan?.['Index Name'] ?? scan?.['Node Type']}${sorts.length ? `, then ${sorts.join(', ')}` : ''}`);
      }
    }
    expect(read).toEqual([]);
  });
});

describe('/jetton/transfers and /jetton/burns plans', () => {
  it('every transfers filter combination, direction, range and order reads off an index', async () => {
    // direction only matters with an owner (without one the query is the same); absent is both.
    const owners: Record<string, Partial<JettonTransferFilter>> = { '': {} };
    for (const [n, f] of Object.entries(list<JettonTransferFilter>('owner', HOT, owner(7))).slice(1))
      for (const direction of ['in', 'out', 'both'] as const) owners[`${n} ${direction}`] = { ...f, direction };
    const cases = product<JettonTransferFilter>(
      owners,
      list('jettonWallet', wallet(5), wallet(6)),
      { '': {}, jetton_master: { jettonMaster: HOT_JETTON } },
      RANGES,
      SORTS,
    );
    const { planned, bad } = await badPlans(t.db, cases.map(([n, f]) => [n, jettonTransfersQuery(f as JettonTransferFilter, page)]), ['jetton_transfers']);
    expect(planned).toBe(7 * 3 * 2 * 4 * 2);
    expect(bad).toEqual([]);
  }, 60_000);

  it('every burns filter combination, range and order reads off an index', async () => {
    const cases = product<JettonBurnFilter>(
      list('owner', HOT, owner(7)),
      list('jettonWallet', wallet(5), wallet(6)),
      { '': {}, jetton_master: { jettonMaster: HOT_JETTON } },
      RANGES,
      SORTS,
    );
    const { planned, bad } = await badPlans(t.db, cases.map(([n, f]) => [n, jettonBurnsQuery(f as JettonBurnFilter, page)]), ['jetton_burns']);
    expect(planned).toBe(3 * 3 * 2 * 4 * 2);
    expect(bad).toEqual([]);
  }, 60_000);
});

it('a transfers page of an owner (either side) is the page of the OR query it replaced: orders, ranges, offsets, transfers to oneself', async () => {
  // A few transfers from HOT to HOT: one row on both sides, listed once.
  await t.db.session((s) =>
    s.exec(`
      INSERT INTO jetton_transfers (tx_hash, tx_lt, tx_now, tx_aborted, mc_seqno, query_id, amount, source, destination, jetton_wallet, jetton_master, forward_ton_amount)
      SELECT decode(md5('self' || i), 'hex'), i * 1000 + 5, 1700000000 + i * 300, false, i, 0, i, '${HOT}', '${HOT}', ${sqlAcc('100000 + i')}, '${HOT_JETTON}', 0
      FROM generate_series(1, 30) i;
    `),
  );
  const reference = (f: JettonTransferFilter, p: { take: number; skip: number }) => {
    const cond: Prisma.Sql[] = [Prisma.sql`NOT tx_aborted`, Prisma.sql`(source = ANY(${f.owner}::text[]) OR destination = ANY(${f.owner}::text[]))`];
    if (f.startLt !== undefined) cond.push(Prisma.sql`tx_lt BETWEEN ${f.startLt} AND ${f.endLt}`);
    if (f.startUtime !== undefined) cond.push(Prisma.sql`tx_now BETWEEN ${f.startUtime} AND ${f.endUtime}`);
    const dir = Prisma.raw(f.sort === 'asc' ? 'ASC' : 'DESC');
    const order = f.startUtime !== undefined ? Prisma.sql`tx_now ${dir}, tx_lt ${dir}, tx_hash ${dir}` : Prisma.sql`tx_lt ${dir}, tx_hash ${dir}`;
    return Prisma.sql`SELECT tx_hash FROM jetton_transfers WHERE ${Prisma.join(cond, ' AND ')} ORDER BY ${order} LIMIT ${p.take} OFFSET ${p.skip}`;
  };
  const hashes = (q: Prisma.Sql) => t.db.session(async (s) => (await s.query<{ tx_hash: Uint8Array }>(q.text, q.values)).map((r) => Buffer.from(r.tx_hash).toString('hex')));
  let compared = 0;
  for (const owners of [[HOT], [owner(7)], [HOT, owner(7)]])
    for (const range of Object.values(RANGES))
      for (const sort of ['asc', 'desc'] as const)
        for (const p of [{ take: 20, skip: 0 }, { take: 7, skip: 13 }, { take: 100, skip: 50 }, { take: 1, skip: 0 }]) {
          const f: JettonTransferFilter = { owner: owners, ...range, sort };
          const want = await hashes(reference(f, p));
          expect(await hashes(jettonTransfersQuery(f, p)), JSON.stringify({ owners, range, sort, p }, (_, v) => (typeof v === 'bigint' ? String(v) : v))).toEqual(want);
          compared += want.length;
        }
  expect(compared).toBeGreaterThan(1000);
}, 60_000);

it('the check catches a sort of the whole table', async () => {
  const byLt = Prisma.sql`SELECT address FROM jetton_wallets ORDER BY last_transaction_lt DESC LIMIT ${20}`;
  expect(indexProblems(await planTree(t.db, byLt), 'jetton_wallets')).not.toEqual([]);
});
