// Classifies complete traces and stores their actions (lib/actions classify → `actions` and the
// per-account index `action_accounts`), recording the classifier version on the trace so `npm run
// reclassify` can redo traces an older classifier produced. Runs inside the caller's database
// transaction: the block that completes a trace stores its actions with it.
import { classify } from '../actions/classify';
import { CLASSIFIER_VERSION, type AccountInterfaces, type Action, type ActionValue, type Trace } from '../actions/model';
import { log } from '../log';
import { Prisma } from '../db/generated/client';
import { insertItem, insertRows, byteaList, run, runWith, writeMode, type Row, type TableRows, type Tx } from './sql';
import { addressInterfaces, batchTraces, loadTraces } from './trace-input';
import type { ClassificationState, TraceAssembly, TraceHead } from './traces';
import type { MessageRecord, TransactionRecord } from '../chain/records';

/** The batch being stored, for the traces it holds whole (TraceAssembly.whole). */
export interface BatchTraces extends Pick<TraceAssembly, 'traceOf' | 'whole'> {
  transactions: TransactionRecord[];
  messages: MessageRecord[];
  /** Message contents (BoCs) by hash (hex). */
  bodies: Map<string, Buffer>;
}

const ACTION_COLUMNS = [
  'trace_id', 'action_id', 'type', 'tx_hashes', 'start_lt', 'end_lt', 'start_utime', 'end_utime', 'trace_end_lt', 'trace_end_utime',
  'trace_mc_seqno_end', 'mc_seqno_end', 'trace_external_hash', 'trace_external_hash_norm', 'source', 'source_secondary', 'destination',
  'destination_secondary', 'asset', 'asset_secondary', 'asset2', 'asset2_secondary', 'value', 'amount', 'opcode', 'success',
  'parent_action_id', 'ancestor_type', 'data',
] as const;
const ACCOUNT_COLUMNS = ['account', 'trace_id', 'action_id', 'trace_end_lt', 'end_lt'] as const;

const bytea = (b64: string) => `\\x${Buffer.from(b64, 'base64').toString('hex')}`;
const optDec = (v: bigint | null) => (v === null ? null : v.toString());

/** The *_data objects as JSON: bigints as decimal strings (amounts are strings in JSON). */
export function dataJson(v: ActionValue | undefined): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(dataJson);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, dataJson(x as ActionValue)]));
  return v ?? null;
}

function actionRow(a: Action, trace: Trace, norm: string | null): Row {
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) if (k.endsWith('_data') && v !== undefined) data[k] = dataJson(v as ActionValue);
  return {
    trace_id: bytea(a.trace_id),
    action_id: bytea(a.action_id),
    type: a.type,
    tx_hashes: a.tx_hashes.map(bytea),
    start_lt: a.start_lt.toString(),
    end_lt: a.end_lt.toString(),
    start_utime: a.start_utime,
    end_utime: a.end_utime,
    trace_end_lt: a.trace_end_lt.toString(),
    trace_end_utime: a.trace_end_utime,
    trace_mc_seqno_end: a.trace_mc_seqno_end,
    mc_seqno_end: a.mc_seqno_end,
    trace_external_hash: trace.externalHash ? bytea(trace.externalHash) : null,
    trace_external_hash_norm: norm ? bytea(norm) : null,
    source: a.source,
    source_secondary: a.source_secondary,
    destination: a.destination,
    destination_secondary: a.destination_secondary,
    asset: a.asset,
    asset_secondary: a.asset_secondary,
    asset2: a.asset2,
    asset2_secondary: a.asset2_secondary,
    value: optDec(a.value),
    amount: optDec(a.amount),
    opcode: a.opcode,
    success: a.success,
    parent_action_id: a.parent_action_id ? bytea(a.parent_action_id) : null,
    ancestor_type: a.ancestor_type ?? [],
    data,
  };
}

/** Every address a trace touches: whose interfaces the classifier may ask for. */
export function addressesOf(trace: Trace): string[] {
  const s = new Set<string>();
  for (const t of trace.transactions) {
    s.add(t.account);
    for (const m of [t.inMsg, ...t.outMsgs]) {
      if (m?.source) s.add(m.source);
      if (m?.destination) s.add(m.destination);
    }
  }
  return [...s];
}

/** The rows classification produced: actions, their accounts, and each trace's classification_state. */
export interface Classified {
  actions: Row[];
  accounts: Row[];
  /** classification_state by trace_id (hex) */
  states: Map<string, ClassificationState>;
}

/** Runs the classifier on traces (interfaces as the index knows them now); `norms`: external_hash_norm by trace_id (base64). */
function classifyAll(traces: Trace[], interfaces: Map<string, AccountInterfaces>, norms: Map<string, string | null>): Classified {
  const out: Classified = { actions: [], accounts: [], states: new Map() };
  for (const trace of traces) {
    const id = Buffer.from(trace.traceId, 'base64').toString('hex');
    let found: Action[];
    try {
      found = classify(trace, interfaces);
    } catch (err) {
      log.warn({ err, trace_id: trace.traceId }, 'classifier failed on a trace');
      out.states.set(id, 'failed');
      continue;
    }
    out.states.set(id, 'ok');
    for (const a of found) {
      out.actions.push(actionRow(a, trace, norms.get(trace.traceId) ?? null));
      for (const account of new Set(a.accounts)) {
        out.accounts.push({ account, trace_id: bytea(a.trace_id), action_id: bytea(a.action_id), trace_end_lt: a.trace_end_lt.toString(), end_lt: a.end_lt.toString() });
      }
    }
  }
  return out;
}

/**
 * Classifies traces wholly in the batch being stored, from its records (nothing of them is read back):
 * before their trace rows are written, so those are inserted classified (traces.ts wholeNewTraces).
 * Call once the batch's states and derived token tables are written: the interfaces are read from them.
 */
export async function classifyBatchTraces(tx: Tx, heads: TraceHead[], batch: Omit<BatchTraces, 'whole'>): Promise<Classified> {
  if (heads.length === 0) return { actions: [], accounts: [], states: new Map() };
  const traces = batchTraces(heads, batch.traceOf, batch.transactions, batch.messages, batch.bodies);
  const norms = new Map(heads.map((h) => [h.traceId.toString('base64'), h.externalHashNorm?.toString('base64') ?? null]));
  return classifyAll(traces, await addressInterfaces(tx, [...new Set(traces.flatMap(addressesOf))]), norms);
}

/** The actions and action_accounts rows of classified traces. */
export const actionTables = (c: Pick<Classified, 'actions' | 'accounts'>): TableRows[] => [
  { table: 'actions', columns: ACTION_COLUMNS, rows: c.actions },
  { table: 'action_accounts', columns: ACCOUNT_COLUMNS, rows: c.accounts },
];

/** Inserts the actions of traces classified before their rows were written (only those `kept`: trace_id hex). */
export async function insertActions(tx: Tx, c: Classified, kept: Set<string>): Promise<void> {
  const ofKept = (r: Row) => kept.has(String(r.trace_id).slice(2));
  for (const t of actionTables({ actions: c.actions.filter(ofKept), accounts: c.accounts.filter(ofKept) })) await insertRows(tx, t);
}

/**
 * Classifies the given traces and replaces their stored actions. A classifier error marks the trace
 * `failed` (logged) instead of losing the block: the chain data is what must be stored. `unclassified`:
 * the traces were never classified (the indexer's completed traces), so there are no actions to replace.
 */
export async function classifyTraces(tx: Tx, traceIds: Buffer[], batch?: BatchTraces, o: { unclassified?: boolean } = {}): Promise<void> {
  if (traceIds.length === 0) return;
  // Traces wholly in the batch being stored come from its records; the others are read back.
  const whole = batch?.whole ?? new Map<string, TraceHead>();
  const stored = traceIds.filter((id) => !whole.has(id.toString('hex')));
  const norms = new Map<string, string | null>([...whole.values()].map((h) => [h.traceId.toString('base64'), h.externalHashNorm?.toString('base64') ?? null]));
  const traces = [
    ...(batch ? batchTraces(whole.values(), batch.traceOf, batch.transactions, batch.messages, batch.bodies) : []),
    ...(await loadTraces(tx, stored, norms)),
  ];
  const interfaces = await addressInterfaces(tx, [...new Set(traces.flatMap(addressesOf))]);
  const classified = classifyAll(traces, interfaces, norms);
  const stateRows = [...classified.states].map(([id, state]) => ({ trace_id: `\\x${id}`, classification_state: state }));
  const setStates = Prisma.sql`
    UPDATE traces SET classification_state = s.classification_state, classifier_version = ${CLASSIFIER_VERSION}
    FROM json_populate_recordset(NULL::traces, ${JSON.stringify(stateRows)}::json) AS s WHERE traces.trace_id = s.trace_id`;
  // Only stored traces that were classified before can have actions to replace (reclassified): a trace
  // wholly in this batch was never stored, and one that was never classified (`unclassified`, its
  // classifier_version NULL: actions and the version are written together) has none. Deleting nothing
  // costs an index probe per trace, a twentieth of the indexer's time on a busy chain.
  const replaced = o.unclassified ? [] : stored;
  if (writeMode.statementPerTable) {
    if (replaced.length > 0) {
      const ids = byteaList(replaced);
      await run(tx, Prisma.sql`DELETE FROM action_accounts WHERE trace_id IN ${ids}`);
      await run(tx, Prisma.sql`DELETE FROM actions WHERE trace_id IN ${ids}`);
    }
    for (const t of actionTables(classified)) await insertRows(tx, t);
    await run(tx, setStates);
    return;
  }
  // Two statements: the old actions deleted, then the new ones and the traces' states (an INSERT in the
  // DELETE's statement would not see the rows it deletes gone).
  if (replaced.length > 0) {
    const ids = byteaList(replaced);
    await run(tx, Prisma.sql`WITH d AS (DELETE FROM action_accounts WHERE trace_id IN ${ids}) DELETE FROM actions WHERE trace_id IN ${ids}`);
  }
  const inserts = actionTables(classified).filter((t) => t.rows.length > 0);
  await runWith(tx, [...inserts.map((t, i) => insertItem(`a${i}`, t)), Prisma.sql`st AS (${setStates})`], Prisma.sql`SELECT 1 AS done`);
}
