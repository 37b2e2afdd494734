// dns/records, vesting, multisig/wallets, multisig/orders and the account-state routes
// (topAccountsByBalance, accountStates, walletStates) read off an index for every combination of filters
// their queries allow (lib/testing/plan.ts indexProblems): no sequential scan, no sort of rows found
// without an index condition. The queries are the routes' own, EXPLAINed on the suite's engine over
// tables with a hot wallet (a fifth of the rows).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../../db/generated/client';
import { migrate } from '../../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../../testing/database';
import { badPlans, indexProblems, listFilter as list, planNodes, planTree, product, sqlTestAccount as sqlAcc, testAccount as acc } from '../../../testing/plan';
import { latestStatesQuery, topBalancesQuery } from './account-states';
import { dnsRecordsQuery } from './dns-records';
import { multisigOrdersQuery, multisigWalletsQuery, walletOrdersQuery, type MultisigOrderFilter, type MultisigWalletFilter } from './multisig';
import { vestingQuery } from './vesting';

let t: TestDatabase;
const HOT = `0:${'A'.repeat(64)}`;
const wallet = (k: number) => acc(10_000 + k);
const contract = (k: number) => acc(100_000 + k);
const order = (k: number) => acc(200_000 + k);
const page = { take: 20, skip: 0 };

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  await t.db.session((s) =>
    s.exec(`
      -- 6,000 names, a fifth of them pointing to HOT.
      INSERT INTO dns_entries (nft_item_address, domain, dns_wallet, last_transaction_lt)
      SELECT ${sqlAcc('100000 + i')}, 'name' || i || '.ton', CASE WHEN i % 5 = 0 THEN '${HOT}' ELSE ${sqlAcc('10000 + i % 1000')} END, i
      FROM generate_series(1, 6000) i;
      -- 6,000 vesting contracts (HOT owns a fifth, funded a seventh) and 12,000 whitelist entries (a tenth HOT).
      INSERT INTO vesting_contracts (address, vesting_start_time, vesting_total_duration, unlock_period, cliff_duration, vesting_total_amount,
                                     vesting_sender_address, owner_address, last_transaction_lt)
      SELECT ${sqlAcc('100000 + i')}, 0, 100, 10, 0, i, CASE WHEN i % 7 = 0 THEN '${HOT}' ELSE ${sqlAcc('10000 + i % 900')} END,
             CASE WHEN i % 5 = 0 THEN '${HOT}' ELSE ${sqlAcc('10000 + i % 1000')} END, i
      FROM generate_series(1, 6000) i;
      INSERT INTO vesting_whitelist (vesting_contract_address, wallet_address)
      SELECT ${sqlAcc('100000 + 1 + i % 6000')}, CASE WHEN i % 10 = 0 THEN '${HOT}' ELSE ${sqlAcc('10000 + i % 2000')} END
      FROM generate_series(1, 12000) i
      ON CONFLICT DO NOTHING;
      -- 4,000 multisig wallets (HOT signs a fifth) and 12,000 orders (a fifth of them the first wallet's).
      INSERT INTO multisig_wallets (address, next_order_seqno, threshold, signers, proposers, last_transaction_lt)
      SELECT ${sqlAcc('100000 + i')}, 0, 2,
             ARRAY[${sqlAcc('10000 + i % 1000')}, ${sqlAcc('10000 + (i + 1) % 1000')}] || CASE WHEN i % 5 = 0 THEN ARRAY['${HOT}'] ELSE '{}' END,
             ARRAY[${sqlAcc('12000 + i % 500')}], i
      FROM generate_series(1, 4000) i;
      INSERT INTO multisig_orders (address, multisig_address, order_seqno, threshold, sent_for_execution, approvals_mask, approvals_num, expiration_date,
                                   order_boc, signers, last_transaction_lt)
      SELECT ${sqlAcc('200000 + i')}, CASE WHEN i % 5 = 0 THEN ${sqlAcc('100001')} ELSE ${sqlAcc('100000 + 1 + i % 4000')} END, i, 2, false, 0, 0, 0,
             '\\x00', '{}', i
      FROM generate_series(1, 12000) i;
      -- 12,000 accounts' latest states, a third of them with one code.
      INSERT INTO latest_account_states (account, account_state_hash, last_trans_lt, last_trans_hash, timestamp, balance, account_status, code_hash)
      SELECT ${sqlAcc('10000 + i')}, '\\x00', i, '\\x00', i, (i * 7919) % 100000, 'active',
             CASE WHEN i % 3 = 0 THEN '\\x01'::bytea ELSE decode(md5('c' || i), 'hex') END
      FROM generate_series(1, 12000) i;
      ANALYZE;
    `),
  );
}, 60_000);
afterAll(() => t?.drop());

const SORTS = ['asc', 'desc'] as const;

it('/dns/records: by wallet and by domain', async () => {
  const cases: [string, Prisma.Sql][] = [
    ['wallet', dnsRecordsQuery({ wallet: HOT }, page)],
    ['domain', dnsRecordsQuery({ domain: 'name7.ton' }, page)],
  ];
  expect(await badPlans(t.db, cases, ['dns_entries'])).toEqual({ planned: 2, bad: [] });
});

describe('/vesting plans', () => {
  it('by contracts, and by wallets with and without the whitelist', async () => {
    const cases: [string, Prisma.Sql][] = [
      ['contract=1', vestingQuery({ contracts: [contract(5)] }, page)],
      ['contract=2', vestingQuery({ contracts: [contract(5), contract(6)] }, page)],
    ];
    for (const wallets of [[HOT], [HOT, wallet(7)]])
      for (const checkWhitelist of [false, true])
        cases.push([`wallet=${wallets.length}${checkWhitelist ? ' check_whitelist' : ''}`, vestingQuery({ wallets, checkWhitelist }, page)]);
    expect(await badPlans(t.db, cases, ['vesting_contracts', 'vesting_whitelist'])).toEqual({ planned: 6, bad: [] });
  });

  it('whitelisted contracts are found by the whitelist’s wallet index, not by testing every contract', async () => {
    const nodes = planNodes(await planTree(t.db, vestingQuery({ wallets: [wallet(7)], checkWhitelist: true }, page)));
    expect(nodes.map((n) => n['Index Name'])).toContain('vesting_whitelist_wallet_address_idx');
    expect(nodes.filter((n) => n['Relation Name'] === 'vesting_contracts').every((n) => n['Node Type'] !== 'Index Scan' || n['Index Cond'])).toBe(true);
  });
});

describe('/multisig plans', () => {
  it('wallets by address and by member, either order, with their orders', async () => {
    const cases = product<MultisigWalletFilter>(list('addresses', contract(5), contract(6)), list('members', HOT, wallet(7))).filter(([n]) => n);
    const queries: [string, Prisma.Sql][] = cases.flatMap(([n, f]) => SORTS.map((sort): [string, Prisma.Sql] => [`${n} ${sort}`, multisigWalletsQuery(f, sort, page)]));
    queries.push(['orders of one wallet', walletOrdersQuery([contract(1)])], ['orders of a page of wallets', walletOrdersQuery([...Array(20).keys()].map((k) => contract(k + 1)))]);
    expect(await badPlans(t.db, queries, ['multisig_wallets', 'multisig_orders'])).toEqual({ planned: 8 * 2 + 2, bad: [] });
  });

  it('orders by address and by wallet, either order', async () => {
    const cases = product<MultisigOrderFilter>(list('addresses', order(5), order(6)), list('multisigs', contract(1), contract(7))).filter(([n]) => n);
    const queries: [string, Prisma.Sql][] = cases.flatMap(([n, f]) => SORTS.map((sort): [string, Prisma.Sql] => [`${n} ${sort}`, multisigOrdersQuery(f, sort, page)]));
    expect(await badPlans(t.db, queries, ['multisig_orders'])).toEqual({ planned: 8 * 2, bad: [] });
  });

  it('each wallet’s newest orders come off its (multisig_address, id) index, the busy wallet’s too', async () => {
    const nodes = planNodes(await planTree(t.db, walletOrdersQuery([contract(1), contract(7)])));
    const scans = nodes.filter((n) => n['Index Name']?.startsWith('multisig_orders_') || (n['Relation Name'] === 'multisig_orders' && n['Node Type'] !== 'Bitmap Heap Scan'));
    expect(scans.map((n) => [n['Index Name'], !!n['Index Cond']])).toEqual([['multisig_orders_multisig_address_id_idx', true]]);
  });
});

describe('account state plans', () => {
  it('topAccountsByBalance, and accountStates / walletStates with and without code hashes', async () => {
    const queries: [string, Prisma.Sql][] = [['top balances', topBalancesQuery(page)]];
    for (const accounts of [[wallet(5)], [wallet(5), wallet(6), wallet(7)]])
      for (const codeHashes of [undefined, [Buffer.from([1])]])
        queries.push([`accounts=${accounts.length}${codeHashes ? ' code_hash' : ''}`, latestStatesQuery({ accounts, codeHashes })]);
    expect(await badPlans(t.db, queries, ['latest_account_states'])).toEqual({ planned: 5, bad: [] });
  });
});

it('the check catches a sort of the whole table', async () => {
  const byLt = Prisma.sql`SELECT account FROM latest_account_states ORDER BY last_trans_lt DESC LIMIT ${20}`;
  expect(indexProblems(await planTree(t.db, byLt), 'latest_account_states')).not.toEqual([]);
});
