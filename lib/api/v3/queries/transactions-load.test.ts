// A heavy page's messages are read in pieces of at most 200 keys, so that one PGlite query does not hold
// the thread for the whole page (issue 25). The pieces must add up to what one query over every key reads:
// the same rows, none lost or repeated. Real devnet index.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { findTransactions } from './transactions';
import { messagesOfTraces, messagesOfTracesQuery, transactionParts } from './transactions-load';

let chain: TestChain;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'messages-in-pieces', rounds: 4, tps: 60, index: true });
}, 300_000);
afterAll(async () => {
  await chain?.close();
});

/** A reader that records how many keys each query of messages had in its key list. */
function counting(sql: SqlReader): { sql: SqlReader; keys: number[] } {
  const keys: number[] = [];
  const rows = (q: Prisma.Sql) => {
    if (/FROM messages/.test(q.text)) keys.push((q.values.find(Array.isArray) as unknown[] | undefined)?.length ?? 0);
    return sql.rows(q);
  };
  return { keys, sql: { rows } as SqlReader };
}

/** The key counts of `n` keys read in pieces of 200. */
const piecesOf = (n: number) => Array.from({ length: Math.ceil(n / 200) }, (_, i) => Math.min(200, n - i * 200));

/** Rows as comparable text, in one order. */
const canonical = (rows: unknown[]) =>
  rows.map((r) => JSON.stringify(r, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v))).sort();

it('the messages of 200+ transactions come in pieces of at most 200 keys, and are the rows of one query over all', async () => {
  const sql = chain.db!.db.sql;
  const rows = await findTransactions(sql, { sort: 'desc' }, { take: 1000, skip: 0 });
  expect(rows.length).toBeGreaterThan(400);
  const reader = counting(sql);
  const parts = await transactionParts(reader.sql, rows);
  expect(reader.keys).toEqual(piecesOf(rows.length));

  const hashes = rows.map((t) => new Uint8Array(t.hash));
  const whole = await sql.rows(Prisma.sql`SELECT m.tx_hash, m.direction, m.msg_hash FROM messages m WHERE m.tx_hash = ANY(${hashes}::bytea[])`);
  expect(parts.messages.length).toBe(whole.length);
  expect(canonical(parts.messages.map((m) => ({ tx_hash: m.tx_hash, direction: m.direction, msg_hash: m.msg_hash })))).toEqual(canonical(whole));
});

it('the messages of 200+ traces read in pieces are the rows of one query over all', async () => {
  const sql = chain.db!.db.sql;
  const ids = (await sql.rows<{ id: Uint8Array }>(Prisma.sql`SELECT trace_id AS id FROM traces`)).map((r) => new Uint8Array(r.id));
  expect(ids.length).toBeGreaterThan(200);
  const reader = counting(sql);
  const pieces = await messagesOfTraces(reader.sql, ids);
  expect(reader.keys).toEqual(piecesOf(ids.length));
  expect(canonical(pieces)).toEqual(canonical(await sql.rows(messagesOfTracesQuery(ids))));
});
