// The side-map cache (side-cache.ts) against the database on the suite's engine, migrated, so the change
// notices come from the real triggers: kept side maps are byte for byte the ones read from the rows, on
// the first ask and later ones, and after every kind of change the rows can go through (a jetton wallet's
// balance or master, a master's content, fetched off-chain content, a name re-pointed, an account's code,
// a state deleted, a table truncated), once its notice is heard. A read that overlapped a notice is not
// kept, and nothing is kept while the notices are not heard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate';
import type { SqlReader } from '../../db/sql';
import { createTestDatabase, type TestDatabase } from '../../testing/database';
import { recordNotices, type HeardNotices } from '../../testing/notices';
import { waitFor } from '../../testing/lite-servers';
import { sqlTestAccount as sqlAcc, testAccount as acc } from '../../testing/plan';
import type { V3Context } from './context';
import { addressBookByInput, metadataByInput, sideMaps } from './queries/side-maps';
import { SIDE_CHANGES, SideCache } from './side-cache';

let t: TestDatabase;
let cache: SideCache;
let heard: HeardNotices;

// Accounts 1–8 have states (5–8 without code), 9 none; 10–13 are jetton wallets of masters 20–21 (20
// off-chain content, fetched; 21 on-chain); 30 a collection (off-chain, not fetched yet), 31–32 its items;
// names point at 1 and 2.
const SEED = `
  INSERT INTO latest_account_states (account, account_state_hash, last_trans_lt, last_trans_hash, timestamp, balance, account_status, code_hash)
  SELECT ${sqlAcc('i')}, '\\x00', i, '\\x00', i, i, 'active', CASE WHEN i < 5 THEN decode(md5('c' || i % 2), 'hex') END FROM generate_series(1, 8) i;
  INSERT INTO jetton_masters (address, total_supply, mintable, jetton_content, last_transaction_lt) VALUES
    (${sqlAcc('20')}, 1000, true, '{"uri": "https://example.test/m.json"}', 1),
    (${sqlAcc('21')}, 5, false, '{"name": "On", "symbol": "ON", "decimals": "9"}', 1);
  INSERT INTO jetton_wallets (address, balance, owner, jetton, last_transaction_lt)
  SELECT ${sqlAcc('i')}, i * 100, ${sqlAcc('i - 9')}, ${sqlAcc('20 + i % 2')}, i FROM generate_series(10, 13) i;
  INSERT INTO nft_collections (address, next_item_index, collection_content, last_transaction_lt) VALUES (${sqlAcc('30')}, 2, '{"uri": "https://example.test/c.json"}', 1);
  INSERT INTO nft_items (address, init, index, collection_address, owner_address, content, last_transaction_lt)
  SELECT ${sqlAcc('i')}, true, i - 31, ${sqlAcc('30')}, ${sqlAcc('1')}, jsonb_build_object('uri', 'https://example.test/i' || i || '.json'), i FROM generate_series(31, 32) i;
  INSERT INTO dns_entries (nft_item_address, domain, nft_item_owner, dns_wallet, last_transaction_lt) VALUES
    (${sqlAcc('40')}, 'alice.ton', ${sqlAcc('1')}, ${sqlAcc('1')}, 1),
    (${sqlAcc('41')}, 'bob.ton', ${sqlAcc('2')}, ${sqlAcc('2')}, 1);
  INSERT INTO offchain_metadata (uri, state, content) VALUES ('https://example.test/m.json', 'ok', '{"name": "Off", "symbol": "OFF", "image": "https://example.test/off.png"}');
`;

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  await t.db.session((s) => s.exec(SEED));
  cache = new SideCache(4 * 1024 * 1024);
  heard = await recordNotices(t.db, SIDE_CHANGES, cache);
  if (!(await waitFor(() => cache.stats.listening, 10_000))) throw new Error('the change notices are not heard');
}, 60_000);
afterAll(() => t?.drop());

const ctx = (sideCache: SideCache | undefined, flags: { noAddressBook?: boolean; noMetadata?: boolean } = {}, sql: SqlReader = t.db.sql) =>
  ({ sql, testnet: false, noAddressBook: false, noMetadata: false, ...flags, sideCache }) as V3Context;

const ALL = [...[1, 2, 3, 5, 9, 10, 11, 12, 13, 20, 21, 30, 31, 32].map(acc)];
// Lists an answer might name: all, a wallet without its master, items without their collection, one account.
const LISTS = [ALL, [acc(10), acc(12)], [acc(31), acc(1)], [acc(11)], [acc(9)]];
const FLAGS = [{}, { noAddressBook: true }, { noMetadata: true }];

/** Every list and flag, plus /addressBook and /metadata, as text: kept and read must agree. */
async function answers(sideCache: SideCache | undefined): Promise<string[]> {
  const out: string[] = [];
  for (const list of LISTS) {
    for (const flags of FLAGS) out.push(JSON.stringify(await sideMaps(ctx(sideCache, flags), list)));
    out.push(JSON.stringify(await addressBookByInput(ctx(sideCache), [...list, 'not an address'])));
    out.push(JSON.stringify(await metadataByInput(ctx(sideCache), list)));
  }
  return out;
}

/** Runs SQL; once everything it committed is heard, the notices it caused must be exactly `notices`. */
async function change(sql: string, notices: string[]): Promise<void> {
  heard.payloads.length = 0;
  await t.db.session((s) => s.exec(sql));
  await heard.settled();
  expect(heard.payloads).toEqual(notices);
}

describe('side-map cache', () => {
  it('answers what the rows say, on the first ask and when kept', async () => {
    const read = await answers(undefined);
    expect(await answers(cache)).toEqual(read);
    expect(cache.stats.entries).toBeGreaterThan(10);
    expect(await answers(cache)).toEqual(read);
    // The seed is what the test means: names, a fetched master, an unfetched collection, a wallet's master.
    const maps = await sideMaps(ctx(cache), ALL);
    expect(maps.address_book[acc(1)]?.domain).toBe('alice.ton');
    expect(maps.metadata[acc(20)]?.token_info[0]?.symbol).toBe('OFF');
    expect(maps.metadata[acc(30)]?.token_info[0]).toEqual({ type: 'nft_collections' });
    expect((await sideMaps(ctx(cache), [acc(10)])).metadata[acc(20)]?.is_indexed).toBe(true);
  });

  const changes: [string, string, string[]][] = [
    ['a jetton wallet’s balance', `UPDATE jetton_wallets SET balance = balance + 1 WHERE address = ${sqlAcc('10')}`, [`a${acc(10)}`]],
    ['a jetton wallet’s master', `UPDATE jetton_wallets SET jetton = ${sqlAcc('21')} WHERE address = ${sqlAcc('10')}`, [`a${acc(10)}`]],
    ['a master’s content', `UPDATE jetton_masters SET jetton_content = '{"name": "Renamed"}' WHERE address = ${sqlAcc('21')}`, [`a${acc(21)}`]],
    [
      'fetched content arriving',
      `INSERT INTO offchain_metadata (uri, state, content) VALUES ('https://example.test/c.json', 'ok', '{"name": "Coll"}')`,
      ['uhttps://example.test/c.json'],
    ],
    ['fetched content changing', `UPDATE offchain_metadata SET state = 'failed', content = NULL WHERE uri = 'https://example.test/m.json'`, ['uhttps://example.test/m.json']],
    ['a name re-pointed', `UPDATE dns_entries SET dns_wallet = ${sqlAcc('3')}, nft_item_owner = ${sqlAcc('3')} WHERE domain = 'alice.ton'`, [`a${acc(1)}`, `a${acc(3)}`]],
    ['an account’s code', `UPDATE latest_account_states SET code_hash = decode(md5('other'), 'hex') WHERE account = ${sqlAcc('5')}`, [`a${acc(5)}`]],
    ['an account’s first state', `INSERT INTO latest_account_states (account, account_state_hash, last_trans_lt, last_trans_hash, timestamp, balance, account_status) VALUES (${sqlAcc('9')}, '\\x00', 1, '\\x00', 1, 1, 'uninit')`, [`a${acc(9)}`]],
    ['a state deleted', `DELETE FROM latest_account_states WHERE account = ${sqlAcc('2')}`, [`a${acc(2)}`]],
    ['an item’s content', `UPDATE nft_items SET content = '{"name": "Item"}' WHERE address = ${sqlAcc('31')}`, [`a${acc(31)}`]],
    ['a table truncated', `TRUNCATE dns_entries`, ['*']],
  ];
  for (const [what, sql, notices] of changes) {
    it(`follows ${what}`, async () => {
      const before = await answers(undefined);
      expect(await answers(cache)).toEqual(before); // kept now
      await change(sql, notices);
      const after = await answers(undefined);
      expect(after).not.toEqual(before);
      expect(await answers(cache)).toEqual(after);
    });
  }

  it('hears nothing of a change to what the side maps do not show', async () => {
    await change(`UPDATE latest_account_states SET balance = balance + 1; UPDATE offchain_metadata SET attempts = attempts + 1`, []);
  });

  it('keeps no read that overlapped a notice', async () => {
    await change(`TRUNCATE offchain_metadata`, ['*']);
    // A read whose rows come back after a notice for an account it read: the rows may predate the change.
    let raced = false;
    const racing: SqlReader = {
      rows: async (q, name) => {
        const rows = await t.db.sql.rows(q, name);
        if (!raced) cache.notice(`a${acc(3)}`);
        raced = true;
        return rows as never;
      },
    };
    await sideMaps(ctx(cache, {}, racing), [acc(3)]);
    expect(cache.stats.entries).toBe(0);
    await sideMaps(ctx(cache), [acc(3)]);
    expect(cache.stats.entries).toBe(1);
  });

  it('keeps nothing while the notices are not heard', async () => {
    cache.deaf();
    expect(cache.stats.entries).toBe(0);
    const read = await answers(undefined);
    expect(await answers(cache)).toEqual(read);
    expect(cache.stats).toMatchObject({ entries: 0, listening: false });
    cache.heard();
    expect(await answers(cache)).toEqual(read);
    expect(cache.stats.entries).toBeGreaterThan(0);
  });
});
