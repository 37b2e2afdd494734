// Transaction rows → toncenter Transactions: their messages (in_msg, out_msgs by created_lt), bodies and
// init states, the account states before and after (only `hash` when the state is not indexed), and the
// trace (trace_id, trace_external_hash). Three queries, in parallel; read and mapped as two steps so a
// route can read its side maps while the mapping runs.
import { Prisma, type AccountState, type Transaction } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { amountMap, b64, bytes, dec, hex } from '../encode';
import { blockId, mapAccountState, mapMessage, orderDescription } from '../mappers';
import { CONTENT_COLUMNS, joinedContents, messageRow, SHARED_COLUMNS, type MessageSqlRow } from './message-rows';
import type { MessageJson } from '../models/messages';
import type { AccountStateJson, TransactionJson } from '../models/transactions';

interface TxMessageRow extends MessageSqlRow {
  tx_hash: Uint8Array<ArrayBuffer>;
  direction: string;
}

/** What a page of Transactions is made of, read (transactionParts) before it is mapped (mapTransactions). */
export interface TransactionParts {
  rows: Transaction[];
  messages: TxMessageRow[];
  states: AccountState[];
  externalOf: Map<string, Uint8Array | null>;
}

/** Message rows with their transaction and direction, where `condition` (on `m`) holds. */
const txMessagesQuery = (condition: Prisma.Sql) =>
  Prisma.sql`SELECT m.tx_hash, m.direction, m.msg_hash, ${SHARED_COLUMNS}, ${CONTENT_COLUMNS} FROM messages m WHERE ${condition}`;
const txMessages = (sql: SqlReader, condition: Prisma.Sql) => sql.rows<TxMessageRow>(txMessagesQuery(condition));

/** The query of messagesOfTraces (exported for the plan test). */
export const messagesOfTracesQuery = (traceIds: Uint8Array<ArrayBuffer>[]) => txMessagesQuery(Prisma.sql`m.trace_id = ANY(${traceIds}::bytea[])`);

/** The messages of every transaction of these traces (each message carries its transaction's trace id). */
export const messagesOfTraces = async (sql: SqlReader, traceIds: Uint8Array<ArrayBuffer>[]): Promise<TxMessageRow[]> =>
  traceIds.length ? sql.rows<TxMessageRow>(messagesOfTracesQuery(traceIds)) : [];

/** The account states with these hashes, as a Transaction's state before and after shows them (exported for the plan test). */
export const accountStatesQuery = (hashes: Uint8Array<ArrayBuffer>[]) => Prisma.sql`
  SELECT hash, account, balance, balance_extra_currencies AS "balanceExtraCurrencies", account_status AS "accountStatus",
    frozen_hash AS "frozenHash", data_hash AS "dataHash", code_hash AS "codeHash"
  FROM account_states WHERE hash = ANY(${hashes}::bytea[])`;

/**
 * The rows a page of Transactions needs besides `rows`: messages, account states and trace externals.
 * `traceExternals`: the external_hash of every trace of `rows` by trace id (hex), when the caller has the
 * traces' rows already; `messages`: the rows' messages, when the caller read them alongside the rows
 * (messagesOfTraces).
 */
export async function transactionParts(
  sql: SqlReader,
  rows: Transaction[],
  traceExternals?: Map<string, Uint8Array | null>,
  messages?: Promise<TxMessageRow[]>,
): Promise<TransactionParts> {
  if (!rows.length) return { rows, messages: [], states: [], externalOf: new Map() };
  const txHashes = rows.map((t) => bytes(t.hash));
  const stateHashes = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const t of rows) {
    stateHashes.set(hex(t.accountStateHashBefore), bytes(t.accountStateHashBefore));
    stateHashes.set(hex(t.accountStateHashAfter), bytes(t.accountStateHashAfter));
  }
  const traceIds = new Map(rows.flatMap((t) => (t.traceId ? [[hex(t.traceId), bytes(t.traceId)] as const] : [])));
  const [messageRows, states, traces] = await Promise.all([
    messages ?? txMessages(sql, Prisma.sql`m.tx_hash = ANY(${txHashes}::bytea[])`),
    sql.rows<AccountState>(accountStatesQuery([...stateHashes.values()])),
    traceIds.size && !traceExternals
      ? sql.rows<{ traceId: Uint8Array; externalHash: Uint8Array | null }>(Prisma.sql`
          SELECT trace_id AS "traceId", external_hash AS "externalHash" FROM traces WHERE trace_id = ANY(${[...traceIds.values()]}::bytea[])`)
      : [],
  ]);
  return { rows, messages: messageRows, states, externalOf: traceExternals ?? new Map(traces.map((t) => [hex(t.traceId), t.externalHash])) };
}

/**
 * The accounts a transaction list's address_book covers (account, in_msg source, out_msg destinations),
 * from its parts: known before the mapping, so the side maps can be read while it runs.
 */
export function partsAddresses({ rows, messages }: TransactionParts): string[] {
  const out = rows.map((t) => t.account);
  const mine = new Set(rows.map((t) => hex(t.hash)));
  for (const m of messages) {
    if (!mine.has(hex(m.tx_hash))) continue;
    const a = m.direction === 'in' ? m.source : m.destination;
    if (a) out.push(a);
  }
  return out;
}

/** toncenter Transactions of their parts: messages by direction (out by created_lt), states, trace. */
export function mapTransactions({ rows, messages, states, externalOf }: TransactionParts): TransactionJson[] {
  const contents = joinedContents(messages);
  const stateByHash = new Map(states.map((s) => [hex(s.hash), s]));

  const byTx = new Map<string, { in: MessageJson | null; out: { lt: bigint | null; msg: MessageJson }[] }>();
  for (const t of rows) byTx.set(hex(t.hash), { in: null, out: [] });
  for (const m of messages) {
    const slot = byTx.get(hex(m.tx_hash));
    if (!slot) continue;
    const msg = mapMessage(messageRow(m), contents);
    if (m.direction === 'in') slot.in = msg;
    else slot.out.push({ lt: m.created_lt, msg });
  }

  return rows.map((t): TransactionJson => {
    const slot = byTx.get(hex(t.hash))!;
    return transactionJson(t, slot.in, slot.out, {
      traceExternalHash: t.traceId && externalOf.get(hex(t.traceId)) ? b64(externalOf.get(hex(t.traceId))!) : null,
      before: mapAccountState(t.accountStateHashBefore, stateByHash.get(hex(t.accountStateHashBefore))),
      after: mapAccountState(t.accountStateHashAfter, stateByHash.get(hex(t.accountStateHashAfter))),
      emulated: false,
      finality: 'finalized',
    });
  });
}

/** Transaction rows → toncenter Transactions (`traceExternals` as in transactionParts). */
export async function loadTransactions(sql: SqlReader, rows: Transaction[], traceExternals?: Map<string, Uint8Array | null>): Promise<TransactionJson[]> {
  return mapTransactions(await transactionParts(sql, rows, traceExternals));
}

/** A stored transaction row, or an emulated one (pending): no masterchain block yet. */
export type TransactionRowJson = Omit<Transaction, 'mcBlockSeqno'> & { mcBlockSeqno: number | null };

/**
 * v3's Transaction of a row and its mapped messages: stored ones (above) and the emulated ones of
 * pending traces (lib/api/v3/pending-json.ts), which have no trace id yet but name their external message.
 */
export function transactionJson(
  t: TransactionRowJson,
  inMsg: MessageJson | null,
  out: { lt: bigint | null; msg: MessageJson }[],
  o: { traceExternalHash: string | null; before: AccountStateJson; after: AccountStateJson; emulated: boolean; finality: TransactionJson['finality'] },
): TransactionJson {
  // created_lt ascending, a message without one first (toncenter's order).
  const outs = [...out].sort((a, b) => (a.lt === b.lt ? 0 : a.lt === null ? -1 : b.lt === null ? 1 : a.lt < b.lt ? -1 : 1));
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
    description: orderDescription(t.description),
    block_ref: blockId(t.blockWorkchain, t.blockShard, t.blockSeqno),
    in_msg: inMsg,
    out_msgs: outs.map((x) => x.msg),
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
