// /search's candidates (token-search.ts) are looked up by index: the word and word-prefix scans of
// token_names (its primary key, in C collation, so a prefix is an index range), then each hit's token row
// and fetched metadata by key — never a table read whole, however common the word.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../../db/generated/client';
import { migrate } from '../../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../../testing/database';
import { planTree, sqlTestAccount, unkeyedScans } from '../../../testing/plan';
import { tokenCandidatesQuery } from './token-search';

let t: TestDatabase;
const TABLES = ['token_names', 'jetton_masters', 'nft_collections', 'nft_items', 'offchain_metadata'];

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  // 4,000 jettons, 2,000 collections and 12,000 items named "<word> <i>", the words from a list of 50
  // (so a common word has hundreds of tokens), their off-chain documents fetched.
  await t.db.session((s) =>
    s.exec(`
      INSERT INTO jetton_masters (address, total_supply, mintable, jetton_content, last_transaction_lt)
      SELECT ${sqlTestAccount('20000 + i')}, i, true, jsonb_build_object('uri', 'https://m/' || i), i FROM generate_series(1, 4000) i;
      INSERT INTO nft_collections (address, next_item_index, collection_content, last_transaction_lt)
      SELECT ${sqlTestAccount('40000 + i')}, 100, jsonb_build_object('name', 'word' || (i % 50) || ' ' || i), i FROM generate_series(1, 2000) i;
      INSERT INTO nft_items (address, init, index, collection_address, content, last_transaction_lt)
      SELECT ${sqlTestAccount('60000 + i')}, true, i, ${sqlTestAccount('40001 + i % 2000')}, jsonb_build_object('name', 'word' || (i % 50) || ' ' || i), i
      FROM generate_series(1, 12000) i;
      INSERT INTO offchain_metadata (uri, state, content) SELECT 'https://m/' || i, 'ok', jsonb_build_object('name', 'word' || (i % 50) || ' ' || i) FROM generate_series(1, 4000) i;
      INSERT INTO token_names (word, kind, address)
      SELECT 'word' || (i % 50), 'jetton', ${sqlTestAccount('20000 + i')} FROM generate_series(1, 4000) i
      UNION ALL SELECT i::text, 'jetton', ${sqlTestAccount('20000 + i')} FROM generate_series(1, 4000) i
      UNION ALL SELECT 'word' || (i % 50), 'nft_collection', ${sqlTestAccount('40000 + i')} FROM generate_series(1, 2000) i
      UNION ALL SELECT 'word' || (i % 50), 'nft_item', ${sqlTestAccount('60000 + i')} FROM generate_series(1, 12000) i
      UNION ALL SELECT i::text, 'nft_item', ${sqlTestAccount('60000 + i')} FROM generate_series(1, 12000) i;
      ANALYZE;
    `),
  );
}, 120_000);
afterAll(() => t?.drop());

const unkeyed = async (query: Prisma.Sql) => unkeyedScans(await planTree(t.db, query), TABLES);

describe('/search plans', () => {
  it('a common word, a rare one, a prefix, a number and a word no token has: every table read by key', async () => {
    for (const word of ['word7', 'word', 'w', '1234', '12', 'zzz', '100%_x']) expect(await unkeyed(tokenCandidatesQuery(word)), word).toEqual([]);
  });

  it('the check sees a table read whole', async () => {
    expect(await unkeyed(Prisma.sql`SELECT kind FROM token_names WHERE word LIKE '%ord%'`)).not.toEqual([]);
  });
});
