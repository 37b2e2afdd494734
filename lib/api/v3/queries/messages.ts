// `messages` for GET /messages (api-v3.md §2.1): one entry per message hash, with its sending and
// receiving transactions, ordered by sort_lt (created_lt; an external-in message's receiving
// transaction lt) or, with a time filter, by created_at; msg_hash breaks ties.
//
// A message has at most two rows (its sending and its receiving transaction's), and both carry the same
// order key, so they sit next to each other in (key, msg_hash) order. A page therefore needs the first
// 2 × (offset + limit) matching rows walked off the index that leads with the filter and ends in that
// order (migration 20261126160000_messages_order), never a grouping of every matching row. (An external
// message accepted more than once has a row per acceptance: it takes the place of the first of them the
// walk meets, where a grouping of all rows would order it by its oldest.)
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { bytes } from '../encode';
import { CONTENT_COLUMNS, SHARED_COLUMNS, type MessageSqlRow } from './message-rows';
import type { Page, SortOrder } from '../params';

export interface MessageFilter {
  /** Message hashes or normalized external hashes. */
  hashes?: Buffer[];
  bodyHash?: Buffer;
  /** null: external-in messages (no source). */
  source?: string | null;
  /** null: external-out messages (no destination). */
  destination?: string | null;
  opcode?: number;
  direction?: 'in' | 'out';
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
  /** Leave out / keep only the messages without the order column (created_at with a time filter, else created_lt). */
  excludeExternals?: boolean;
  onlyExternals?: boolean;
  sort: SortOrder;
}

export interface MessageGroupRow extends MessageSqlRow {
  in_tx_hash: Uint8Array<ArrayBuffer> | null;
  out_tx_hash: Uint8Array<ArrayBuffer> | null;
}

/** A time filter orders by created_at; otherwise the order is sort_lt. */
const byTime = (f: MessageFilter) => f.startUtime !== undefined || f.endUtime !== undefined;
const direction = (f: MessageFilter) => Prisma.raw(f.sort === 'asc' ? 'ASC' : 'DESC');

/** The WHERE conditions of `f` on the messages alias m. */
function conditions(f: MessageFilter): Prisma.Sql[] {
  const cond: Prisma.Sql[] = [];
  if (f.direction) cond.push(Prisma.sql`m.direction = ${f.direction}`);
  if (f.source !== undefined) cond.push(f.source === null ? Prisma.sql`m.source IS NULL` : Prisma.sql`m.source = ${f.source}`);
  if (f.destination !== undefined) cond.push(f.destination === null ? Prisma.sql`m.destination IS NULL` : Prisma.sql`m.destination = ${f.destination}`);
  if (f.opcode !== undefined) cond.push(Prisma.sql`m.opcode = ${f.opcode}::int`);
  if (f.hashes?.length) {
    const hs = f.hashes.map(bytes);
    cond.push(Prisma.sql`(m.msg_hash = ANY(${hs}::bytea[]) OR m.msg_hash_norm = ANY(${hs}::bytea[]))`);
  }
  if (f.bodyHash) cond.push(Prisma.sql`m.body_hash = ${bytes(f.bodyHash)}`);
  if (f.startUtime !== undefined) cond.push(Prisma.sql`m.created_at >= ${BigInt(f.startUtime)}`);
  if (f.endUtime !== undefined) cond.push(Prisma.sql`m.created_at <= ${BigInt(f.endUtime)}`);
  // lt bounds are on created_lt (an external-in message never matches them); where created_lt is set,
  // sort_lt equals it, so the same bound on sort_lt lets the index range-scan.
  if (f.startLt !== undefined) cond.push(Prisma.sql`m.created_lt >= ${f.startLt} AND m.sort_lt >= ${f.startLt}`);
  if (f.endLt !== undefined) cond.push(Prisma.sql`m.created_lt <= ${f.endLt} AND m.sort_lt <= ${f.endLt}`);
  const orderColumn = Prisma.raw(byTime(f) ? 'm.created_at' : 'm.created_lt');
  if (f.excludeExternals) cond.push(Prisma.sql`${orderColumn} IS NOT NULL`);
  if (f.onlyExternals) cond.push(Prisma.sql`${orderColumn} IS NULL`);
  return cond;
}

/** The first `window` matching rows' (msg_hash, order key) in the page's order (exported for the plan test). */
export function messageWindowQuery(f: MessageFilter, window: number): Prisma.Sql {
  const dir = direction(f);
  const key = Prisma.raw(byTime(f) ? 'm.created_at' : 'm.sort_lt');
  const cond = conditions(f);
  const where = cond.length ? Prisma.sql`WHERE ${Prisma.join(cond, ' AND ')}` : Prisma.empty;
  return Prisma.sql`SELECT m.msg_hash FROM messages m ${where} ORDER BY ${key} ${dir}, m.msg_hash ${dir} LIMIT ${window}`;
}

/** One page of messages, each grouped over its matching rows as toncenter groups them. */
export async function findMessages(sql: SqlReader, f: MessageFilter, page: Page): Promise<MessageGroupRow[]> {
  const wanted = page.skip + page.take;
  let hashes: Buffer[] = [];
  // Two rows a message, except an external message a contract without replay protection accepted again
  // (one row each time): a window that fills up without enough distinct messages is widened.
  for (let window = 2 * wanted; ; window *= 4) {
    const rows = await sql.rows<{ msg_hash: Uint8Array }>(messageWindowQuery(f, window));
    const seen = new Set<string>();
    hashes = [];
    for (const r of rows) {
      const h = Buffer.from(r.msg_hash);
      const key = h.toString('hex');
      if (seen.has(key)) continue;
      seen.add(key);
      hashes.push(h);
    }
    if (hashes.length >= wanted || rows.length < window) break;
  }
  const pageHashes = hashes.slice(page.skip, wanted);
  if (!pageHashes.length) return [];
  const dir = direction(f);
  const key = byTime(f) ? Prisma.sql`m.created_at` : Prisma.sql`min(m.sort_lt)`;
  const filters = conditions(f);
  const cond = [Prisma.sql`m.msg_hash = ANY(${pageHashes.map(bytes)}::bytea[])`, ...filters];
  // Prepared without filters (the newest messages): planning it over the partitions was a sixth of its time
  // (2.15 → 1.80 ms p50 at 10M). Not with filters: a generic plan for an account's messages read the hot
  // account's rows by its index instead of the page's hashes by theirs (/messages?source of a busy account
  // 1.4 → 38 ms at 10M), and each combination of filters would be another statement kept on every connection.
  const prepared = filters.length === 0 ? 'message-groups' : undefined;
  return sql.rows<MessageGroupRow>(Prisma.sql`
    SELECT m.msg_hash, ${SHARED_COLUMNS}, ${CONTENT_COLUMNS},
      (array_agg(m.tx_hash ORDER BY m.tx_lt) FILTER (WHERE m.direction = 'in'))[1] AS in_tx_hash,
      (array_agg(m.tx_hash ORDER BY m.tx_lt) FILTER (WHERE m.direction = 'out'))[1] AS out_tx_hash
    FROM messages m WHERE ${Prisma.join(cond, ' AND ')}
    GROUP BY m.msg_hash, ${SHARED_COLUMNS}
    ORDER BY ${key} ${dir}, m.msg_hash ${dir}`, prepared);
}
