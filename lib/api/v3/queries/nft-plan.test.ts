// The NFT routes (nft/collections, nft/items, nft/transfers, nft/sales) read a page off an index for
// every combination of filters their queries allow (lib/testing/plan.ts indexProblems): no sequential
// scan, no sort of rows found without an index condition — on the listed table and on the tables an item
// joins (its sale, its collection). The queries are the routes' own, EXPLAINed on the suite's engine over
// tables with a hot owner and a hot collection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../../db/generated/client';
import { migrate } from '../../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../../testing/database';
import { badPlans, indexProblems, listFilter as list, planNodes, planTree, product, sqlTestAccount as sqlAcc, testAccount as acc } from '../../../testing/plan';
import { nftCollectionsQuery, type NftCollectionFilter } from './nft-collections';
import { nftItemsQuery, type NftItemFilter } from './nft-items';
import { nftSalesQuery } from './nft-sales';
import { nftTransfersQuery, type NftTransferFilter } from './nft-transfers';

let t: TestDatabase;
const HOT = `0:${'A'.repeat(64)}`;
const HOT_COLLECTION = `0:${'B'.repeat(64)}`;
const owner = (k: number) => acc(10_000 + k);
const collection = (k: number) => acc(20_000 + k);
const item = (k: number) => acc(100_000 + k);
const sale = (k: number) => acc(200_000 + k);
const page = { take: 20, skip: 0 };

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  await t.db.session((s) =>
    s.exec(`
      -- 2,000 collections, a tenth of them HOT's.
      INSERT INTO nft_collections (address, next_item_index, owner_address, last_transaction_lt)
      SELECT ${sqlAcc('20000 + i')}, 100, CASE WHEN i % 10 = 0 THEN '${HOT}' ELSE ${sqlAcc('10000 + i % 300')} END, i
      FROM generate_series(1, 2000) i;
      -- 12,000 items: a third in HOT_COLLECTION, one in fifty in none; a fifth HOT's.
      INSERT INTO nft_items (address, init, index, collection_address, owner_address, last_transaction_lt)
      SELECT ${sqlAcc('100000 + i')}, true, i / 3,
             CASE WHEN i % 3 = 0 THEN '${HOT_COLLECTION}' WHEN i % 50 = 1 THEN NULL ELSE ${sqlAcc('20000 + i % 200')} END,
             CASE WHEN i % 5 = 0 THEN '${HOT}' ELSE ${sqlAcc('10000 + i % 2000')} END, (i * 7919) % 100000
      FROM generate_series(1, 12000) i;
      -- 1,500 sales and auctions, each holding the item it sells; a fifth of the sellers HOT.
      INSERT INTO nft_sales (address, type, nft_address, nft_owner_address, details, last_transaction_lt)
      SELECT ${sqlAcc('200000 + k')}, CASE WHEN k % 2 = 0 THEN 'getgems_sale' ELSE 'getgems_auction' END, ${sqlAcc('100000 + k * 8 + 1')},
             CASE WHEN k % 5 = 0 THEN '${HOT}' ELSE ${sqlAcc('10000 + k % 300')} END, '{}', k
      FROM generate_series(1, 1500) k;
      UPDATE nft_items i SET owner_address = s.address FROM nft_sales s WHERE s.nft_address = i.address;
      -- 12,000 transfers between 500 owners and HOT, of 1,000 items.
      INSERT INTO nft_transfers (tx_hash, tx_lt, tx_now, tx_aborted, mc_seqno, query_id, nft_item_address, nft_collection_address, old_owner, new_owner,
                                 forward_amount)
      SELECT decode(md5('t' || i), 'hex'), i * 10, 1700000000 + i / 3, false, i / 10, 0, ${sqlAcc('100000 + i % 1000')},
             CASE WHEN i % 3 = 0 THEN '${HOT_COLLECTION}' ELSE ${sqlAcc('20000 + i % 200')} END,
             CASE WHEN i % 5 = 0 THEN '${HOT}' ELSE ${sqlAcc('10000 + i % 500')} END, CASE WHEN i % 5 = 1 THEN '${HOT}' ELSE ${sqlAcc('10000 + (i * 7) % 500')} END, 0
      FROM generate_series(1, 12000) i;
      ANALYZE;
    `),
  );
}, 60_000);
afterAll(() => t?.drop());


describe('/nft/collections plans', () => {
  it('every filter combination reads off an index', async () => {
    const cases = product<NftCollectionFilter>(list('address', collection(5), collection(6)), list('owner', HOT, owner(7)));
    const { planned, bad } = await badPlans(t.db, cases.map(([n, f]) => [n, nftCollectionsQuery(f, page)]), ['nft_collections']);
    expect(planned).toBe(9);
    expect(bad).toEqual([]);
  });
});

describe('/nft/items and /nft/sales plans', () => {
  const TABLES = ['nft_items', 'nft_sales', 'nft_collections'];

  it('every filter combination, include_on_sale and order reads off an index, the joined sale and collection too', async () => {
    const owners: Record<string, Partial<NftItemFilter>> = { '': {} };
    for (const [n, f] of Object.entries(list<NftItemFilter>('owner', HOT, owner(7))).slice(1)) {
      owners[n] = f;
      owners[`${n} include_on_sale`] = { ...f, includeOnSale: true };
    }
    const cases = product<NftItemFilter>(
      list('address', item(5), item(6)),
      owners,
      list('collection', HOT_COLLECTION, collection(5)),
      list('index', '300', '301'),
      { '': {}, sort_by_last_transaction_lt: { sortByLastTransactionLt: true } },
      // index needs a collection, several collections exactly one owner (the route answers 422 otherwise).
    ).filter(([, f]) => (!f.index || f.collection) && ((f.collection?.length ?? 0) < 2 || f.owner?.length === 1));
    const { planned, bad } = await badPlans(t.db, cases.map(([n, f]) => [n, nftItemsQuery(f, page)]), TABLES);
    expect(planned).toBe(3 * (4 + 2 * 7 + 2 * 4) * 2);
    expect(bad).toEqual([]);
  }, 60_000);

  it('a hot owner’s items with those on sale: its items by owner and its sales’ items by address, not every item', async () => {
    const nodes = planNodes(await planTree(t.db, nftItemsQuery({ owner: [HOT], includeOnSale: true }, page)));
    const items = nodes.filter((n) => n['Index Name']?.startsWith('nft_items_'));
    expect(new Set(items.map((n) => n['Index Name']))).toEqual(new Set(['nft_items_owner_address_collection_address_index_idx', 'nft_items_pkey']));
  });

  it('the newest items come off the last_transaction_lt index, ties put in order as they come', async () => {
    const nodes = planNodes(await planTree(t.db, nftItemsQuery({ sortByLastTransactionLt: true }, page)));
    expect(nodes.some((n) => n['Node Type'] === 'Sort')).toBe(false);
    expect(nodes.find((n) => n['Relation Name'] === 'nft_items')?.['Index Name']).toBe('nft_items_last_transaction_lt_idx');
  });

  it('sales by address', async () => {
    const cases: [string, Prisma.Sql][] = [
      ['address=1', nftSalesQuery([sale(5)])],
      ['address=2', nftSalesQuery([sale(5), sale(6)])],
    ];
    const { planned, bad } = await badPlans(t.db, cases, TABLES);
    expect(planned).toBe(2);
    expect(bad).toEqual([]);
  });
});

describe('/nft/transfers plans', () => {
  it('every filter combination, direction, range and order reads off an index', async () => {
    // direction only matters with an owner (without one the query is the same); absent is both.
    const owners: Record<string, Partial<NftTransferFilter>> = { '': {} };
    for (const [n, f] of Object.entries(list<NftTransferFilter>('owner', HOT, owner(7))).slice(1))
      for (const direction of ['in', 'out', 'both'] as const) owners[`${n} ${direction}`] = { ...f, direction };
    const cases = product<NftTransferFilter>(
      owners,
      list('item', item(5), item(6)),
      { '': {}, collection: { collection: HOT_COLLECTION } },
      {
        '': {},
        lt: { startLt: 20_000n, endLt: 40_000n },
        utime: { startUtime: 1_700_001_000, endUtime: 1_700_002_000 },
        'lt+utime': { startLt: 20_000n, endLt: 40_000n, startUtime: 1_700_001_000, endUtime: 1_700_002_000 },
      },
      { asc: { sort: 'asc' }, desc: { sort: 'desc' } },
    );
    const { planned, bad } = await badPlans(t.db, cases.map(([n, f]) => [n, nftTransfersQuery(f as NftTransferFilter, page)]), ['nft_transfers']);
    expect(planned).toBe(7 * 3 * 2 * 4 * 2);
    expect(bad).toEqual([]);
  }, 60_000);
});

describe('/nft/transfers keyed by an item, an owner or a collection whose transfers are old', () => {
  // 16,000 more transfers, older than all but a few of the others, of 10 items, 10 receiving owners and 10
  // collections: each key holds 1,600 (6% of the table), none among the newest 10,000. By the statistics one
  // transfer in 18 is the key's, so walking the tx_lt index back from the newest looks like the cheapest way
  // to a page; it reads 10,000 other transfers first (tx-range.ts). The page must be read by the key.
  // (The table is rewritten in lt order, as the indexer appends: the tx_lt index walks the heap in order.)
  const OLD = { item: acc(900_000), owner: acc(910_000), collection: acc(920_000) };
  beforeAll(async () => {
    await t.db.session((s) =>
      s.exec(`
        INSERT INTO nft_transfers (tx_hash, tx_lt, tx_now, tx_aborted, mc_seqno, query_id, nft_item_address, nft_collection_address, old_owner, new_owner, forward_amount)
        SELECT decode(md5('old' || i), 'hex'), i, 1600000000, false, 0, 0, ${sqlAcc('900000 + i % 10')}, ${sqlAcc('920000 + i % 10')},
               ${sqlAcc('10000 + i % 500')}, ${sqlAcc('910000 + i % 10')}, 0
        FROM generate_series(1, 16000) i;
        -- Stored in lt order, as the indexer appends them.
        CREATE TEMP TABLE transfers_by_lt AS SELECT * FROM nft_transfers;
        DELETE FROM nft_transfers;
        INSERT INTO nft_transfers SELECT * FROM transfers_by_lt ORDER BY tx_lt;
        DROP TABLE transfers_by_lt;
        ANALYZE nft_transfers;
      `),
    );
  });
  afterAll(async () => {
    await t?.db.session((s) => s.exec(`DELETE FROM nft_transfers WHERE tx_now = 1600000000; ANALYZE nft_transfers;`));
  });

  it('reads the page off the key\'s (key, tx_lt) index, in either order', async () => {
    const keyed: [string, Partial<NftTransferFilter>, string][] = [
      ['item', { item: [OLD.item] }, 'nft_item_address'],
      ['owner in', { owner: [OLD.owner], direction: 'in' }, 'new_owner'],
      ['collection', { collection: OLD.collection }, 'nft_collection_address'],
    ];
    const read: string[] = [];
    for (const [name, f, column] of keyed) {
      for (const sort of ['desc', 'asc'] as const) {
        const scan = planNodes(await planTree(t.db, nftTransfersQuery({ ...f, sort } as NftTransferFilter, page))).find((n) => n['Relation Name'] === 'nft_transfers');
        if (scan?.['Index Name'] !== `nft_transfers_${column}_tx_lt_idx`) read.push(`${name} ${sort}: ${scan?.['Index Name'] ?? scan?.['Node Type']}`);
      }
    }
    expect(read).toEqual([]);
  });
});

it('the check catches a join that reads every row of the joined table', async () => {
  const joined = Prisma.sql`SELECT i.address FROM nft_items i JOIN nft_sales s ON s.marketplace_address = i.owner_address ORDER BY i.id LIMIT ${20}`;
  expect(indexProblems(await planTree(t.db, joined), 'nft_sales')).not.toEqual([]);
});
