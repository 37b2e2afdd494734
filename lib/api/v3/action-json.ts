// Stored and pending actions as v3's Action (api-v3.md §3.6): a stored row (queries/actions.ts) or a
// classifier record (lib/actions, pending traces) mapped with its details (lib/actions/details.ts).
import { actionDetails } from '../../actions/details';
import { toJson } from '../../actions/json';
import type { Action } from '../../actions/model';
import { b64 } from './encode';
import type { ActionJson } from './models/actions';
import type { TransactionJson } from './models/transactions';
import type { ActionRow } from './queries/actions';

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
