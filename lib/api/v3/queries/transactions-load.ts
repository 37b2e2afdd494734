// Transaction rows → toncenter Transactions: their messages (in_msg, out_msgs by created_lt), bodies and
// init states, the account states before and after (only `hash` when the state is not indexed), and the
// trace (trace_id, trace_external_hash). Up to four queries, in parallel; read and mapped as two steps so
// a route can read its side maps while the mapping runs. With a TransactionCache, the messages and
// description of a transaction mapped before are taken from it, and neither is read again (a page's rows
// come without their description where the query leaves it out: transactions.ts TransactionRow).
import { Prisma, type AccountState, type Transaction } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { amountMap, b64, bytes, dec, hex } from '../encode';
import { blockId, mapAccountState, mapMessage, orderDescription, type Contents } from '../mappers';
import { letIoIn } from '../heavy-reads';
import { CONTENT_COLUMNS, joinedContents, messageRow, SHARED_COLUMNS, type MessageSqlRow } from './message-rows';
import type { MessageJson } from '../models/messages';
import type { AccountStateJson, TransactionJson } from '../models/transactions';
import type { KeptTransaction, TransactionCache } from '../transaction-cache';
import type { TransactionRow } from './transactions';

interface TxMessageRow extends MessageSqlRow {
  tx_hash: Uint8Array<ArrayBuffer>;
  direction: string;
}

/** What a page of Transactions is made of, read (transactionParts) before it is mapped (mapTransactions). */
export interface TransactionParts {
  rows: TransactionRow[];
  /** The messages of the rows not kept. */
  messages: TxMessageRow[];
  /** The descriptions of the rows not kept that came without one, by hash (hex). */
  descriptions: Map<string, Transaction['description']>;
  states: AccountState[];
  externalOf: Map<string, Uint8Array | null>;
  /** The rows' kept parts by hash (hex), and where to keep the others once mapped. */
  kept: Map<string, KeptTransaction>;
  cache?: TransactionCache;
}

/** Message rows with their transaction and direction, from messages `m` as `from` (FROM …) joins it. */
const txMessagesQuery = (from: Prisma.Sql) => Prisma.sql`SELECT m.tx_hash, m.direction, m.msg_hash, ${SHARED_COLUMNS}, ${CONTENT_COLUMNS} FROM ${from}`;

/** A page's rows as keys: lt, hash and masterchain seqno (unnest(…) k(lt, hash, seqno)). */
const keysOf = (rows: Pick<TransactionRow, 'hash' | 'lt' | 'mcBlockSeqno'>[]) =>
  Prisma.sql`unnest(${rows.map((t) => String(t.lt))}::int8[], ${rows.map((t) => bytes(t.hash))}::bytea[], ${rows.map((t) => t.mcBlockSeqno)}::int4[]) k(lt, hash, seqno)`;

/**
 * The messages of these transactions (exported for the plan test): one lookup per transaction by its lt,
 * hash and masterchain seqno in the (tx_lt, tx_hash) index. The transactions of a block have adjacent lts,
 * so a block's page reads a few adjacent index leaves and the heap pages its messages were written to
 * together; by tx_hash alone (the primary key's first column) each transaction was a random leaf and a
 * random heap page: a cold 100-transaction block page at 1M, 5.3 → 1.2 ms in PostgreSQL. The seqno prunes
 * partitions at run time.
 */
export const messagesOfTransactionsQuery = (rows: Pick<TransactionRow, 'hash' | 'lt' | 'mcBlockSeqno'>[]) =>
  txMessagesQuery(Prisma.sql`${keysOf(rows)} JOIN messages m ON m.tx_lt = k.lt AND m.tx_hash = k.hash AND m.mc_block_seqno = k.seqno`);
// The statements of a page's parts are prepared (SqlReader.rows): each has one or two spellings, its keys
// array parameters, and planning them cost PostgreSQL more than running them.
const messagesOfTransactions = (sql: SqlReader, rows: TransactionRow[]) => sql.rows<TxMessageRow>(messagesOfTransactionsQuery(rows), 'tx-messages');

/**
 * The descriptions of these transactions and of any other with the same lt in the same masterchain block
 * (exported for the plan test): one probe per transaction of the (mc_block_seqno, lt) index (or the lt
 * one), where a block's transactions sit in adjacent leaves and their heap pages were just read for the
 * rows. By hash (the primary key) each was a random leaf: cold at 10M, 8.0 → 0.8 ms for a block's 100 in
 * PostgreSQL. The hash stays out of the join: with it the primary key (hash, mc_block_seqno) matches
 * whole, and the planner took it on a small table; the caller picks its rows by hash.
 */
export const descriptionsQuery = (rows: Pick<TransactionRow, 'hash' | 'lt' | 'mcBlockSeqno'>[]) =>
  Prisma.sql`SELECT t.hash, t.description FROM ${keysOf(rows)} JOIN transactions t ON t.lt = k.lt AND t.mc_block_seqno = k.seqno`;

/** The descriptions of these transactions (and maybe of others sharing an lt), by hash (hex). */
async function descriptionsOf(sql: SqlReader, rows: TransactionRow[]): Promise<Map<string, Transaction['description']>> {
  const found = await sql.rows<{ hash: Uint8Array; description: Transaction['description'] }>(descriptionsQuery(rows), 'tx-descriptions');
  return new Map(found.map((r) => [hex(r.hash), r.description]));
}

/** The query of messagesOfTraces (exported for the plan test). */
export const messagesOfTracesQuery = (traceIds: Uint8Array<ArrayBuffer>[]) => txMessagesQuery(Prisma.sql`messages m WHERE m.trace_id = ANY(${traceIds}::bytea[])`);

/** The messages of every transaction of these traces (each message carries its transaction's trace id). */
export const messagesOfTraces = async (sql: SqlReader, traceIds: Uint8Array<ArrayBuffer>[]): Promise<TxMessageRow[]> =>
  traceIds.length ? sql.rows<TxMessageRow>(messagesOfTracesQuery(traceIds), 'tx-messages') : [];

/**
 * The account states with these hashes, as a Transaction's state before and after shows them (exported
 * for the plan test): one row per hash. A state is stored once per masterchain block that recorded it
 * (the key is hash and mc_block_seqno), and catching up on a lite server that no longer keeps old states
 * records the head's state under every block (follower.ts readAtHead): on the 10M bench every hash had ~15
 * rows, on the 1M bench ~110. The rows of one hash are the same state, so each hash reads its first row
 * and stops (DISTINCT ON read and sorted every row of every hash: 2,986 rows for the 27 states of the
 * newest 100 transactions, 2.4 of the page's 8 ms).
 */
export const accountStatesQuery = (hashes: Uint8Array<ArrayBuffer>[]) => Prisma.sql`
  SELECT s.* FROM (SELECT DISTINCT unnest(${hashes}::bytea[]) AS hash) h CROSS JOIN LATERAL (
    SELECT a.hash, a.account, a.balance, a.balance_extra_currencies AS "balanceExtraCurrencies", a.account_status AS "accountStatus",
      a.frozen_hash AS "frozenHash", a.data_hash AS "dataHash", a.code_hash AS "codeHash"
    FROM account_states a WHERE a.hash = h.hash LIMIT 1) s`;

/**
 * The rows a page of Transactions needs besides `rows`: messages, account states and trace externals.
 * `traceExternals`: the external_hash of every trace of `rows` by trace id (hex), when the caller has the
 * traces' rows already; `messages`: the rows' messages, when the caller read them alongside the rows
 * (messagesOfTraces); `cache`: the process's kept transactions (their messages are not read).
 */
export const transactionParts = (sql: SqlReader, rows: TransactionRow[], o: PartsOptions = {}): Promise<TransactionParts> => readTransactionParts(sql, rows, o).parts;

interface PartsOptions {
  traceExternals?: Map<string, Uint8Array | null>;
  messages?: Promise<TxMessageRow[]>;
  cache?: TransactionCache;
}

/**
 * transactionParts, and the accounts the page's address book covers as soon as the rows' messages are
 * read (at once when every row is kept): the book can then be read alongside the states and trace
 * externals instead of after them, one round trip less in the answer's time.
 */
export function readTransactionParts(sql: SqlReader, rows: TransactionRow[], o: PartsOptions = {}): { parts: Promise<TransactionParts>; addresses: Promise<string[]> } {
  const kept = new Map<string, KeptTransaction>();
  if (!rows.length) {
    const parts: TransactionParts = { rows, messages: [], descriptions: new Map(), states: [], externalOf: new Map(), kept, cache: o.cache };
    return { parts: Promise.resolve(parts), addresses: Promise.resolve([]) };
  }
  const unkept: TransactionRow[] = [];
  const undescribed: TransactionRow[] = [];
  for (const t of rows) {
    const k = o.cache?.get(hex(t.hash));
    if (k) kept.set(hex(t.hash), k);
    else {
      unkept.push(t);
      if (t.description === undefined) undescribed.push(t);
    }
  }
  const stateHashes = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const t of rows) {
    stateHashes.set(hex(t.accountStateHashBefore), bytes(t.accountStateHashBefore));
    stateHashes.set(hex(t.accountStateHashAfter), bytes(t.accountStateHashAfter));
  }
  const traceIds = new Map(rows.flatMap((t) => (t.traceId ? [[hex(t.traceId), bytes(t.traceId)] as const] : [])));
  const messages = o.messages ?? (unkept.length ? messagesOfTransactions(sql, unkept) : Promise.resolve([]));
  const parts = Promise.all([
    messages,
    undescribed.length ? descriptionsOf(sql, undescribed) : new Map<string, Transaction['description']>(),
    sql.rows<AccountState>(accountStatesQuery([...stateHashes.values()]), 'account-states'),
    traceIds.size && !o.traceExternals
      ? sql.rows<{ traceId: Uint8Array; externalHash: Uint8Array | null }>(Prisma.sql`
          SELECT trace_id AS "traceId", external_hash AS "externalHash" FROM traces WHERE trace_id = ANY(${[...traceIds.values()]}::bytea[])`, 'trace-externals')
      : [],
  ]).then(([messageRows, descriptions, states, traces]) => ({
    rows,
    messages: messageRows,
    descriptions,
    states,
    externalOf: o.traceExternals ?? new Map(traces.map((t) => [hex(t.traceId), t.externalHash])),
    kept,
    cache: o.cache,
  }));
  return { parts, addresses: messages.then((m) => partsAddresses({ rows, messages: m, kept })) };
}

/**
 * The accounts a transaction list's address_book covers (account, in_msg source, out_msg destinations),
 * from its parts: known before the mapping, so the side maps can be read while it runs.
 */
export function partsAddresses({ rows, messages, kept }: Pick<TransactionParts, 'rows' | 'messages' | 'kept'>): string[] {
  const out = rows.map((t) => t.account);
  const mine = new Set(rows.map((t) => hex(t.hash)));
  for (const m of messages) {
    if (!mine.has(hex(m.tx_hash)) || kept.has(hex(m.tx_hash))) continue;
    const a = m.direction === 'in' ? m.source : m.destination;
    if (a) out.push(a);
  }
  for (const k of kept.values()) {
    if (k.inMsg?.source) out.push(k.inMsg.source);
    for (const m of k.outMsgs) if (m.destination) out.push(m.destination);
  }
  return out;
}

/** The messages of the rows not kept, by transaction hash (hex). */
function messagesByTx(messages: TxMessageRow[], kept: ReadonlyMap<string, unknown>): Map<string, TxMessageRow[]> {
  const byTx = new Map<string, TxMessageRow[]>();
  for (const m of messages) {
    const key = hex(m.tx_hash);
    if (kept.has(key)) continue;
    const list = byTx.get(key);
    if (list) list.push(m);
    else byTx.set(key, [m]);
  }
  return byTx;
}

/** The kept parts of `t`: from the cache, or mapped now from its messages (and kept, when there is a cache). */
function keptParts(t: TransactionRow, parts: TransactionParts, messages: TxMessageRow[] | undefined, contents: Contents): KeptTransaction {
  const key = hex(t.hash);
  const hit = parts.kept.get(key);
  if (hit) return hit;
  let inMsg: MessageJson | null = null;
  const out: { lt: bigint | null; msg: MessageJson }[] = [];
  for (const m of messages ?? []) {
    const msg = mapMessage(messageRow(m), contents);
    if (m.direction === 'in') inMsg = msg;
    else out.push({ lt: m.created_lt, msg });
  }
  const k: KeptTransaction = { inMsg, outMsgs: byCreatedLt(out), description: orderDescription(t.description ?? parts.descriptions.get(key)!) };
  // A stored transaction is finalized: these parts of it never change.
  parts.cache?.set(key, k);
  return k;
}

/** Each row's toncenter Transaction, in the rows' order: messages by direction (out by created_lt), states, trace. */
function* eachTransaction(parts: TransactionParts): Generator<TransactionJson> {
  const { rows, states, externalOf } = parts;
  const contents = joinedContents(parts.messages);
  const byTx = messagesByTx(parts.messages, parts.kept);
  const stateByHash = new Map(states.map((s) => [hex(s.hash), s]));
  for (const t of rows) {
    const external = t.traceId ? externalOf.get(hex(t.traceId)) : null;
    yield transactionJson(t, keptParts(t, parts, byTx.get(hex(t.hash)), contents), {
      traceExternalHash: external ? b64(external) : null,
      before: mapAccountState(t.accountStateHashBefore, stateByHash.get(hex(t.accountStateHashBefore))),
      after: mapAccountState(t.accountStateHashAfter, stateByHash.get(hex(t.accountStateHashAfter))),
      emulated: false,
      finality: 'finalized',
    });
  }
}

/** toncenter Transactions of their parts, at once (a few rows: a page of the stream, a short list). */
export const mapTransactions = (parts: TransactionParts): TransactionJson[] => [...eachTransaction(parts)];

/** Rows mapped between two looks at pending I/O by mapTransactionsInTurns. */
const ROWS_PER_TURN = 100;

/**
 * mapTransactions for a page of any length: every ROWS_PER_TURN rows it lets pending I/O run (heavy-reads.ts
 * letIoIn), so a page of 1,000 transactions never keeps this thread from other requests for all its mapping.
 */
export async function mapTransactionsInTurns(parts: TransactionParts): Promise<TransactionJson[]> {
  const out: TransactionJson[] = [];
  for (const t of eachTransaction(parts)) {
    if (out.length && out.length % ROWS_PER_TURN === 0) await letIoIn();
    out.push(t);
  }
  return out;
}

/** Transaction rows → toncenter Transactions (`cache` as in transactionParts). */
export async function loadTransactions(sql: SqlReader, rows: TransactionRow[], cache?: TransactionCache): Promise<TransactionJson[]> {
  return mapTransactionsInTurns(await transactionParts(sql, rows, { cache }));
}

/** A stored transaction row, or an emulated one (pending): no masterchain block yet. */
export type TransactionRowJson = Omit<TransactionRow, 'mcBlockSeqno'> & { mcBlockSeqno: number | null };

/** Outbound messages in toncenter's order: created_lt ascending, a message without one first. */
export function byCreatedLt(out: { lt: bigint | null; msg: MessageJson }[]): MessageJson[] {
  return [...out].sort((a, b) => (a.lt === b.lt ? 0 : a.lt === null ? -1 : b.lt === null ? 1 : a.lt < b.lt ? -1 : 1)).map((x) => x.msg);
}

/**
 * v3's Transaction of a row, its mapped messages and description: stored ones (above) and the emulated
 * ones of pending traces (lib/api/v3/pending-json.ts), which have no trace id yet but name their external
 * message.
 */
export function transactionJson(
  t: TransactionRowJson,
  k: KeptTransaction,
  o: { traceExternalHash: string | null; before: AccountStateJson; after: AccountStateJson; emulated: boolean; finality: TransactionJson['finality'] },
): TransactionJson {
  type Status = TransactionJson['orig_status'];
  return {
    account: t.account,
    hash: b64(t.hash),
    lt: String(t.lt),
    now: t.now,
    mc_block_seqno: t.mcBlockSeqno,
    ...(t.traceId ? { trace_id: b64(t.traceId) } : {}),
    ...(o.traceExternalHash ? { trace_external_hash: o.traceExternalHash } : {}),
    prev_trans_hash: b64(t.prevTransHash),
    prev_trans_lt: String(t.prevTransLt),
    orig_status: t.origStatus as Status,
    end_status: t.endStatus as Status,
    total_fees: dec(t.totalFees),
    total_fees_extra_currencies: amountMap(t.totalFeesExtraCurrencies),
    description: k.description,
    block_ref: blockId(t.blockWorkchain, t.blockShard, t.blockSeqno),
    in_msg: k.inMsg,
    out_msgs: k.outMsgs,
    account_state_before: o.before,
    account_state_after: o.after,
    emulated: o.emulated,
    finality: o.finality,
  };
}

/** The accounts a transaction list's address_book covers: account, in_msg source, out_msg destinations. */
export function transactionAddresses(txs: TransactionJson[]): string[] {
  const out: string[] = [];
  for (const t of txs) {
    out.push(t.account);
    if (t.in_msg?.source) out.push(t.in_msg.source);
    for (const m of t.out_msgs) if (m.destination) out.push(m.destination);
  }
  return out;
}
