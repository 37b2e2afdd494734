// The side maps' one statement (side-rows.ts) reads each table it joins by an index: nearly every v3
// answer runs it, with up to a few hundred accounts, over tables that grow with the chain (every
// account's latest state, every jetton wallet and NFT item). EXPLAINed on the suite's engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../../db/generated/client';
import { migrate } from '../../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../../testing/database';
import { planTree, sqlTestAccount as sqlAcc, testAccount as acc, unkeyedScans } from '../../../testing/plan';
import { sideRowsQuery, type SideParts } from './side-rows';

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  // 12,000 of each: account states, jetton wallets (of 3,000 masters), NFT items (of 2,000 collections),
  // names, and fetched metadata documents for the masters', collections' and items' URIs.
  await t.db.session((s) =>
    s.exec(`
      INSERT INTO latest_account_states (account, account_state_hash, last_trans_lt, last_trans_hash, timestamp, balance, account_status, code_hash)
      SELECT ${sqlAcc('10000 + i')}, '\\x00', i, '\\x00', i, i, 'active', decode(md5('c' || i % 50), 'hex') FROM generate_series(1, 12000) i;
      INSERT INTO jetton_masters (address, total_supply, mintable, admin_address, jetton_content, last_transaction_lt)
      SELECT ${sqlAcc('30000 + i')}, i, true, ${sqlAcc('10000 + i')}, jsonb_build_object('uri', 'https://m/' || i), i FROM generate_series(1, 3000) i;
      INSERT INTO jetton_wallets (address, balance, owner, jetton, last_transaction_lt)
      SELECT ${sqlAcc('10000 + i')}, i, ${sqlAcc('50000 + i % 3000')}, ${sqlAcc('30000 + 1 + i % 3000')}, i FROM generate_series(1, 12000) i;
      INSERT INTO nft_collections (address, next_item_index, owner_address, collection_content, last_transaction_lt)
      SELECT ${sqlAcc('40000 + i')}, 100, ${sqlAcc('10000 + i')}, jsonb_build_object('uri', 'https://c/' || i), i FROM generate_series(1, 2000) i;
      INSERT INTO nft_items (address, init, index, collection_address, owner_address, content, last_transaction_lt)
      SELECT ${sqlAcc('60000 + i')}, true, i, ${sqlAcc('40000 + 1 + i % 2000')}, ${sqlAcc('10000 + i % 3000')}, jsonb_build_object('uri', 'https://i/' || i), i
      FROM generate_series(1, 12000) i;
      INSERT INTO dns_entries (nft_item_address, domain, nft_item_owner, dns_wallet, last_transaction_lt)
      SELECT ${sqlAcc('90000 + i')}, 'name' || i || '.ton', ${sqlAcc('10000 + i')}, ${sqlAcc('10000 + i')}, i FROM generate_series(1, 12000) i;
      INSERT INTO offchain_metadata (uri, state) SELECT 'https://' || k || '/' || i, 'pending' FROM generate_series(1, 4000) i, unnest(ARRAY['m', 'c', 'i']) k;
      ANALYZE;
    `),
  );
}, 120_000);
afterAll(() => t?.drop());

// 100 accounts an answer might name: plain accounts, jetton wallets, masters, collections and items.
const ACCOUNTS = Array.from({ length: 100 }, (_, i) => acc([10000, 30000, 40000, 60000][i % 4]! + 1 + i * 37));
const TABLES = ['latest_account_states', 'dns_entries', 'jetton_wallets', 'jetton_masters', 'nft_collections', 'nft_items', 'offchain_metadata'];

const unkeyed = async (query: Prisma.Sql) => unkeyedScans(await planTree(t.db, query), TABLES);

describe('side maps statement plans', () => {
  it('every table it reads, for the address book, the metadata and both, by an index condition', async () => {
    const wants: [string, SideParts][] = [
      ['book', { book: true, tokens: false }],
      ['metadata', { book: false, tokens: true }],
      ['both', { book: true, tokens: true }],
    ];
    for (const [name, want] of wants) {
      for (const accounts of [ACCOUNTS, ACCOUNTS.slice(0, 1)]) expect(await unkeyed(sideRowsQuery(accounts, want)), `${name}, ${accounts.length} accounts`).toEqual([]);
    }
  });

  it('so does the side-map cache’s read, with the masters of the accounts’ wallets', async () => {
    for (const accounts of [ACCOUNTS, ACCOUNTS.slice(0, 1)]) expect(await unkeyed(sideRowsQuery(accounts, { book: true, tokens: true }, true)), `${accounts.length} accounts`).toEqual([]);
  });

  it('the check sees a table read whole', async () => {
    expect(await unkeyed(Prisma.sql`SELECT domain FROM dns_entries WHERE length(domain) > 3`)).not.toEqual([]);
    expect(await unkeyed(Prisma.sql`SELECT account FROM latest_account_states ORDER BY account LIMIT 5`)).not.toEqual([]);
  });
});
