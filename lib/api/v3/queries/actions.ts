// The `actions` table for the v3 routes: its filters, ordering and SQL (api-v3.md §2.4 /actions), the
// actions of given traces (for /traces?include_actions) and the accounts of actions (action_accounts).
// Rows map to v3's Action in ../action-json.ts.
import type { Action, ActionData } from '../../../actions/model';
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { bytes, hex } from '../encode';
import type { SortOrder } from '../params';

/** An `actions` row as SQL returns it: the classifier's Action columns, hashes as bytes, numerics as decimals. */
export interface ActionRow
  extends Pick<
    Action,
    | 'type'
    | 'start_lt'
    | 'end_lt'
    | 'start_utime'
    | 'end_utime'
    | 'trace_end_lt'
    | 'trace_end_utime'
    | 'trace_mc_seqno_end'
    | 'mc_seqno_end'
    | 'source'
    | 'source_secondary'
    | 'destination'
    | 'destination_secondary'
    | 'asset'
    | 'asset_secondary'
    | 'asset2'
    | 'asset2_secondary'
    | 'success'
    | 'ancestor_type'
  > {
  trace_id: Uint8Array;
  action_id: Uint8Array;
  tx_hashes: Uint8Array[];
  trace_external_hash: Uint8Array | null;
  trace_external_hash_norm: Uint8Array | null;
  value: { toFixed(): string } | null;
  amount: { toFixed(): string } | null;
  opcode: bigint | null;
  parent_action_id: Uint8Array | null;
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
export const findActions = (sql: SqlReader, f: ActionFilter): Promise<ActionRow[]> => sql.rows<ActionRow>(actionsQuery(f));

/**
 * findActions' SQL (queries/actions-plan.test.ts checks its plan for every filter combination). Three
 * shapes: without an account, the actions by the filters' own indexes; an account alone (with ranges and
 * types), a walk of its action_accounts page index in the page's order; an account with a key that
 * bounds the actions (trace_id, tx_hash, msg_hash, mc_seqno), the key's few actions checked against the
 * account's action_accounts entries by primary key — walking a busy account's whole history for the
 * handful of actions of one trace or block is what that avoids.
 */
export function actionsQuery(f: ActionFilter): Prisma.Sql {
  const byId = !!f.traceId?.length || !!f.actionId?.length;
  // An id lookup drops the type filters too: only the client's supported set still applies.
  const cond: Prisma.Sql[] = [visibility(f.supported, byId ? undefined : f.actionType)];
  const account = f.actionId?.length && !f.traceId?.length ? undefined : f.account;
  const keyed = !!f.traceId?.length || (!byId && (!!f.txHash?.length || !!f.msgHash?.length || f.mcSeqno !== undefined));
  // The account's page index drives the query: its columns copy the action's, so the order and the lt
  // range are read off it.
  const walk = account !== undefined && !keyed;
  if (f.traceId?.length) {
    cond.push(Prisma.sql`a.trace_id = ANY(${byteaArray(f.traceId)})`);
  } else if (f.actionId?.length) {
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
    const traceEndLt = Prisma.raw(walk ? 'aa.trace_end_lt' : 'a.trace_end_lt');
    if (f.startLt !== undefined) cond.push(Prisma.sql`${traceEndLt} >= ${f.startLt}::int8`);
    if (f.endLt !== undefined) cond.push(Prisma.sql`${traceEndLt} <= ${f.endLt}::int8`);
    if (f.excludeActionType?.length) cond.push(Prisma.sql`a.type <> ALL(${f.excludeActionType}::text[])`);
  }
  const byTime = !byId && (f.startUtime !== undefined || f.endUtime !== undefined);
  const dir = Prisma.raw(f.sort === 'asc' ? 'ASC' : 'DESC');
  const by = walk && !byTime ? 'aa' : 'a';
  const col = (c: string) => Prisma.raw(`${by}.${c}`);
  const order = byTime
    ? Prisma.sql`a.trace_end_utime ${dir}, a.trace_id ${dir}, a.end_utime ${dir}, a.action_id ${dir}`
    : Prisma.sql`${col('trace_end_lt')} ${dir}, ${col('trace_id')} ${dir}, ${col('end_lt')} ${dir}, ${col('action_id')} ${dir}`;
  if (account !== undefined && !walk) {
    cond.push(Prisma.sql`EXISTS (SELECT 1 FROM action_accounts aa WHERE aa.account = ${account} AND aa.trace_id = a.trace_id AND aa.action_id = a.action_id)`);
  }
  if (walk) cond.push(Prisma.sql`aa.account = ${account}`);
  // Walking: each action looked up by its key from the account's index entry; OFFSET 0 keeps the planner
  // from flattening the lookup into a join, whose row count it estimates at ~1 (it takes trace_id and
  // action_id as independent), which makes sorting all of a busy account's actions look free.
  const from = walk
    ? Prisma.sql`action_accounts aa CROSS JOIN LATERAL (SELECT * FROM actions a WHERE a.trace_id = aa.trace_id AND a.action_id = aa.action_id OFFSET 0) a`
    : Prisma.sql`actions a`;
  return Prisma.sql`
    SELECT ${COLUMNS} FROM ${from} WHERE ${Prisma.join(cond, ' AND ')}
    ORDER BY ${order} LIMIT ${f.take} OFFSET ${f.skip}`;
}

/** actionsOfTraces' SQL (exported for the plan test); `supported` null: every action, nested ones too. */
export const traceActionsQuery = (traceIds: Uint8Array[], supported: string[] | null): Prisma.Sql => Prisma.sql`
  SELECT ${COLUMNS} FROM actions a WHERE a.trace_id = ANY(${traceIds.map(bytes)}::bytea[]) AND ${supported ? visibility(supported, undefined) : Prisma.sql`TRUE`}
  ORDER BY a.start_lt, a.end_lt, a.action_id`;

/**
 * The visible actions of each trace, ordered start_lt, end_lt (as /traces lists them), by trace (hex).
 * `supported` null: all of them (the Streaming API filters per subscriber, by each row's ancestor_type).
 */
export async function actionsOfTraces(sql: SqlReader, traceIds: Uint8Array[], supported: string[] | null): Promise<Map<string, ActionRow[]>> {
  const out = new Map<string, ActionRow[]>();
  if (!traceIds.length) return out;
  for (const r of await sql.rows<ActionRow>(traceActionsQuery(traceIds, supported))) out.set(hex(r.trace_id), [...(out.get(hex(r.trace_id)) ?? []), r]);
  return out;
}

type ActionKey = { trace_id: Uint8Array; action_id: Uint8Array };

/** accountsOfActions' SQL: the action_accounts rows of these actions (by the (trace_id, action_id) index), by account. */
export const actionAccountsQuery = (keys: ActionKey[]): Prisma.Sql => Prisma.sql`
  SELECT aa.trace_id, aa.action_id, aa.account FROM action_accounts aa
  WHERE (aa.trace_id, aa.action_id) IN (SELECT * FROM unnest(${keys.map((k) => bytes(k.trace_id))}::bytea[], ${keys.map((k) => bytes(k.action_id))}::bytea[]))
  ORDER BY aa.account`;

/** The accounts of each action (action_accounts), by trace+action key (actionKey), each list in account order. */
export async function accountsOfActions(sql: SqlReader, rows: ActionRow[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!rows.length) return out;
  for (const f of await sql.rows<ActionKey & { account: string }>(actionAccountsQuery(rows))) {
    const k = actionKey(f);
    out.set(k, [...(out.get(k) ?? []), f.account]);
  }
  return out;
}

/** The trace an action belongs to (balanceChanges by action_id alone), null when none is stored. */
export async function traceOfAction(sql: SqlReader, actionId: Uint8Array): Promise<Uint8Array | null> {
  const rows = await sql.rows<{ trace_id: Uint8Array }>(traceOfActionQuery(actionId));
  return rows[0]?.trace_id ?? null;
}

/** traceOfAction's SQL (exported for the plan test). */
export const traceOfActionQuery = (actionId: Uint8Array): Prisma.Sql => Prisma.sql`SELECT a.trace_id FROM actions a WHERE a.action_id = ${actionId} LIMIT 1`;

export const actionKey = (r: ActionKey) => `${hex(r.trace_id)}/${hex(r.action_id)}`;
