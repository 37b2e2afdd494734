// The index the v3 bench reads: the recorded devnet chain indexed into PostgreSQL (derive stage included),
// then multiplied in SQL into a realistic ~`rows`-transaction index. Copy k of the chain is the chain
// played again later: its blocks get seqnos k·S higher (S: the chain's seqno span, masterchain seqnos of
// every table included), times k·T later (T: the chain's time span) and lts k·10^13 higher; every hash
// is new (md5 of (hash, k)), the same in every table, so copied transactions, messages, traces, actions
// and token events still join. Accounts are synthetic: `accounts` ordinary ones (rows / 50, at least
// 1000) and 3 hot ones (an exchange, a market maker, a big collector) that get 5 % of the transactions,
// messages and actions and 1 % of the token rows, so a page of a hot account reads out of hundreds of
// thousands of rows at 10M and one of an ordinary account out of about fifty.
//
// Tables copied along with the transactions (the same copies): blocks, shard_state, messages, traces,
// actions, action_accounts, jetton_transfers, jetton_burns, nft_transfers. Token holdings are topped up
// on their own to rows / 10 each (jetton_wallets, nft_items: holdings grow slower than history; the
// recorded chain has a handful), and every synthetic account gets a latest_account_states row (a copy of
// a real one).
// Jetton masters, NFT collections, DNS, vesting and multisig rows stay the chain's own (few on any chain).
//
// Every INSERT … SELECT copies at most ~100k rows (a copy of the chain bigger than that is split by ranges
// of its lt) out of a temp table holding the chain's own rows, and commits on its own, with ON CONFLICT
// DO NOTHING: nothing grows with --rows but the number of statements. A table's plain indexes are dropped
// while it is copied and built again after it (their definitions kept in a table of the bench's own
// first, atlas_bench_seed_indexes): inserting without them went from 7k to 25k rows/s. A seeding that
// stops (Ctrl-C, a full disk) resumes on the same database (--v3-database) from the newest copy each
// table holds, building any indexes it had left dropped. atlas_bench_seed records the layout and the
// number of accounts, so a resumed or topped-up seeding makes the same rows.
import type { LiteClient } from 'ton-lite-client';
import type { Database } from '../lib/db/database';
import type { SqlSession } from '../lib/db/sql';
import { Indexer } from '../lib/indexer/follower';
import { log } from '../lib/log';
import { TvmPool } from '../lib/tvm/pool';

/** Lts of copy k are the chain's + k · LT_STRIDE (the recorded chain's own lts are far below it). */
const LT_STRIDE = 10n ** 13n;
/** Rows one INSERT … SELECT copies at most (about; a chain smaller than this is copied whole per statement). */
const CHUNK_ROWS = 100_000;
/** Copies beyond this would push lts past int8 (k · 10^13 < 2^63). */
const MAX_COPIES = 900_000;
/** The bench's own table in the seeded database: what the seeding decided, so a resumed one decides alike. */
const MARKER = 'atlas_bench_seed';
/** The definitions of the indexes a copy dropped until it builds them again (kept across an interruption). */
const INDEXES = 'atlas_bench_seed_indexes';
/** Bumped when the layout of the copies changes: a database seeded otherwise is refused, not mixed. */
// 3: messages carry their transaction's shifted mc_block_seqno (layout 2 kept the recorded chain's).
const SEED_VERSION = 3;
const HOT = 3;
/** Synthetic accounts start with it (no real account does), so they are a range of the primary key. */
const PREFIX = 'BE0C';

/**
 * SQL of copy k's values (k: the copy number from generate_series; p: the statement's parameters, the
 * same in every statement: LT_STRIDE, the seqno and time spans, the ordinary accounts).
 */
const lt = (c: string) => `${c} + k * p.lt_stride`;
const seqno = (c: string) => `${c} + k * p.seqno_span`;
const utime = (c: string) => `${c} + k * p.time_span`;
/** A new 32-byte hash per (hash, copy); null stays null. */
const hash = (c: string) => `pg_temp.bench_hash(${c}, k)`;
/** A new raw address per (address, copy). */
const address = (c: string) => `pg_temp.bench_address(${c}, k)`;
/** A synthetic account (raw address) for (text, copy): `hot` % of them one of the 3 hot ones. Null stays null. */
const account = (text: string, hot: number) => `pg_temp.bench_account(${text}, k, ${hot}, p.accounts)`;

// Temporary functions (pg_temp: gone with the seeding session, nothing left in the schema).
const FUNCTIONS = `
  CREATE FUNCTION pg_temp.bench_hash(h bytea, k int) RETURNS bytea LANGUAGE sql IMMUTABLE AS
    $$ SELECT decode(md5(h::text || k::text) || md5(k::text || h::text), 'hex') $$;
  CREATE FUNCTION pg_temp.bench_address(a text, k int) RETURNS text LANGUAGE sql IMMUTABLE AS
    $$ SELECT '0:' || upper(md5(a || k::text) || md5(k::text || a)) $$;
  CREATE FUNCTION pg_temp.bench_raw(n int) RETURNS text LANGUAGE sql IMMUTABLE AS
    $$ SELECT '0:${PREFIX}' || upper(lpad(to_hex(n), ${64 - PREFIX.length}, '0')) $$;
  CREATE FUNCTION pg_temp.bench_account(t text, k int, hot int, spread int) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
    DECLARE x int := ('x' || substr(md5(t || k::text), 1, 7))::bit(28)::int;
    BEGIN
      IF t IS NULL THEN RETURN NULL; END IF;
      RETURN pg_temp.bench_raw(CASE WHEN x % 100 < hot THEN x % ${HOT} ELSE ${HOT} + x % spread END);
    END $$;`;

/** Synthetic account n as a raw address (0, 1, 2 are the hot ones), as bench_raw writes it. */
export const syntheticAccount = (n: number) => `0:${PREFIX}${n.toString(16).toUpperCase().padStart(64 - PREFIX.length, '0')}`;

interface Copied {
  table: string;
  /** A column copy k shifts by k · unit, so the copies are told apart by it (newest copy: its max): lt-like or a seqno. */
  key: string;
  unit: 'lt' | 'seqno';
  overrides: Record<string, string>;
  omit?: string[];
  /** 'transactions': as many copies as the transactions; 'tokens': as make rows / 10. */
  copies: 'transactions' | 'tokens';
}

const txHashes = { hash: hash('t.hash'), trace_id: hash('t.trace_id') };
/** The transaction columns of the token event tables (jetton transfers and burns, NFT transfers), as their copy maps them. */
const txEventColumns = { tx_hash: hash('t.tx_hash'), trace_id: hash('t.trace_id'), tx_lt: lt('t.tx_lt'), tx_now: utime('t.tx_now'), mc_seqno: seqno('t.mc_seqno') };
const TABLES: Copied[] = [
  {
    table: 'blocks',
    key: 'start_lt',
    unit: 'lt',
    copies: 'transactions',
    overrides: {
      seqno: seqno('t.seqno'),
      mc_block_seqno: seqno('t.mc_block_seqno'),
      min_ref_mc_seqno: seqno('t.min_ref_mc_seqno'),
      master_ref_seqno: seqno('t.master_ref_seqno'),
      root_hash: hash('t.root_hash'),
      file_hash: hash('t.file_hash'),
      gen_utime: utime('t.gen_utime'),
      start_lt: lt('t.start_lt'),
      end_lt: lt('t.end_lt'),
    },
  },
  { table: 'shard_state', key: 'mc_seqno', unit: 'seqno', copies: 'transactions', overrides: { mc_seqno: seqno('t.mc_seqno'), seqno: seqno('t.seqno') } },
  {
    table: 'transactions',
    key: 'lt',
    unit: 'lt',
    copies: 'transactions',
    overrides: {
      ...txHashes,
      account: account("encode(t.hash, 'hex')", 5),
      lt: lt('t.lt'),
      now: utime('t.now'),
      block_seqno: seqno('t.block_seqno'),
      mc_block_seqno: seqno('t.mc_block_seqno'),
      prev_trans_hash: hash('t.prev_trans_hash'),
      prev_trans_lt: lt('t.prev_trans_lt'),
    },
  },
  {
    table: 'messages',
    key: 'sort_lt',
    unit: 'lt',
    copies: 'transactions',
    overrides: {
      tx_hash: hash('t.tx_hash'),
      tx_lt: lt('t.tx_lt'),
      // Its transaction's (the partition key, and how /transactionsByMessage finds the transaction).
      mc_block_seqno: seqno('t.mc_block_seqno'),
      msg_hash: hash('t.msg_hash'),
      msg_hash_norm: hash('t.msg_hash_norm'),
      trace_id: hash('t.trace_id'),
      // The transaction's own side is its (copied) account; the other side an account per message.
      source: `CASE WHEN t.direction = 'out' THEN ${account("encode(t.tx_hash, 'hex')", 5)} ELSE ${account("t.source || encode(t.msg_hash, 'hex')", 5)} END`,
      destination: `CASE WHEN t.direction = 'in' THEN ${account("encode(t.tx_hash, 'hex')", 5)} ELSE ${account("t.destination || encode(t.msg_hash, 'hex')", 5)} END`,
      created_lt: lt('t.created_lt'),
      created_at: utime('t.created_at'),
      sort_lt: lt('t.sort_lt'),
    },
  },
  {
    table: 'traces',
    key: 'end_lt',
    unit: 'lt',
    copies: 'transactions',
    overrides: {
      trace_id: hash('t.trace_id'),
      external_hash: hash('t.external_hash'),
      external_hash_norm: hash('t.external_hash_norm'),
      mc_seqno_start: seqno('t.mc_seqno_start'),
      mc_seqno_end: seqno('t.mc_seqno_end'),
      start_lt: lt('t.start_lt'),
      end_lt: lt('t.end_lt'),
      start_utime: utime('t.start_utime'),
      end_utime: utime('t.end_utime'),
    },
  },
  {
    table: 'actions',
    key: 'trace_end_lt',
    unit: 'lt',
    copies: 'transactions',
    overrides: {
      trace_id: hash('t.trace_id'),
      action_id: hash('t.action_id'),
      parent_action_id: hash('t.parent_action_id'),
      tx_hashes: `ARRAY(SELECT ${hash('h')} FROM unnest(t.tx_hashes) h)`,
      start_lt: lt('t.start_lt'),
      end_lt: lt('t.end_lt'),
      trace_end_lt: lt('t.trace_end_lt'),
      start_utime: utime('t.start_utime'),
      end_utime: utime('t.end_utime'),
      trace_end_utime: utime('t.trace_end_utime'),
      mc_seqno_end: seqno('t.mc_seqno_end'),
      trace_mc_seqno_end: seqno('t.trace_mc_seqno_end'),
      trace_external_hash: hash('t.trace_external_hash'),
      trace_external_hash_norm: hash('t.trace_external_hash_norm'),
    },
  },
  {
    // Two accounts of one action may land on the same synthetic one: kept once (ON CONFLICT).
    table: 'action_accounts',
    key: 'trace_end_lt',
    unit: 'lt',
    copies: 'transactions',
    overrides: { account: account('t.account', 5), trace_id: hash('t.trace_id'), action_id: hash('t.action_id'), trace_end_lt: lt('t.trace_end_lt'), end_lt: lt('t.end_lt') },
  },
  {
    // Owners map as the jetton wallets' owners do (the same text and copy give the same account).
    table: 'jetton_transfers',
    key: 'tx_lt',
    unit: 'lt',
    copies: 'transactions',
    overrides: {
      ...txEventColumns,
      jetton_wallet: address('t.jetton_wallet'),
      source: account('t.source', 1),
      destination: account('t.destination', 1),
    },
  },
  {
    table: 'jetton_burns',
    key: 'tx_lt',
    unit: 'lt',
    copies: 'transactions',
    overrides: {
      ...txEventColumns,
      jetton_wallet: address('t.jetton_wallet'),
      owner: account('t.owner', 1),
    },
  },
  {
    table: 'nft_transfers',
    key: 'tx_lt',
    unit: 'lt',
    copies: 'transactions',
    overrides: {
      ...txEventColumns,
      nft_item_address: address('t.nft_item_address'),
      nft_item_index: 't.nft_item_index + k::numeric * 1000000',
      old_owner: account('t.old_owner', 1),
      new_owner: account('t.new_owner', 1),
    },
  },
  {
    table: 'jetton_wallets',
    key: 'last_transaction_lt',
    unit: 'lt',
    copies: 'tokens',
    overrides: { address: address('t.address'), owner: account('t.owner', 1), last_transaction_lt: lt('t.last_transaction_lt') },
    omit: ['id'],
  },
  {
    // Item indexes stay distinct within a collection (the chain's are far below 10^6).
    table: 'nft_items',
    key: 'last_transaction_lt',
    unit: 'lt',
    copies: 'tokens',
    overrides: { address: address('t.address'), index: 't.index + k::numeric * 1000000', owner_address: account('t.owner_address', 1), last_transaction_lt: lt('t.last_transaction_lt') },
    omit: ['id'],
  },
];

/** What a seeding decided (kept in the marker table of the seeded database). */
interface Plan {
  /** Ordinary synthetic accounts. */
  accounts: number;
  /** The chain's seqno span S and time span T (s): copy k is shifted by k·S and k·T. */
  seqnoSpan: number;
  timeSpan: number;
  /** The last seeding ran to its end (VACUUM ANALYZE included). */
  ready: boolean;
}

const num = (v: unknown) => Number(v ?? 0);
const millions = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(0)}k` : String(n));
const minutes = (s: number) => (s >= 90 ? `${(s / 60).toFixed(0)} min` : `${s.toFixed(0)} s`);
const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/** Rows inserted against rows planned, printed with the rate and ETA at most every 10 s and at each table's end. */
class Progress {
  private done = 0;
  private t0 = performance.now();
  private last = 0;
  constructor(
    private total: number,
    private s: SqlSession,
  ) {}
  async add(table: string, tableDone: number, tableTotal: number, n: number, force = false) {
    this.done += n;
    const now = performance.now();
    if (!force && now - this.last < 10_000) return;
    this.last = now;
    const s = (now - this.t0) / 1000;
    const rate = this.done / Math.max(s, 0.001);
    const size = num((await this.s.query<{ b: string }>('SELECT pg_database_size(current_database())::text AS b'))[0]?.b);
    const eta = rate > 0 ? (this.total - this.done) / rate : 0;
    console.log(
      `  v3 seed: ${table} ${millions(tableDone)}/${millions(tableTotal)} · all tables ${millions(this.done)}/${millions(this.total)} rows · ` +
        `${millions(Math.round(rate))} rows/s · ${minutes(s)} so far, ETA ${minutes(eta)} · database ${gb(size)}`,
    );
  }
}

/** The plan of a database seeded before, or a new one for `rows` (refusing a database seeded by another layout). */
async function planOf(s: SqlSession, rows: number): Promise<Plan> {
  await s.exec(
    `CREATE TABLE IF NOT EXISTS ${MARKER} (version int NOT NULL, accounts int NOT NULL, seqno_span int NOT NULL, time_span int NOT NULL, ready boolean NOT NULL DEFAULT false)`,
  );
  await s.exec(`CREATE TABLE IF NOT EXISTS ${INDEXES} (name text PRIMARY KEY, tbl text NOT NULL, def text NOT NULL)`);
  const [kept] = await s.query<{ version: number; accounts: number; seqno_span: number; time_span: number; ready: boolean }>(`SELECT * FROM ${MARKER}`);
  if (kept) {
    if (kept.version !== SEED_VERSION) throw new Error(`this database was seeded by another version of the v3 bench (layout ${kept.version}, now ${SEED_VERSION}): seed a new one`);
    return { accounts: kept.accounts, seqnoSpan: kept.seqno_span, timeSpan: kept.time_span, ready: kept.ready };
  }
  // An older bench made copies otherwise (the same hashes, other accounts and times; traces at negative lts).
  const [older] = await s.query<{ n: number }>(
    `SELECT (SELECT count(*)::int FROM (SELECT 1 FROM transactions WHERE lt >= $1::int8 LIMIT 1) x)
          + (SELECT count(*)::int FROM (SELECT 1 FROM traces WHERE end_lt < 0 OR end_lt >= $1::int8 LIMIT 1) x)
          + (SELECT count(*)::int FROM (SELECT 1 FROM jetton_wallets WHERE last_transaction_lt >= $1::int8 LIMIT 1) x) AS n`,
    [LT_STRIDE.toString()],
  );
  if (num(older?.n)) throw new Error('this database holds copies made by an older v3 bench: seed a new one');
  // The chain's blocks (all of them are copy 0 here): seqnos (masterchain references included) and times.
  const [span] = await s.query<{ s: number; t: string }>(
    `SELECT greatest(max(seqno), max(mc_block_seqno), (SELECT max(mc_seqno) FROM shard_state)) + 1 AS s, (max(gen_utime) - min(gen_utime) + 1)::text AS t FROM blocks`,
  );
  const plan = { accounts: Math.max(1000, Math.round(rows / 50)), seqnoSpan: num(span?.s), timeSpan: num(span?.t), ready: false };
  await s.query(`INSERT INTO ${MARKER} (version, accounts, seqno_span, time_span) VALUES ($1, $2, $3, $4)`, [SEED_VERSION, plan.accounts, plan.seqnoSpan, plan.timeSpan]);
  return plan;
}

/** Column list and SELECT list copying `table` (names from the catalog) with some columns replaced. */
async function copyColumns(s: SqlSession, c: Copied): Promise<{ cols: string; select: string }> {
  const rows = await s.query<{ column_name: string }>(
    'SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema() ORDER BY ordinal_position',
    [c.table],
  );
  const names = rows.map((r) => r.column_name).filter((n) => !c.omit?.includes(n));
  return { cols: names.map((n) => `"${n}"`).join(', '), select: names.map((n) => c.overrides[n] ?? `t."${n}"`).join(', ') };
}

interface TableWork {
  c: Copied;
  unit: bigint;
  base: number;
  /** Copies to make: from..to (none when from > to). */
  from: number;
  to: number;
  /** The original rows' key range split into parts of about CHUNK_ROWS ([bounds[i], bounds[i+1])). */
  bounds: bigint[];
}

async function tableWork(s: SqlSession, c: Copied, plan: Plan, copies: { transactions: number; tokens: (base: number) => number }): Promise<TableWork> {
  const unit = c.unit === 'lt' ? LT_STRIDE : BigInt(plan.seqnoSpan);
  const [r] = await s.query<{ base: number; top: string | null }>(
    `SELECT (SELECT count(*)::int FROM "${c.table}" WHERE "${c.key}" >= 0 AND "${c.key}" < $1::int8) AS base, (SELECT max("${c.key}")::text FROM "${c.table}") AS top`,
    [unit.toString()],
  );
  const base = num(r?.base);
  const target = c.copies === 'transactions' ? copies.transactions : copies.tokens(base);
  if (target > MAX_COPIES) throw new Error(`${c.table}: ${target} copies of the recorded chain would overflow its lts: record a bigger chain (--tx) or ask for fewer --rows`);
  const held = r?.top ? Number(BigInt(r.top) / unit) : 0;
  const parts = Math.ceil(base / CHUNK_ROWS);
  let from = held + 1;
  if (parts > 1 && held > 0) {
    // A copy split in parts may have stopped half-way: then it is made again (ON CONFLICT skips what it holds).
    const [h] = await s.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${c.table}" WHERE "${c.key}" >= $1::int8 AND "${c.key}" < $2::int8`, [
      (BigInt(held) * unit).toString(),
      (BigInt(held + 1) * unit).toString(),
    ]);
    if (num(h?.n) < base) from = held;
  }
  let bounds = [0n, unit];
  if (parts > 1) {
    const qs = Array.from({ length: parts - 1 }, (_, i) => (i + 1) / parts);
    const [p] = await s.query<{ b: string[] }>(
      `SELECT percentile_disc($2::float8[]) WITHIN GROUP (ORDER BY "${c.key}")::text[] AS b FROM "${c.table}" WHERE "${c.key}" >= 0 AND "${c.key}" < $1::int8`,
      [unit.toString(), qs],
    );
    bounds = [0n, ...[...new Set(p!.b)].map(BigInt), unit];
  }
  return { c, unit, base, from, to: base ? target : 0, bounds };
}

/**
 * Drops `table`'s plain indexes (not unique ones: ON CONFLICT needs them), keeping their definitions in
 * the INDEXES table first, in the same transaction: inserting into a 10M-row table is several times
 * faster without them, and one sorted build each afterwards is faster than as many random inserts.
 */
async function dropIndexes(s: SqlSession, table: string): Promise<void> {
  const defs = await s.query<{ name: string; def: string }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid = $1::regclass AND NOT i.indisunique AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    [table],
  );
  if (!defs.length) return;
  await s.exec('BEGIN');
  for (const d of defs) {
    await s.query(`INSERT INTO ${INDEXES} (name, tbl, def) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [d.name, table, d.def]);
    await s.exec(`DROP INDEX "${d.name}"`);
  }
  await s.exec('COMMIT');
}

/** Builds the indexes dropIndexes kept for `table` (by an interrupted run too), then forgets them. */
async function rebuildIndexes(s: SqlSession, table: string): Promise<void> {
  const saved = await s.query<{ name: string; def: string }>(`SELECT name, def FROM ${INDEXES} WHERE tbl = $1 ORDER BY name`, [table]);
  if (!saved.length) return;
  const t0 = performance.now();
  for (const { name, def } of saved) {
    const [e] = await s.query<{ x: string | null }>('SELECT to_regclass($1)::text AS x', [name]);
    // A partitioned table's index definition reads ON ONLY (the parent alone): built on every partition here.
    if (!e?.x) await s.exec(def.replace(' ON ONLY ', ' ON '));
    await s.query(`DELETE FROM ${INDEXES} WHERE name = $1`, [name]);
  }
  console.log(`  v3 seed: ${table}: ${saved.length} indexes built in ${minutes((performance.now() - t0) / 1000)}`);
}

async function copyTable(s: SqlSession, w: TableWork, plan: Plan, progress: Progress): Promise<void> {
  if (w.from > w.to) {
    console.log(`  v3 seed: ${w.c.table}: ${w.base ? `holds its ${w.to} copies` : 'nothing indexed to copy'}`);
    await rebuildIndexes(s, w.c.table);
    return;
  }
  const { cols, select } = await copyColumns(s, w.c);
  // The chain's own rows, read once: a statement then reads them from here, not out of the growing table.
  await s.exec(`DROP TABLE IF EXISTS pg_temp.bench_src; CREATE TEMP TABLE bench_src (LIKE "${w.c.table}")`);
  await s.query(`INSERT INTO bench_src SELECT * FROM "${w.c.table}" WHERE "${w.c.key}" >= 0 AND "${w.c.key}" < $1::int8`, [w.unit.toString()]);
  await dropIndexes(s, w.c.table);
  const sql = `WITH ins AS (
      INSERT INTO "${w.c.table}" (${cols})
      SELECT ${select}
      FROM bench_src t, generate_series($1::int, $2::int) k,
        (SELECT $3::int8 AS lt_stride, $4::int AS seqno_span, $5::int AS time_span, $6::int AS accounts) p
      WHERE t."${w.c.key}" >= $7::int8 AND t."${w.c.key}" < $8::int8
      ON CONFLICT DO NOTHING RETURNING 1)
    SELECT count(*)::int AS n FROM ins`;
  const perStatement = w.bounds.length > 2 ? 1 : Math.max(1, Math.floor(CHUNK_ROWS / w.base));
  const total = (w.to - w.from + 1) * w.base;
  let done = 0;
  for (let from = w.from; from <= w.to; from += perStatement) {
    const to = Math.min(w.to, from + perStatement - 1);
    for (let i = 0; i + 1 < w.bounds.length; i++) {
      const [r] = await s.query<{ n: number }>(sql, [from, to, LT_STRIDE.toString(), plan.seqnoSpan, plan.timeSpan, plan.accounts, w.bounds[i]!.toString(), w.bounds[i + 1]!.toString()]);
      done += num(r?.n);
      await progress.add(w.c.table, done, total, num(r?.n), to === w.to && i + 2 === w.bounds.length);
    }
  }
  await s.exec('DROP TABLE bench_src');
  await rebuildIndexes(s, w.c.table);
}

/** A latest_account_states row for every synthetic account (copies of the chain's, balances made distinct). */
async function seedAccountStates(s: SqlSession, plan: Plan, progress: Progress, total: number): Promise<void> {
  const last = plan.accounts + HOT - 1;
  const [r] = await s.query<{ held: number; base: number }>(
    `SELECT (SELECT count(*)::int FROM latest_account_states WHERE account BETWEEN $1 AND $2) AS held,
            (SELECT count(*)::int FROM latest_account_states WHERE NOT account BETWEEN $1 AND $2) AS base`,
    [syntheticAccount(0), syntheticAccount(last)],
  );
  const base = num(r?.base);
  if (!base || num(r?.held) > last) return;
  const cols = await s.query<{ column_name: string }>(
    "SELECT column_name FROM information_schema.columns WHERE table_name = 'latest_account_states' AND table_schema = current_schema() ORDER BY ordinal_position",
  );
  const names = cols.map((c) => c.column_name);
  const overrides: Record<string, string> = { account: 'pg_temp.bench_raw(n)', balance: 't.balance + n' };
  const sql = `WITH ins AS (
      INSERT INTO latest_account_states (${names.map((n) => `"${n}"`).join(', ')})
      SELECT ${names.map((n) => overrides[n] ?? `t."${n}"`).join(', ')}
      FROM generate_series($1::int, $2::int) n
      JOIN (SELECT l.*, row_number() OVER (ORDER BY account) - 1 AS i FROM latest_account_states l WHERE NOT account BETWEEN $3 AND $4) t ON t.i = n % $5::int
      ON CONFLICT DO NOTHING RETURNING 1)
    SELECT count(*)::int AS n FROM ins`;
  let done = 0;
  for (let from = num(r?.held); from <= last; from += CHUNK_ROWS) {
    const to = Math.min(last, from + CHUNK_ROWS - 1);
    const [x] = await s.query<{ n: number }>(sql, [from, to, syntheticAccount(0), syntheticAccount(last), base]);
    done += num(x?.n);
    await progress.add('latest_account_states', done, total, num(x?.n), to === last);
  }
}

/** The recorded chain indexed (with the derive stage), from where an interrupted run left it; none when the database holds it. */
async function indexChain(db: Database, lite: LiteClient, head: number): Promise<void> {
  const [r] = await db.session((s) => s.query<{ n: number | null }>("SELECT last_mc_seqno AS n FROM indexer_state WHERE id = 'main'"));
  const from = num(r?.n) + 1; // the indexer's cursor (after a seeding: the newest copy's seqno, past the head)
  if (from > head) return;
  const t0 = performance.now();
  const tvm = new TvmPool({ log });
  const indexer = new Indexer({ prisma: db.prisma, client: lite, log, network: 'devnet', tvm });
  try {
    await indexer.claim();
    for (let seqno = from; seqno <= head; seqno++) await indexer.indexMasterchainBlock(seqno);
    await indexer.stop();
  } finally {
    await tvm.close();
  }
  console.log(`  v3 seed: indexed the recorded chain (masterchain blocks ${from}–${head}) in ${minutes((performance.now() - t0) / 1000)}`);
}

export interface Seeded {
  /** Rows per table after seeding. */
  counts: Record<string, number>;
  /** Ordinary synthetic accounts (the hot ones are syntheticAccount(0..2)). */
  accounts: number;
}

/**
 * The recorded chain indexed and multiplied into ~`rows` transactions (a database seeded before is
 * topped up to `rows`, with the accounts it was seeded with). PostgreSQL only.
 */
export async function seedIndex(db: Database, lite: LiteClient, head: number, rows: number): Promise<Seeded> {
  await indexChain(db, lite, head);
  return db.session(async (s) => {
    // A lost commit of a crashed seeding costs a copy made again (ON CONFLICT), never a wrong row.
    await s.exec('SET synchronous_commit = off');
    // Memory for the index builds and the chain's rows read once per table (temp_buffers: before any temp table).
    await s.exec("SET maintenance_work_mem = '256MB'; SET temp_buffers = '256MB'");
    await s.exec(FUNCTIONS);
    const plan = await planOf(s, rows);
    const [tx] = await s.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE lt >= 0 AND lt < $1::int8', [LT_STRIDE.toString()]);
    const copies = {
      transactions: Math.max(0, Math.ceil(rows / Math.max(1, num(tx?.n))) - 1),
      tokens: (base: number) => Math.max(0, Math.ceil(rows / 10 / Math.max(1, base)) - 1),
    };
    const work: TableWork[] = [];
    for (const c of TABLES) work.push(await tableWork(s, c, plan, copies));
    const [states] = await s.query<{ n: number }>('SELECT count(*)::int AS n FROM latest_account_states WHERE account BETWEEN $1 AND $2', [
      syntheticAccount(0),
      syntheticAccount(plan.accounts + HOT - 1),
    ]);
    const [base] = await s.query<{ n: number }>('SELECT count(*)::int AS n FROM latest_account_states WHERE NOT account BETWEEN $1 AND $2', [
      syntheticAccount(0),
      syntheticAccount(plan.accounts + HOT - 1),
    ]);
    const stateRows = plan.accounts + HOT - num(states?.n);
    const planned = work.reduce((n, w) => n + Math.max(0, w.to - w.from + 1) * w.base, 0) + stateRows;
    if (planned > 0) {
      // The database's size when done, from each table's bytes per row now (its indexes included; the rows
      // it holds: the copies made so far, as reltuples is unknown before the first ANALYZE).
      const held = new Map<string, number>([...work.map((w) => [w.c.table, w.base * Math.max(1, w.from)] as const), ['latest_account_states', num(states?.n) + num(base?.n)]]);
      const sizes = await s.query<{ t: string; b: string }>(
        "SELECT c.relname AS t, pg_total_relation_size(c.oid)::text AS b FROM pg_class c WHERE c.relname = ANY($1::text[]) AND c.relkind IN ('r', 'p')",
        [[...held.keys()]],
      );
      // A table of a few rows is mostly empty pages: it counts as the bigger tables' average row.
      const big = sizes.filter((r) => (held.get(r.t) ?? 0) >= 1000);
      const average = big.reduce((b, r) => b + num(r.b), 0) / Math.max(1, big.reduce((n, r) => n + (held.get(r.t) ?? 0), 0));
      const perRow = new Map(sizes.map((r) => [r.t, (held.get(r.t) ?? 0) >= 1000 ? num(r.b) / held.get(r.t)! : average]));
      const [now] = await s.query<{ b: string }>('SELECT pg_database_size(current_database())::text AS b');
      const grows = work.reduce((b, w) => b + Math.max(0, w.to - w.from + 1) * w.base * (perRow.get(w.c.table) ?? 0), 0) + stateRows * (perRow.get('latest_account_states') ?? 0);
      console.log(
        `  v3 seed: ${millions(planned)} rows to copy (${copies.transactions} copies of the chain's ${num(tx?.n)} transactions, ${plan.accounts} accounts + ${HOT} hot); ` +
          `database ${gb(num(now?.b))} now, about ${gb(num(now?.b) + grows)} when done`,
      );
    }
    if (planned > 0) await s.query(`UPDATE ${MARKER} SET ready = false`);
    const progress = new Progress(planned, s);
    for (const w of work) await copyTable(s, w, plan, progress);
    await seedAccountStates(s, plan, progress, stateRows);
    // The index's head, as the indexer would have left it.
    await s.query("UPDATE indexer_state SET last_mc_seqno = (SELECT max(seqno) FROM blocks WHERE workchain = -1), updated_at = now()");
    // What autovacuum would have done by then: statistics, and visibility maps for index-only scans (every
    // table, when anything was copied now or by a run that did not get this far).
    for (const t of planned > 0 || !plan.ready ? [...TABLES.map((c) => c.table), 'latest_account_states'] : []) {
      const t0 = performance.now();
      await s.exec(`VACUUM ANALYZE "${t}"`);
      console.log(`  v3 seed: VACUUM ANALYZE ${t} (${minutes((performance.now() - t0) / 1000)})`);
    }
    await s.query(`UPDATE ${MARKER} SET ready = true`);
    const counts: Record<string, number> = {};
    for (const t of [...TABLES.map((c) => c.table), 'latest_account_states']) {
      // Estimates after ANALYZE (an exact count of a 10M-row table is a scan of it).
      const [r] = await s.query<{ n: number }>("SELECT greatest(reltuples, 0)::float8 AS n FROM pg_class WHERE relname = $1 AND relkind IN ('r', 'p')", [t]);
      counts[t] = Math.round(num(r?.n));
    }
    return { counts, accounts: plan.accounts };
  });
}
