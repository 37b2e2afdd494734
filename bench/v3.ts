// /api/v3 latency at scale: the recorded devnet chain indexed (derive stage included) into a scratch
// PostgreSQL database, then multiplied in SQL into ~`rows` transactions (each copy gets new hashes, lts
// shifted by a copy offset and one of 1000 synthetic accounts or 3 hot ones, so indexes see realistic
// cardinality) with their messages, and ~`rows` traces, actions (with action_accounts), jetton wallets
// and NFT items (200,000 owners, 3 hot ones). Each route runs through the real handlers (testApi's
// dispatcher, in process) for the 50 busiest keys, then for the 3 hot ones alone; an answer is read to its
// last byte but not parsed, as an HTTP load tool reads it (parsing is the client's time, not the route's).
// `--v3-database <url of an existing, empty or already seeded database>` keeps the seeded rows between
// runs (seeding 1M rows takes minutes; A/B runs of a query change then take seconds); pending migrations
// are applied to it first, and a table seeded by an older bench is multiplied when it holds no copies yet.
import type { LiteClient } from 'ton-lite-client';
import { testApi } from '../lib/testing/api';
import { openDatabase, type Database } from '../lib/db/database';
import { migrate } from '../lib/db/migrate';
import { Indexer } from '../lib/indexer/follower';
import { log } from '../lib/log';
import { installFastTonCore } from '../lib/ton/fast-core';
import { TvmPool } from '../lib/tvm/pool';
import { latencyRows, sample, sampleConcurrent, scratchPostgres, type BenchResult } from './support';

const LT_STRIDE = 10n ** 13n; // lts of copy k are shifted by k * LT_STRIDE: no (account, lt) collisions

// New 32-byte hashes (md5 of (hash, copy) twice): the same source hash in the same copy k maps to the same
// new hash in every table, so copied transactions, messages, traces and actions still join.
const newHash = (col: string) => `decode(md5(${col}::text || k::text) || md5(k::text || ${col}::text), 'hex')`;
/** A raw address from a number (accounts 0, 1, 2 are the hot ones). */
const rawAddress = (n: string) => `'0:' || upper(lpad(to_hex((${n})::int), 64, '0'))`;
/**
 * An account for a copied row: `x` (a pseudo-random int expression) spread over `spread` accounts, with
 * `hotPercent`% of the rows going to 3 hot accounts (an exchange, a market maker, a big collector), so a
 * page of a hot account reads out of thousands of rows and one of an ordinary account out of hundreds.
 */
const skewedAccount = (x: string, spread: number, hotPercent: number) =>
  rawAddress(`CASE WHEN (${x}) % 100 < ${hotPercent} THEN (${x}) % 3 ELSE 3 + (${x}) % ${spread} END`);
/** A pseudo-random non-negative int from a text expression and the copy number. */
const mix = (text: string) => `('x' || substr(md5((${text}) || k::text), 1, 7))::bit(28)::int`;
/** A new raw address per (address, copy). */
const newAddress = (col: string) => `'0:' || upper(md5(${col} || k::text) || md5(k::text || ${col}))`;
// The page the token and trace routes are measured with (the routes' default limit is 100).
const LIMIT = { limit: 20 };
const LIMIT_NAME = '&limit=20';
const shifted = (col: string) => `${col} + k * ${LT_STRIDE}`;
/** The chain's own rows (copy 0): lts in [0, LT_STRIDE). */
const chainRows = (col: string) => `${col} >= 0 AND ${col} < ${LT_STRIDE}`;
/**
 * Lts of a trace's (or its actions') copy k: copies 1..txCopies line up with the transactions' copies;
 * the copies beyond (the tables reach `rows` with more copies than the transactions need) get negative
 * lts, older than all: traces and actions of a history whose transactions are not kept, never newer
 * traces without a single transaction, which no index holds.
 */
const traceShifted = (txCopies: number) => (col: string) => `${col} + (CASE WHEN k <= ${txCopies} THEN k ELSE ${txCopies} - k END) * ${LT_STRIDE}`;

/** SELECT list copying `table` with some columns replaced by expressions and some left to their defaults (identifiers come from the catalog). */
async function copyColumns(db: Database, table: string, overrides: Record<string, string>, omit: string[] = []): Promise<{ cols: string; select: string }> {
  const rows = await db.prisma.$queryRaw<{ column_name: string }[]>`
    SELECT column_name FROM information_schema.columns WHERE table_name = ${table} AND table_schema = current_schema() ORDER BY ordinal_position`;
  const names = rows.map((r) => r.column_name).filter((n) => !omit.includes(n));
  return { cols: names.map((n) => `"${n}"`).join(', '), select: names.map((n) => overrides[n] ?? `t."${n}"`).join(', ') };
}

interface Copied {
  table: string;
  /** Rows of the indexed chain (copy 0), not the synthetic copies. */
  original: string;
  overrides: Record<string, string>;
  omit?: string[];
  conflict?: string;
}

/**
 * Copies of the indexed chain's rows until `table` holds about `rows` (skipped when it already holds
 * copies: a kept database). Each INSERT copies as many whole copies as make ~100k rows.
 */
async function multiply(db: Database, c: Copied, rows: number, copies?: number): Promise<number> {
  const count = async (where = 'TRUE') => Number((await db.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${c.table}" t WHERE ${where}`))[0]!.n);
  const [all, base] = [await count(), await count(c.original)];
  if (all > base || base === 0) {
    console.log(`  v3: ${c.table}: ${all} rows${base === 0 ? ' (none indexed to copy)' : ''}`);
    return all;
  }
  const total = copies ?? Math.max(0, Math.ceil(rows / base) - 1);
  const { cols, select } = await copyColumns(db, c.table, c.overrides, c.omit);
  const batch = Math.max(1, Math.floor(100_000 / base));
  for (let from = 1; from <= total; from += batch) {
    const to = Math.min(total, from + batch - 1);
    await db.session((s) =>
      s.query(`INSERT INTO "${c.table}" (${cols}) SELECT ${select} FROM "${c.table}" t, generate_series(${from}, ${to}) k WHERE ${c.original} ${c.conflict ?? ''}`),
    );
    if (to === total || Math.floor(to / batch) % 5 === 0) console.log(`  v3: ${c.table}: ${(to + 1) * base} of ~${rows} rows`);
  }
  return count();
}

/**
 * The indexed chain multiplied into ~`rows` transactions (with their messages), ~`rows` traces, actions,
 * jetton wallets and NFT items (action_accounts: the accounts of those actions). Transactions keep their
 * trace: copy k of a transaction points at copy k of its trace.
 */
async function synthesize(db: Database, rows: number): Promise<Record<string, number>> {
  const txCopies = async () => {
    const base = Number((await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM transactions WHERE lt >= 0 AND lt < ${LT_STRIDE}`)[0]!.n);
    return Math.max(0, Math.ceil(rows / base) - 1);
  };
  const copies = await txCopies();
  const out: Record<string, number> = {};
  // Transactions: 1000 ordinary accounts and 3 hot ones with 5% of the rows.
  const txAccount = skewedAccount('k * 7919 + get_byte(t.hash, 0) * 256 + get_byte(t.hash, 1)', 1000, 5);
  out.transactions = await multiply(
    db,
    {
      table: 'transactions',
      original: chainRows('t.lt'),
      overrides: { hash: newHash('t.hash'), account: txAccount, lt: shifted('t.lt'), prev_trans_hash: newHash('t.prev_trans_hash'), trace_id: newHash('t.trace_id') },
    },
    rows,
    copies,
  );
  out.messages = await multiply(
    db,
    {
      table: 'messages',
      original: chainRows('t.tx_lt'),
      overrides: { tx_hash: newHash('t.tx_hash'), tx_lt: shifted('t.tx_lt'), msg_hash: newHash('t.msg_hash'), created_lt: shifted('t.created_lt'), sort_lt: shifted('t.sort_lt'), trace_id: newHash('t.trace_id') },
    },
    rows,
    copies,
  );
  const traceKeys = { trace_id: newHash('t.trace_id') };
  const lts = traceShifted(copies);
  out.traces = await multiply(
    db,
    {
      table: 'traces',
      original: chainRows('t.end_lt'),
      overrides: { ...traceKeys, external_hash: newHash('t.external_hash'), external_hash_norm: newHash('t.external_hash_norm'), start_lt: lts('t.start_lt'), end_lt: lts('t.end_lt') },
    },
    rows,
  );
  out.actions = await multiply(
    db,
    {
      table: 'actions',
      original: chainRows('t.trace_end_lt'),
      overrides: {
        ...traceKeys,
        action_id: newHash('t.action_id'),
        tx_hashes: `ARRAY(SELECT ${newHash('h')} FROM unnest(t.tx_hashes) h)`,
        start_lt: lts('t.start_lt'),
        end_lt: lts('t.end_lt'),
        trace_end_lt: lts('t.trace_end_lt'),
        trace_external_hash: newHash('t.trace_external_hash'),
        trace_external_hash_norm: newHash('t.trace_external_hash_norm'),
        parent_action_id: newHash('t.parent_action_id'),
      },
    },
    rows,
  );
  // The accounts of the copied actions: the same 1000 + 3 hot accounts as the transactions (two accounts
  // of one action may land on the same one: kept once).
  const actionCopies = Math.max(0, Math.ceil(rows / Number((await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM actions WHERE trace_end_lt >= 0 AND trace_end_lt < ${LT_STRIDE}`)[0]!.n)) - 1);
  out.action_accounts = await multiply(
    db,
    {
      table: 'action_accounts',
      original: chainRows('t.trace_end_lt'),
      overrides: { account: skewedAccount(mix('t.account'), 1000, 5), ...traceKeys, action_id: newHash('t.action_id'), trace_end_lt: lts('t.trace_end_lt'), end_lt: lts('t.end_lt') },
      conflict: 'ON CONFLICT DO NOTHING',
    },
    rows,
    actionCopies,
  );
  // Token holders: 200,000 owners, 3 hot ones with 1% of the wallets and items each way.
  out.jetton_wallets = await multiply(
    db,
    {
      table: 'jetton_wallets',
      original: chainRows('t.last_transaction_lt'),
      overrides: { address: newAddress('t.address'), owner: skewedAccount(mix('t.owner'), 200_000, 1), last_transaction_lt: shifted('t.last_transaction_lt') },
      omit: ['id'],
    },
    rows,
  );
  out.nft_items = await multiply(
    db,
    {
      table: 'nft_items',
      original: chainRows('t.last_transaction_lt'),
      overrides: {
        address: newAddress('t.address'),
        owner_address: `CASE WHEN t.owner_address IS NULL THEN NULL ELSE ${skewedAccount(mix('t.owner_address'), 200_000, 1)} END`,
        last_transaction_lt: shifted('t.last_transaction_lt'),
      },
      omit: ['id'],
    },
    rows,
  );
  // What autovacuum would have done by then: statistics, and visibility maps for index-only scans.
  await db.session((s) => s.query('VACUUM ANALYZE'));
  return out;
}

/** The recorded chain indexed (with the derive stage) and multiplied; a kept database's copies are reused. */
async function seed(db: Database, lite: LiteClient, head: number, rows: number): Promise<Record<string, number>> {
  const existing = Number((await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM transactions`)[0]!.n);
  if (!existing) {
    const tvm = new TvmPool({ log });
    const indexer = new Indexer({ prisma: db.prisma, client: lite, log, network: 'devnet', tvm });
    try {
      await indexer.claim();
      for (let seqno = 1; seqno <= head; seqno++) await indexer.indexMasterchainBlock(seqno);
      await indexer.stop();
    } finally {
      await tvm.close();
    }
  } else {
    console.log(`  v3: reusing ${existing} transactions`);
  }
  return synthesize(db, rows);
}

async function keptDatabase(url: string) {
  const db = await openDatabase({ engine: 'postgresql', url });
  return { db, drop: () => db.close() }; // kept: only closed
}

/** The 50 values of `column` with the most rows in `table` (identifiers are the caller's literals): the 3 hot accounts and the busiest ordinary ones. */
async function busiest(db: Database, table: string, column: string): Promise<string[]> {
  const rows = await db.prisma.$queryRawUnsafe<{ v: string }[]>(`SELECT "${column}" AS v FROM "${table}" WHERE "${column}" IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 50`);
  return rows.map((r) => r.v);
}

/**
 * `routes`: only the benchmarks whose name contains one of these strings (`--v3-routes traces,nft/items`),
 * for A/B runs of one query change; all of them when absent.
 */
export async function benchV3(baseUrl: string, lite: LiteClient, head: number, rows: number, kept?: string, routes?: string[]): Promise<BenchResult[]> {
  const pg = kept ? await keptDatabase(kept) : await scratchPostgres(baseUrl);
  try {
    await migrate(pg.db);
    const counts = await seed(pg.db, lite, head, rows);
    installFastTonCore(); // as an API process does at start (lib/runtime.ts)
    const { fetchV3 } = testApi({ db: pg.db });
    const callV3 = async (route: string, params: Record<string, string | number>) => {
      const res = await fetchV3(route, params);
      await res.arrayBuffer();
      return { status: res.status };
    };
    const accounts = await busiest(pg.db, 'transactions', 'account');
    const actionAccounts = await busiest(pg.db, 'action_accounts', 'account');
    const walletOwners = await busiest(pg.db, 'jetton_wallets', 'owner');
    const itemOwners = await busiest(pg.db, 'nft_items', 'owner_address');
    const msgHashes = (await pg.db.prisma.$queryRaw<{ h: string }[]>`SELECT encode(msg_hash, 'base64') AS h FROM messages TABLESAMPLE SYSTEM (1) LIMIT 200`).map((r) => r.h);
    const note = (...tables: string[]) => `${tables.map((t) => `${counts[t]} ${t}`).join(', ')} in PostgreSQL; 50 busiest keys`;
    const ok = (status: number) => {
      if (status !== 200) throw new Error(`bench request failed with ${status}`);
    };
    /** p50/p99 over the 50 busiest keys (the 3 hot ones among them), then over the 3 hot ones alone. */
    const byKey = async (name: string, route: string, param: string, keys: string[], extra: typeof LIMIT, tables: string[]) => [
      ...latencyRows(name, await sample(500, async (i) => ok((await callV3(route, { [param]: keys[i % keys.length]!, ...extra })).status)), note(...tables)),
      ...latencyRows(`${name} (3 hot)`, await sample(150, async (i) => ok((await callV3(route, { [param]: keys[i % 3]!, ...extra })).status)), `the 3 keys with the most rows`),
    ];
    const sources = await busiest(pg.db, 'messages', 'source');
    /** A latency row set over `n` samples of `call`. */
    const timed = (n: number, call: (i: number) => Promise<{ status: number }>, tables: string[]) => async (name: string) =>
      latencyRows(name, await sample(n, async (i) => ok((await call(i)).status)), note(...tables));
    const benches: [string, (name: string) => Promise<BenchResult[]>][] = [
      ['v3 /messages (newest 10)', timed(300, () => callV3('messages', { limit: 10 }), ['messages'])],
      ['v3 /messages?source (3 hot)', timed(150, (i) => callV3('messages', { source: sources[i % 3]!, limit: 10 }), ['messages'])],
      ['v3 /transactions (newest 10)', timed(300, () => callV3('transactions', { limit: 10 }), ['transactions'])],
      ['v3 /transactions?limit=1000', timed(30, () => callV3('transactions', { limit: 1000 }), ['transactions'])],
      ['v3 /blocks?limit=1000', timed(30, () => callV3('blocks', { limit: 1000 }), ['transactions'])],
      [
        'v3 /transactions?account&limit=20, 32 clients',
        async (name) =>
          latencyRows(name, await sampleConcurrent(2000, 32, async (i) => ok((await callV3('transactions', { account: accounts[i % accounts.length]!, limit: 20 })).status)), note('transactions')),
      ],
      ['v3 /transactions?account&limit=20', timed(500, (i) => callV3('transactions', { account: accounts[i % accounts.length]!, limit: 20 }), ['transactions'])],
      ['v3 /blocks', timed(500, () => callV3('blocks', {}), ['transactions'])],
      ['v3 /messages?msg_hash', timed(500, (i) => callV3('messages', { msg_hash: msgHashes[i % msgHashes.length]! }), ['messages'])],
      [`v3 /jetton/wallets?owner_address${LIMIT_NAME}`, (name) => byKey(name, 'jetton/wallets', 'owner_address', walletOwners, LIMIT, ['jetton_wallets'])],
      [`v3 /nft/items?owner_address${LIMIT_NAME}`, (name) => byKey(name, 'nft/items', 'owner_address', itemOwners, LIMIT, ['nft_items'])],
      [`v3 /actions?account${LIMIT_NAME}`, (name) => byKey(name, 'actions', 'account', actionAccounts, LIMIT, ['actions', 'action_accounts'])],
      [`v3 /traces?account${LIMIT_NAME}`, (name) => byKey(name, 'traces', 'account', accounts, LIMIT, ['traces', 'transactions'])],
    ];
    const results: BenchResult[] = [];
    for (const [name, run] of benches) if (!routes || routes.some((r) => name.includes(r))) results.push(...(await run(name)));
    return results;
  } finally {
    await pg.drop();
  }
}
