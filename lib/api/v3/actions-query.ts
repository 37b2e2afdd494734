// The `actions` table for the v3 routes: its filters, ordering and SQL (api-v3.md §2.4 /actions), the
// actions of given traces (for /traces?include_actions), and the mapping of a stored row to v3's Action
// (details by lib/actions/details.ts).
import { actionDetails } from '../../actions/details';
import { toJson } from '../../actions/json';
import type { Action, ActionData } from '../../actions/model';
import { Prisma, type PrismaClient } from '../../db/generated/client';
import { b64, bytes, hex } from './encode';
import type { ActionJson, TransactionJson } from './models';
import type { SortOrder } from './params';
import type { SqlReader } from '../../db/sql';

export interface ActionRow {
  trace_id: Uint8Array;
  action_id: Uint8Array;
  type: string;
  tx_hashes: Uint8Array[];
  start_lt: bigint;
  end_lt: bigint;
  start_utime: number;
  end_utime: number;
  trace_end_lt: bigint;
  trace_end_utime: number;
  trace_mc_seqno_end: number;
  mc_seqno_end: number;
  trace_external_hash: Uint8Array | null;
  trace_external_hash_norm: Uint8Array | null;
  source: string | null;
  source_secondary: string | null;
  destination: string | null;
  destination_secondary: string | null;
  asset: string | null;
  asset_secondary: string | null;
  asset2: string | null;
  asset2_secondary: string | null;
  value: { toFixed(): string } | null;
  amount: { toFixed(): string } | null;
  opcode: bigint | null;
  success: boolean;
  parent_action_id: Uint8Array | null;
  ancestor_type: string[] | null;
  data: Record<string, ActionData>;
}

const COLUMNS = Prisma.sql`a.trace_id, a.action_id, a.type, a.tx_hashes, a.start_lt, a.end_lt, a.start_utime, a.end_utime, a.trace_end_lt,
  a.trace_end_utime, a.trace_mc_seqno_end, a.mc_seqno_end, a.trace_external_hash, a.trace_external_hash_norm, a.source, a.source_secondary,
  a.destination, a.destination_secondary, a.asset, a.asset_secondary, a.asset2, a.asset2_secondary, a.value, a.amount, a.opcode, a.success,
  a.parent_action_id, a.ancestor_type, a.data`;

export interface ActionFilter {
  account?: string;
  txHash?: Buffer[];
  msgHash?: Buffer[];
  actionId?: Buffer[];
  traceId?: Buffer[];
  mcSeqno?: number;
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
  /** Only these types (replaces the supported set as the type filter). */
  actionType?: string[];
  excludeActionType?: string[];
  /** The client's supported types (action-types.ts). */
  supported: string[];
  take: number;
  skip: number;
  sort: SortOrder;
}

const byteaArray = (bufs: Buffer[]) => Prisma.sql`${bufs.map(bytes)}::bytea[]`;

/** Shown to this client: a supported type (or one asked for) and no supported type above it. */
function visibility(supported: string[], actionType: string[] | undefined): Prisma.Sql {
  const types = actionType?.length ? actionType : supported;
  return Prisma.sql`a.type = ANY(${types}::text[]) AND NOT (coalesce(a.ancestor_type, '{}') && ${supported}::text[])`;
}

/**
 * /actions. trace_id discards every other filter but account; action_id discards account, tx, msg,
 * time, type and mc_seqno filters (toncenter's precedence).
 */
export function findActions(prisma: PrismaClient, f: ActionFilter): Promise<ActionRow[]> {
  return prisma.$queryRaw<ActionRow[]>(actionsQuery(f));
}

/** findActions' SQL (account-pages-plan.test.ts checks its plan). */
export function actionsQuery(f: ActionFilter): Prisma.Sql {
  const byId = !!f.traceId?.length || !!f.actionId?.length;
  // An id lookup drops the type filters too: only the client's supported set still applies.
  const cond: Prisma.Sql[] = [visibility(f.supported, byId ? undefined : f.actionType)];
  let account = f.account;
  if (f.traceId?.length) {
    cond.push(Prisma.sql`a.trace_id = ANY(${byteaArray(f.traceId)})`);
  } else if (f.actionId?.length) {
    account = undefined;
    cond.push(Prisma.sql`a.action_id = ANY(${byteaArray(f.actionId)})`);
  } else {
    if (f.txHash?.length) {
      // Through the transactions' trace_id (an index), then the action's own transactions.
      const hs = byteaArray(f.txHash);
      cond.push(Prisma.sql`a.trace_id IN (SELECT trace_id FROM transactions WHERE hash = ANY(${hs})) AND a.tx_hashes && ${hs}`);
    }
    if (f.msgHash?.length) {
      const hs = byteaArray(f.msgHash);
      cond.push(Prisma.sql`a.trace_id IN (SELECT trace_id FROM messages WHERE msg_hash = ANY(${hs}) OR msg_hash_norm = ANY(${hs}))
        AND a.tx_hashes && ARRAY(SELECT tx_hash FROM messages WHERE msg_hash = ANY(${hs}) OR msg_hash_norm = ANY(${hs}))`);
    }
    if (f.mcSeqno !== undefined) cond.push(Prisma.sql`a.trace_mc_seqno_end = ${f.mcSeqno}`);
    if (f.startUtime !== undefined) cond.push(Prisma.sql`a.trace_end_utime >= ${f.startUtime}::int8`);
    if (f.endUtime !== undefined) cond.push(Prisma.sql`a.trace_end_utime <= ${f.endUtime}::int8`);
    // The same column, on action_accounts with an account: a range of its index.
    const traceEndLt = Prisma.raw(account ? 'aa.trace_end_lt' : 'a.trace_end_lt');
    if (f.startLt !== undefined) cond.push(Prisma.sql`${traceEndLt} >= ${f.startLt}::int8`);
    if (f.endLt !== undefined) cond.push(Prisma.sql`${traceEndLt} <= ${f.endLt}::int8`);
    if (f.excludeActionType?.length) cond.push(Prisma.sql`a.type <> ALL(${f.excludeActionType}::text[])`);
  }
  const byTime = !byId && (f.startUtime !== undefined || f.endUtime !== undefined);
  const dir = Prisma.raw(f.sort === 'asc' ? 'ASC' : 'DESC');
  // With an account, the lt order is read off action_accounts' (account, trace_end_lt, trace_id, end_lt,
  // action_id) index, whose columns copy the action's: a page of a busy account walks that index and
  // looks up only the page's actions instead of sorting every action of the account.
  const by = account && !byTime ? 'aa' : 'a';
  const col = (c: string) => Prisma.raw(`${by}.${c}`);
  const order = byTime
    ? Prisma.sql`a.trace_end_utime ${dir}, a.trace_id ${dir}, a.end_utime ${dir}, a.action_id ${dir}`
    : Prisma.sql`${col('trace_end_lt')} ${dir}, ${col('trace_id')} ${dir}, ${col('end_lt')} ${dir}, ${col('action_id')} ${dir}`;
  // Each action looked up by its key from the account's index entry; OFFSET 0 keeps the planner from
  // flattening the lookup into a join, whose row count it estimates at ~1 (it takes trace_id and
  // action_id as independent), which makes sorting all of a busy account's actions look free.
  const from = account
    ? Prisma.sql`action_accounts aa CROSS JOIN LATERAL (SELECT * FROM actions a WHERE a.trace_id = aa.trace_id AND a.action_id = aa.action_id OFFSET 0) a`
    : Prisma.sql`actions a`;
  if (account) cond.push(Prisma.sql`aa.account = ${account}`);
  return Prisma.sql`
    SELECT ${COLUMNS} FROM ${from} WHERE ${Prisma.join(cond, ' AND ')}
    ORDER BY ${order} LIMIT ${f.take} OFFSET ${f.skip}`;
}

/** The visible actions of each trace, ordered start_lt, end_lt (as /traces lists them), by trace (hex). */
export async function actionsOfTraces(sql: SqlReader, traceIds: Uint8Array[], supported: string[]): Promise<Map<string, ActionRow[]>> {
  const out = new Map<string, ActionRow[]>();
  if (!traceIds.length) return out;
  const rows = await sql.rows<ActionRow>(Prisma.sql`
    SELECT ${COLUMNS} FROM actions a WHERE a.trace_id = ANY(${traceIds.map(bytes)}::bytea[]) AND ${visibility(supported, undefined)}
    ORDER BY a.start_lt, a.end_lt, a.action_id`);
  for (const r of rows) out.set(hex(r.trace_id), [...(out.get(hex(r.trace_id)) ?? []), r]);
  return out;
}

/** The accounts of each action (action_accounts), by trace+action key. */
export async function accountsOfActions(prisma: PrismaClient, rows: ActionRow[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!rows.length) return out;
  const found = await prisma.$queryRaw<{ trace_id: Uint8Array; action_id: Uint8Array; account: string }[]>(Prisma.sql`
    SELECT trace_id, action_id, account FROM action_accounts
    WHERE trace_id = ANY(${rows.map((r) => bytes(r.trace_id))}::bytea[])
    ORDER BY account`);
  const wanted = new Set(rows.map(actionKey));
  for (const f of found) {
    const k = actionKey(f);
    if (wanted.has(k)) out.set(k, [...(out.get(k) ?? []), f.account]);
  }
  return out;
}

export const actionKey = (r: { trace_id: Uint8Array; action_id: Uint8Array }) => `${hex(r.trace_id)}/${hex(r.action_id)}`;

// toFixed, not toString: a Decimal's toString turns to exponent notation from 1e21 ("1e+30"), which BigInt
// refuses; jetton amounts reach that (a transfer may ask for any uint120, a 30-digit one included).
const big = (v: { toFixed(): string } | null) => (v === null ? null : BigInt(v.toFixed()));

/** A stored row as the classifier's record (what details.ts maps). */
export function actionRecord(r: ActionRow): Action {
  return {
    type: r.type,
    action_id: b64(r.action_id),
    trace_id: b64(r.trace_id),
    tx_hashes: r.tx_hashes.map(b64),
    accounts: [],
    start_lt: BigInt(r.start_lt),
    end_lt: BigInt(r.end_lt),
    start_utime: r.start_utime,
    end_utime: r.end_utime,
    trace_end_lt: BigInt(r.trace_end_lt),
    trace_end_utime: r.trace_end_utime,
    trace_mc_seqno_end: r.trace_mc_seqno_end,
    mc_seqno_end: r.mc_seqno_end,
    source: r.source,
    source_secondary: r.source_secondary,
    destination: r.destination,
    destination_secondary: r.destination_secondary,
    asset: r.asset,
    asset_secondary: r.asset_secondary,
    asset2: r.asset2,
    asset2_secondary: r.asset2_secondary,
    value: big(r.value),
    amount: big(r.amount),
    opcode: r.opcode === null ? null : Number(r.opcode),
    success: r.success,
    parent_action_id: r.parent_action_id ? b64(r.parent_action_id) : null,
    ancestor_type: r.ancestor_type?.length ? r.ancestor_type : null,
    ...r.data,
  };
}

/** v3's Action (api-v3.md §3.6) of a stored row. */
export function actionJson(r: ActionRow, extra: { accounts?: string[]; transactions?: TransactionJson[] } = {}): ActionJson {
  return actionRecordJson(actionRecord(r), {
    ...extra,
    traceExternalHash: r.trace_external_hash ? b64(r.trace_external_hash) : null,
    traceExternalHashNorm: r.trace_external_hash_norm ? b64(r.trace_external_hash_norm) : null,
    finality: 'finalized',
  });
}

export interface ActionJsonExtra {
  accounts?: string[];
  transactions?: TransactionJson[];
  traceExternalHash: string | null;
  traceExternalHashNorm: string | null;
  finality: ActionJson['finality'];
  /** Pending traces whose root is still emulated have no trace id yet. */
  noTraceId?: boolean;
}

/**
 * v3's Action of a classifier record, stored or fresh from a pending trace. Types without a details
 * mapping carry the record as raw_action.
 */
export function actionRecordJson(record: Action, extra: ActionJsonExtra): ActionJson {
  const details = actionDetails(record);
  return {
    trace_id: extra.noTraceId ? null : record.trace_id,
    action_id: record.action_id,
    start_lt: String(record.start_lt),
    end_lt: String(record.end_lt),
    start_utime: record.start_utime,
    end_utime: record.end_utime,
    trace_end_lt: String(record.trace_end_lt),
    trace_end_utime: record.trace_end_utime,
    trace_mc_seqno_end: record.trace_mc_seqno_end,
    transactions: record.tx_hashes,
    success: record.success,
    type: record.type,
    details,
    ...('error' in details ? { raw_action: toJson(record) as Record<string, unknown> } : {}),
    ...(extra.traceExternalHash ? { trace_external_hash: extra.traceExternalHash } : {}),
    ...(extra.traceExternalHashNorm ? { trace_external_hash_norm: extra.traceExternalHashNorm } : {}),
    ...(extra.accounts ? { accounts: extra.accounts } : {}),
    ...(extra.transactions ? { transactions_full: extra.transactions } : {}),
    finality: extra.finality,
  };
}

const RAW_ADDRESS = /^-?\d+:[0-9A-F]{64}$/;

/** Every address an action names (its columns and any address inside its details), for the side maps. */
export function actionAddresses(actions: ActionJson[]): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      if (RAW_ADDRESS.test(v)) out.push(v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const a of actions) walk(a.details);
  return out;
}
