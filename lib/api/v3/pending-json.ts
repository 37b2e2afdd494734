// A pending-store entry as v3 shows it (api-v3.md §3.2, §3.5, §3.6, §4.3): its emulated transactions
// (`emulated: true`, finality `pending`, `trace_external_hash`, no trace id), the trace (state `pending`,
// counters from its nodes, mc_seqno_start "0") and its actions, through the same mappers as stored data.
import { Cell } from '@ton/core';
import { Prisma } from '../../db/generated/client';
import { actionRecordJson } from './action-json';
import { bytes } from './encode';
import { mapAccountState, mapMessage, orderDescription, type MessageRowLike } from './mappers';
import type { ActionJson } from './models/actions';
import type { MessageJson } from './models/messages';
import type { TraceJson } from './models/traces';
import type { TransactionJson } from './models/transactions';
import { traceTree } from './trace-json';
import { traceSummary } from './trace-summary';
import { byCreatedLt, transactionJson, type TransactionRowJson } from './queries/transactions-load';
import type { MessageRecord } from '../../chain/records';
import { decodeAction, parseEmulated, type PendingEntry } from '../../pending';

const decimal = (v: bigint | null) => (v === null ? null : new Prisma.Decimal(v.toString()));

function messageRow(m: MessageRecord): MessageRowLike {
  return {
    msgHash: bytes(m.msgHash),
    source: m.source,
    destination: m.destination,
    value: decimal(m.value),
    valueExtraCurrencies: m.valueExtraCurrencies,
    fwdFee: decimal(m.fwdFee),
    ihrFee: decimal(m.ihrFee),
    extraFlags: decimal(m.extraFlags),
    createdLt: m.createdLt,
    createdAt: m.createdAt,
    opcode: m.opcode,
    ihrDisabled: m.ihrDisabled,
    bounce: m.bounce,
    bounced: m.bounced,
    importFee: decimal(m.importFee),
    bodyHash: bytes(m.bodyHash),
    initStateHash: m.initStateHash && bytes(m.initStateHash),
    msgHashNorm: m.msgHashNorm && bytes(m.msgHashNorm),
  };
}

/** The entry's transactions in the order they ran: emulated, or confirmed in their shard blocks. */
export function emulatedTransactions(entry: PendingEntry): TransactionJson[] {
  const confirmed = entry.finality === 'confirmed';
  return entry.transactions.map((boc, i) => {
    const { transaction: t, messages, contents } = parseEmulated(Cell.fromBase64(boc), entry.blocks?.[i]);
    const bodies = new Map(contents.map((c) => [c.hash.toString('hex'), c.cell.toBoc().toString('base64')]));
    const row: TransactionRowJson = {
      ...t,
      hash: bytes(t.hash),
      prevTransHash: bytes(t.prevTransHash),
      accountStateHashBefore: bytes(t.accountStateHashBefore),
      accountStateHashAfter: bytes(t.accountStateHashAfter),
      traceId: null, totalFees: new Prisma.Decimal(t.totalFees.toString()), description: t.description as unknown as Prisma.JsonValue };
    let inMsg: MessageJson | null = null;
    const out: { lt: bigint | null; msg: MessageJson }[] = [];
    for (const m of messages) {
      const msg = mapMessage(messageRow(m), bodies);
      if (m.direction === 'in') inMsg = msg;
      else out.push({ lt: m.createdLt, msg });
    }
    return transactionJson(row, { inMsg, outMsgs: byCreatedLt(out), description: orderDescription(row.description) }, {
      traceExternalHash: entry.externalHash,
      before: mapAccountState(t.accountStateHashBefore, undefined),
      after: mapAccountState(t.accountStateHashAfter, undefined),
      emulated: !confirmed,
      finality: confirmed ? 'confirmed' : 'pending',
    });
  });
}

/** Shown to this client: a supported type none of whose enclosing actions is of a supported type (as queries/actions.ts). */
const visible = (supported: Set<string>) => (a: { action: ActionJson; ancestors: string[] }) => supported.has(a.action.type) && !a.ancestors.some((t) => supported.has(t));

const cmp = (x: bigint, y: bigint) => (x < y ? -1 : x > y ? 1 : 0);

/**
 * Every action of the entry in start_lt, end_lt order, with its accounts and the types of the actions
 * enclosing it (what a client's supported_action_types filters on).
 */
export function entryActions(entry: PendingEntry, opts: { transactions?: TransactionJson[] } = {}): { action: ActionJson & { accounts: string[] }; ancestors: string[] }[] {
  if (!entry.actions) return [];
  const byHash = opts.transactions ? new Map(opts.transactions.map((t) => [t.hash, t])) : null;
  return entry.actions
    .map((j) => decodeAction(j))
    .sort((a, b) => cmp(a.start_lt, b.start_lt) || cmp(a.end_lt, b.end_lt))
    .map((record) => ({
      action: {
        ...actionRecordJson(record, {
          traceExternalHash: entry.externalHash,
          traceExternalHashNorm: entry.externalHashNorm,
          finality: entry.finality ?? 'pending',
          noTraceId: true,
          accounts: record.accounts,
          transactions: byHash ? record.tx_hashes.map((h) => byHash.get(h)).filter((t) => t !== undefined) : undefined,
        }),
        accounts: record.accounts,
      },
      ancestors: record.ancestor_type ?? [],
    }));
}

/** The entry's actions a client with these supported types sees, in start_lt, end_lt order. */
export function pendingActions(entry: PendingEntry, supported: string[], opts: { transactions?: TransactionJson[] } = {}): ActionJson[] {
  return entryActions(entry, opts).filter(visible(new Set(supported))).map((a) => a.action);
}

/** v3's Trace of a pending entry, with its transactions, tree and (always) actions. */
export function pendingTraceJson(entry: PendingEntry, supported: string[]): TraceJson {
  const txs = emulatedTransactions(entry);
  const { counters, ...span } = traceSummary(txs);
  const tree = traceTree(txs);
  const out: TraceJson = {
    trace_id: null,
    external_hash: entry.externalHash,
    mc_seqno_start: '0',
    mc_seqno_end: '0',
    ...span,
    trace_info: { trace_state: 'pending', ...counters, classification_state: entry.actions ? 'ok' : 'unclassified' },
    is_incomplete: false,
    ...(tree.missing || entry.truncated ? { warning: [tree.missing ? 'missing node in trace found' : '', entry.truncated ? 'emulation stopped at its bounds' : ''].filter(Boolean).join(', ') } : {}),
    actions: pendingActions(entry, supported),
  };
  if (tree.root) {
    out.trace = tree.root;
    out.transactions_order = tree.order;
    out.transactions = Object.fromEntries(txs.map((t) => [t.hash, t]));
  }
  return out;
}

/** Newest first (api-v3.md §4.3: traces by end_lt desc; emulated lts are not comparable across traces, so by time). */
export const newestFirst = (a: PendingEntry, b: PendingEntry) => b.createdAt - a.createdAt;

