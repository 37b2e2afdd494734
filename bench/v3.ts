// /api/v3 latency at scale: the recorded devnet chain indexed into a scratch PostgreSQL database, then
// multiplied in SQL into `rows` transactions (each copy gets new hashes, lts shifted by a copy offset and
// one of 1000 synthetic accounts, so indexes see realistic cardinality), with their messages.
// The routes run through the real handlers (callV3) against that database.
// `--v3-database <url of an existing, empty or already seeded database>` keeps the seeded rows between
// runs (seeding 1M rows takes minutes; A/B runs of a query change then take seconds); pending migrations
// are applied to it first.
import type { LiteClient } from 'ton-lite-client';
import { testApi } from '../lib/testing/api';
import { openDatabase, type Database } from '../lib/db/database';
import { migrate } from '../lib/db/migrate';
import { Indexer } from '../lib/indexer/follower';
import { log } from '../lib/log';
import { latencyRows, sample, scratchPostgres, type BenchResult } from './support';

const LT_STRIDE = 10n ** 13n; // lts of copy k are shifted by k * LT_STRIDE: no (account, lt) collisions

/** SELECT list copying `table` with some columns replaced by expressions (identifiers come from the catalog). */
async function copyColumns(db: Database, table: string, overrides: Record<string, string>): Promise<{ cols: string; select: string }> {
  const rows = await db.prisma.$queryRaw<{ column_name: string }[]>`
    SELECT column_name FROM information_schema.columns WHERE table_name = ${table} AND table_schema = current_schema() ORDER BY ordinal_position`;
  const names = rows.map((r) => r.column_name);
  return { cols: names.map((n) => `"${n}"`).join(', '), select: names.map((n) => overrides[n] ?? `t."${n}"`).join(', ') };
}

async function synthesize(db: Database, rows: number): Promise<number> {
  const base = Number((await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM transactions`)[0]!.n);
  const copies = Math.max(0, Math.ceil(rows / base) - 1);
  // New 32-byte hashes: md5 of (hash, copy) twice. Accounts: 1000 synthetic ones spread over copies.
  const newHash = (col: string) => `decode(md5(${col}::text || k::text) || md5(k::text || ${col}::text), 'hex')`;
  const account = `'0:' || upper(lpad(to_hex(((k * 7919 + get_byte(t.hash, 0)) % 1000)::int), 64, '0'))`;
  const tx = await copyColumns(db, 'transactions', {
    hash: newHash('t.hash'),
    account,
    lt: `t.lt + k * ${LT_STRIDE}`,
    prev_trans_hash: newHash('t.prev_trans_hash'),
  });
  const msg = await copyColumns(db, 'messages', {
    tx_hash: newHash('t.tx_hash'),
    tx_lt: `t.tx_lt + k * ${LT_STRIDE}`,
    msg_hash: newHash('t.msg_hash'),
    created_lt: `t.created_lt + k * ${LT_STRIDE}`,
  });
  const BATCH = 20;
  for (let from = 1; from <= copies; from += BATCH) {
    const to = Math.min(copies, from + BATCH - 1);
    await db.session(async (s) => {
      await s.query(`INSERT INTO transactions (${tx.cols}) SELECT ${tx.select} FROM transactions t, generate_series(${from}, ${to}) k WHERE t.lt < ${LT_STRIDE}`);
      await s.query(`INSERT INTO messages (${msg.cols}) SELECT ${msg.select} FROM messages t, generate_series(${from}, ${to}) k WHERE t.tx_lt < ${LT_STRIDE}`);
    });
    console.log(`  v3: synthesized ${(to + 1) * base} of ${rows} transactions`);
  }
  await db.session((s) => s.query('ANALYZE'));
  return (copies + 1) * base;
}

/** The recorded chain indexed and multiplied into `rows` transactions, unless the database already holds them. */
async function seed(db: Database, lite: LiteClient, head: number, rows: number): Promise<number> {
  const count = async () => Number((await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM transactions`)[0]!.n);
  const existing = await count();
  if (existing >= rows) {
    console.log(`  v3: reusing ${existing} transactions`);
    return existing;
  }
  if (existing) throw new Error(`bench v3: the database holds ${existing} transactions, fewer than ${rows}; give an empty one`);
  const indexer = new Indexer({ prisma: db.prisma, client: lite, log, network: 'devnet' });
  await indexer.claim();
  for (let seqno = 1; seqno <= head; seqno++) await indexer.indexMasterchainBlock(seqno);
  return synthesize(db, rows);
}

async function keptDatabase(url: string) {
  const db = await openDatabase({ engine: 'postgresql', url });
  return { db, drop: () => db.close() }; // kept: only closed
}

export async function benchV3(baseUrl: string, lite: LiteClient, head: number, rows: number, kept?: string): Promise<BenchResult[]> {
  const pg = kept ? await keptDatabase(kept) : await scratchPostgres(baseUrl);
  try {
    await migrate(pg.db);
    const total = await seed(pg.db, lite, head, rows);
    const { callV3 } = testApi({ db: pg.db });
    const accounts = (await pg.db.prisma.$queryRaw<{ account: string }[]>`SELECT account FROM transactions GROUP BY account ORDER BY count(*) DESC LIMIT 50`).map((r) => r.account);
    const msgHashes = (await pg.db.prisma.$queryRaw<{ h: string }[]>`SELECT encode(msg_hash, 'base64') AS h FROM messages TABLESAMPLE SYSTEM (1) LIMIT 200`).map((r) => r.h);
    const note = `${total} transactions in PostgreSQL`;
    const ok = (status: number) => {
      if (status !== 200) throw new Error(`bench request failed with ${status}`);
    };
    return [
      ...latencyRows('v3 /transactions?account&limit=20', await sample(500, async (i) => ok((await callV3('transactions', { account: accounts[i % accounts.length]!, limit: 20 })).status)), note),
      ...latencyRows('v3 /blocks', await sample(500, async () => ok((await callV3('blocks', {})).status)), note),
      ...latencyRows('v3 /messages?msg_hash', await sample(500, async (i) => ok((await callV3('messages', { msg_hash: msgHashes[i % msgHashes.length]! })).status)), note),
    ];
  } finally {
    await pg.drop();
  }
}
