// `transactions` for the v3 transaction routes (api-v3.md §2.1): filters, toncenter's ordering rules and
// the rows in the shape of the Prisma model, read with raw SQL (the ORM's query building and row
// mapping cost more CPU than the database's work for a page of transactions).
import { Prisma, type Transaction } from '../../../db/generated/client';
import { bytes } from '../encode';
import type { Page, SortOrder } from '../params';
import type { SqlReader } from '../../../db/sql';

/**
 * A transactions row as a page query reads it: without the description (the largest column, a jsonb the
 * driver parses) where the query leaves it out. transactionParts reads the descriptions of the rows it
 * must map, and none for the rows the process keeps mapped already (transaction-cache.ts).
 */
export type TransactionRow = Omit<Transaction, 'description'> & { description?: Transaction['description'] };

/** Every column of transactions but the description, named as the Transaction model names them. */
const ROW_COLUMNS = Prisma.sql`t.hash, t.account, t.lt, t.now, t.block_workchain AS "blockWorkchain", t.block_shard AS "blockShard",
  t.block_seqno AS "blockSeqno", t.mc_block_seqno AS "mcBlockSeqno", t.trace_id AS "traceId", t.prev_trans_hash AS "prevTransHash",
  t.prev_trans_lt AS "prevTransLt", t.orig_status AS "origStatus", t.end_status AS "endStatus", t.total_fees AS "totalFees",
  t.total_fees_extra_currencies AS "totalFeesExtraCurrencies", t.account_state_hash_before AS "accountStateHashBefore",
  t.account_state_hash_after AS "accountStateHashAfter"`;
/** Every column of transactions. */
const COLUMNS = Prisma.sql`${ROW_COLUMNS}, t.description`;

export interface TransactionFilter {
  workchain?: number;
  shard?: bigint;
  seqno?: number;
  mcSeqno?: number;
  accounts?: string[];
  excludeAccounts?: string[];
  hashes?: Buffer[];
  lt?: bigint;
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
  sort: SortOrder;
}

const I32_MAX = 2 ** 31 - 1;

/** The WHERE conditions of `f` on the transactions alias t. */
function conditions(f: TransactionFilter): Prisma.Sql[] {
  const cond: Prisma.Sql[] = [];
  if (f.workchain !== undefined) cond.push(Prisma.sql`t.block_workchain = ${f.workchain}::int`);
  if (f.shard !== undefined) cond.push(Prisma.sql`t.block_shard = ${f.shard}::int8`);
  if (f.seqno !== undefined) cond.push(Prisma.sql`t.block_seqno = ${f.seqno}::int`);
  if (f.mcSeqno !== undefined) cond.push(Prisma.sql`t.mc_block_seqno = ${f.mcSeqno}::int`);
  // `now` is int4: a bound past its range matches nothing (from) or everything up to its end (to).
  if (f.startUtime !== undefined) cond.push(f.startUtime > I32_MAX ? Prisma.sql`FALSE` : Prisma.sql`t.now >= ${f.startUtime}::int`);
  if (f.endUtime !== undefined) cond.push(Prisma.sql`t.now <= ${Math.min(f.endUtime, I32_MAX)}::int`);
  // One account as an equality: the planner then reads (account, lt) in lt order without sorting.
  if (f.accounts?.length === 1) cond.push(Prisma.sql`t.account = ${f.accounts[0]}`);
  else if (f.accounts?.length) cond.push(Prisma.sql`t.account = ANY(${f.accounts}::text[])`);
  if (f.excludeAccounts?.length) cond.push(Prisma.sql`t.account <> ALL(${f.excludeAccounts}::text[])`);
  if (f.hashes?.length) cond.push(Prisma.sql`t.hash = ANY(${f.hashes.map(bytes)}::bytea[])`);
  if (f.startLt !== undefined) cond.push(Prisma.sql`t.lt >= ${f.startLt}::int8`);
  if (f.endLt !== undefined) cond.push(Prisma.sql`t.lt <= ${f.endLt}::int8`);
  if (f.lt !== undefined) cond.push(Prisma.sql`t.lt = ${f.lt}::int8`);
  return cond;
}

/**
 * toncenter's order (later rules win): lt {sort}, account; with a time filter now {sort}, lt {sort},
 * account; a masterchain block: lt {sort}, account; exactly one account: account, [now {sort},] lt
 * {sort}; hashes: hash {sort}; an lt: lt, account {sort}.
 */
function ordering(f: TransactionFilter): Prisma.Sql {
  const s = f.sort === 'asc' ? 'ASC' : 'DESC';
  const byTime = f.startUtime !== undefined || f.endUtime !== undefined;
  let order = byTime ? `t.now ${s}, t.lt ${s}, t.account ASC` : `t.lt ${s}, t.account ASC`;
  if (f.mcSeqno !== undefined) order = `t.lt ${s}, t.account ASC`;
  if (f.accounts?.length === 1) order = byTime ? `t.account ASC, t.now ${s}, t.lt ${s}` : `t.account ASC, t.lt ${s}`;
  if (f.hashes?.length) order = `t.hash ${s}`;
  if (f.lt !== undefined) order = `t.lt ASC, t.account ${s}`;
  return Prisma.raw(order);
}

/** The query of one page of `f` (exported for the plan test). */
export function transactionsQuery(f: TransactionFilter, page: Page): Prisma.Sql {
  const cond = conditions(f);
  const where = cond.length ? Prisma.sql`WHERE ${Prisma.join(cond, ' AND ')}` : Prisma.empty;
  return Prisma.sql`SELECT ${ROW_COLUMNS} FROM transactions t ${where} ORDER BY ${ordering(f)} LIMIT ${page.take} OFFSET ${page.skip}`;
}

export const findTransactions = (sql: SqlReader, f: TransactionFilter, page: Page): Promise<TransactionRow[]> => sql.rows<TransactionRow>(transactionsQuery(f, page));

type TransactionKeys = { hashes: Uint8Array[] } | { traceIds: Uint8Array[] };

/** transactionsWhere's SQL (exported for the plan test). */
export function transactionsWhereQuery(by: TransactionKeys): Prisma.Sql {
  const cond = 'hashes' in by ? Prisma.sql`t.hash = ANY(${by.hashes}::bytea[])` : Prisma.sql`t.trace_id = ANY(${by.traceIds}::bytea[])`;
  return Prisma.sql`SELECT ${COLUMNS} FROM transactions t WHERE ${cond} ORDER BY t.lt ASC, t.account ASC`;
}

/** The transactions with these hashes, or of these traces, in lt and account order. */
export const transactionsWhere = (sql: SqlReader, by: TransactionKeys): Promise<Transaction[]> => sql.rows<Transaction>(transactionsWhereQuery(by));

/** /transactionsByMessage: which messages (at least one of hashes, bodyHash, opcode; the route checks). */
export interface MessageTransactionFilter {
  /** Message hashes or normalized external message hashes. */
  msgHashes?: Buffer[];
  bodyHash?: Buffer;
  /** Implies direction in. */
  opcode?: number;
  /** in: the receiving transaction; out: the sending one. */
  direction?: 'in' | 'out';
  sort: SortOrder;
}

/**
 * The transactions of the messages `from` selects (FROM … WHERE …, messages as m), each once, looked up by
 * primary key: a message row carries its transaction's mc_block_seqno, so on PostgreSQL each lookup
 * reads one partition. LIMIT 1 (the key is unique) keeps the lookup per message: as a join (or as
 * `t.hash IN (messages …)`) the planner reads every transaction to hash-join a common opcode's matches.
 */
const ofMessages = (from: Prisma.Sql) => Prisma.sql`
  (SELECT DISTINCT m.tx_hash, m.mc_block_seqno FROM ${from}) k
  CROSS JOIN LATERAL (SELECT ${ROW_COLUMNS} FROM transactions t WHERE t.hash = k.tx_hash AND t.mc_block_seqno = k.mc_block_seqno LIMIT 1) t`;

/**
 * The query of one page of transactionsByMessage: the transactions of the matching messages, lt {sort},
 * account. Each transaction once, though several of its messages match (toncenter joins and can list it
 * twice, e.g. two out messages with the same body). Exported for the plan test.
 */
export function transactionsByMessageQuery(f: MessageTransactionFilter, page: Page): Prisma.Sql {
  const cond: Prisma.Sql[] = [];
  if (f.msgHashes?.length) {
    const hs = f.msgHashes.map(bytes);
    cond.push(Prisma.sql`(m.msg_hash = ANY(${hs}::bytea[]) OR m.msg_hash_norm = ANY(${hs}::bytea[]))`);
  }
  if (f.bodyHash) cond.push(Prisma.sql`m.body_hash = ${bytes(f.bodyHash)}`);
  if (f.opcode !== undefined) cond.push(Prisma.sql`m.opcode = ${f.opcode}::int AND m.direction = 'in'`);
  if (f.direction) cond.push(Prisma.sql`m.direction = ${f.direction}`);
  const dir = Prisma.raw(f.sort === 'asc' ? 'ASC' : 'DESC');
  return Prisma.sql`SELECT t.* FROM ${ofMessages(Prisma.sql`messages m WHERE ${Prisma.join(cond, ' AND ')}`)} ORDER BY t.lt ${dir}, t.account ASC LIMIT ${page.take} OFFSET ${page.skip}`;
}

export const findTransactionsByMessage = (sql: SqlReader, f: MessageTransactionFilter, page: Page): Promise<TransactionRow[]> =>
  sql.rows<TransactionRow>(transactionsByMessageQuery(f, page));

/**
 * /adjacentTransactions: the transactions at the other end of a transaction's messages — the sender of
 * its inbound message (direction in), the receivers of its outbound ones (out), or both (undefined) — in
 * lt and account order. Exported for the plan test.
 */
export function adjacentTransactionsQuery(hash: Uint8Array, direction: 'in' | 'out' | undefined): Prisma.Sql {
  const side = direction ? Prisma.sql`AND own.direction = ${direction}` : Prisma.empty;
  // The other end of each of the transaction's messages: the same message hash, the other direction.
  const other = Prisma.sql`messages own JOIN messages m ON m.msg_hash = own.msg_hash AND m.direction <> own.direction WHERE own.tx_hash = ${hash} ${side}`;
  return Prisma.sql`SELECT t.* FROM ${ofMessages(other)} ORDER BY t.lt ASC, t.account ASC`;
}

export const adjacentTransactions = (sql: SqlReader, hash: Uint8Array, direction: 'in' | 'out' | undefined): Promise<TransactionRow[]> =>
  sql.rows<TransactionRow>(adjacentTransactionsQuery(hash, direction));
