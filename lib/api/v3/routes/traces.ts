// Trace and action routes (api-v3.md §2.4): traces, events (traces with actions, under `events`),
// actions and balanceChanges. The SQL lives in the query modules (queries/traces.ts, queries/actions.ts,
// queries/balance-changes.ts); these handlers check the parameters and assemble the answers.
import { z } from 'zod';
import { actionAddresses, actionJson } from '../action-json';
import { newTransactionsPerRow, requireWithinBudget } from '../answer-budget';
import { heavyRead, letIoIn } from '../heavy-reads';
import { invalidActionTypeParam, supportedActionTypes } from '../action-types';
import type { V3Context } from '../context';
import { b64, bytes, hex } from '../encode';
import { notFound, unprocessable, V3Error } from '../errors';
import { ActionsResponse } from '../models/actions';
import { BalanceChanges, EventsResponse, type TraceJson, TracesResponse } from '../models/traces';
import type { TransactionJson } from '../models/transactions';
import { limitParams, ltParams, p, page, sortOrder, unspace, utimeParams } from '../params';
import { accountsOfActions, actionKey, findActions, traceOfAction, type ActionRow } from '../queries/actions';
import { balanceChanges } from '../queries/balance-changes';
import { transactionsWhere } from '../queries/transactions';
import { defineRoute } from '../route';
import { sideMaps } from '../queries/side-maps';
import { findTraces, type TraceRow } from '../queries/traces';
import { traceJson } from '../trace-json';
import { loadTransactions, mapTransactionsInTurns, partsAddresses, transactionAddresses } from '../queries/transactions-load';
import { traceParts, transactionsByTrace } from '../queries/trace-parts';
import { traceCacheKey, type CachedTrace } from '../trace-cache';
import { bounds, requireMasterchainBlock } from './common';

const supportedParam = () => ({
  supported_action_types: p.strings('Action types the client understands: types, versions (v1…v4, latest) or groups (jettons, nft, dns, …); default latest. Header X-Actions-Version replaces it.'),
});

const traceQuery = z.object({
  account: p.address('Traces with a transaction on this account.'),
  trace_id: p.hashes('Trace ids (hash of the root transaction).'),
  tx_hash: p.hashes('Traces containing these transactions.'),
  msg_hash: p.hashes('Traces containing these messages (hash or normalized hash).'),
  mc_seqno: p.int32('Complete traces that ended in this masterchain block (404 if that block is not indexed).'),
  ...utimeParams('the trace\'s end_utime'),
  ...ltParams('the trace\'s end_lt'),
  include_actions: p.bool('Add each trace\'s actions.', false),
  ...supportedParam(),
  ...limitParams(),
});

async function traceAnswer(q: z.output<typeof traceQuery>, ctx: V3Context, withActions: boolean) {
  const keys = [q.account !== undefined, !!q.trace_id?.length, !!q.tx_hash?.length, !!q.msg_hash?.length].filter(Boolean).length;
  if (keys > 1) throw unprocessable('only one of account, trace_id, tx_hash, msg_hash should be specified');
  const { take, skip } = page(q);
  const sort = sortOrder(q.sort);
  if (q.mc_seqno !== undefined) await requireMasterchainBlock(ctx.sql, q.mc_seqno);
  const rows = await findTraces(ctx.sql, {
    account: q.account,
    traceId: q.trace_id,
    txHash: q.tx_hash,
    msgHash: q.msg_hash,
    mcSeqno: q.mc_seqno,
    ...bounds(q),
    take,
    skip,
    sort,
  });
  requireWithinBudget(rows.map((r) => r.transactions), ctx.maxAnswerTransactions, 'traces');
  ctx.checkBudget();
  const supported = supportedActionTypes(q.supported_action_types, ctx.actionsVersion);
  // Finished traces asked for before come from the process's cache (trace-cache.ts); the others are built.
  const cacheKeys = rows.map((r) => (ctx.traceCache ? traceCacheKey(r, withActions ? supported : null) : null));
  const cached = cacheKeys.map((k) => (k ? ctx.traceCache!.get(k) : undefined));
  const build = rows.filter((_, i) => !cached[i]);
  const weight = build.reduce((n, r) => n + r.transactions, 0);
  return heavyRead(weight, ctx.checkBudget, async () => {
    const built = await buildTraces(ctx, build, withActions ? supported : null, cached.flatMap((c) => c?.addresses ?? []));
    const traces: TraceJson[] = rows.map((r, i) => {
      if (cached[i]) return cached[i].json;
      const b = built.traces.get(hex(r.trace_id))!;
      if (cacheKeys[i]) ctx.traceCache!.set(cacheKeys[i], b);
      return b.json;
    });
    return { traces, ...(await built.maps) };
  });
}

/**
 * The traces of `rows` as v3 serves them, each with the accounts its side maps cover, and the side maps
 * of those accounts and of `alsoAddresses` (the cached traces of the same answer).
 */
async function buildTraces(ctx: V3Context, rows: TraceRow[], supported: string[] | null, alsoAddresses: string[]) {
  const { parts, actions } = await traceParts(ctx.sql, rows, supported ?? false, { cache: ctx.txCache });
  await letIoIn();
  ctx.checkBudget();
  const actionsOf = new Map(rows.map((r) => [hex(r.trace_id), actions ? (actions.get(hex(r.trace_id)) ?? []).map((a) => actionJson(a)) : undefined]));
  const maps = sideMaps(ctx, [...alsoAddresses, ...actionAddresses([...actionsOf.values()].flatMap((a) => a ?? [])), ...partsAddresses(parts)]);
  maps.catch(() => undefined); // awaited by the caller, after the mapping
  const byTrace = transactionsByTrace(await mapTransactionsInTurns(parts));
  const traces = new Map<string, CachedTrace>();
  for (const r of rows) {
    const mine = byTrace.get(b64(r.trace_id)) ?? null;
    const acts = actionsOf.get(hex(r.trace_id));
    const json = traceJson(r, mine, acts);
    traces.set(hex(r.trace_id), { json, addresses: [...new Set([...transactionAddresses(mine ?? []), ...actionAddresses(acts ?? [])])] });
  }
  return { traces, maps };
}

export const traces = defineRoute({
  path: 'traces',
  tag: 'blockchain',
  summary: 'Traces: the transactions one message started, with their tree and actions',
  description:
    'At most one of account, trace_id, tx_hash, msg_hash; none lists the latest traces. Ordered end_lt {sort}, trace_id {sort} ' +
    '(end_utime with start_utime/end_utime). Each trace carries its transactions, transactions_order (lt, account) and tree ' +
    '(not for is_incomplete traces, over 4,000 transactions); actions with include_actions.',
  query: traceQuery,
  response: TracesResponse,
  errors: { 404: 'masterchain block <n> not found', 422: 'only one of account, trace_id, tx_hash, msg_hash should be specified · invalid parameter, limit or sort' },
  run: (q, ctx) => traceAnswer(q, ctx, q.include_actions ?? false),
});

export const events = defineRoute({
  path: 'events',
  tag: 'blockchain',
  summary: 'Traces with their actions (deprecated alias of traces, answered under `events`)',
  description: 'The parameters of /traces; include_actions is always true.',
  query: traceQuery,
  response: EventsResponse,
  errors: { 404: 'masterchain block <n> not found', 422: 'only one of account, trace_id, tx_hash, msg_hash should be specified · invalid parameter, limit or sort' },
  async run(q, ctx) {
    const { traces: list, address_book, metadata } = await traceAnswer(q, ctx, true);
    return { events: list, address_book, metadata };
  },
});

export const actions = defineRoute({
  path: 'actions',
  tag: 'blockchain',
  summary: 'Actions: what traces did, as toncenter\'s classifier records',
  description:
    'trace_id discards every other filter except account; action_id discards account, tx_hash, msg_hash, time, type and mc_seqno. ' +
    'Ordered trace_end_lt {sort}, trace_id {sort}, end_lt {sort}, action_id {sort} (trace_end_utime, end_utime with start_utime/end_utime). ' +
    'Only actions of a supported type (or of action_type) none of whose enclosing actions is of a supported type.',
  query: z.object({
    account: p.address('Actions involving this account.'),
    tx_hash: p.hashes('Actions containing these transactions.'),
    msg_hash: p.hashes('Actions containing a transaction of these messages (hash or normalized hash).'),
    action_id: p.hashes('Action ids.'),
    trace_id: p.hashes('Trace ids.'),
    mc_seqno: p.int32('Actions of traces that ended in this masterchain block (404 if that block is not indexed).'),
    ...utimeParams('trace_end_utime'),
    ...ltParams('trace_end_lt'),
    action_type: p.strings('Only these types (replaces the supported types as the type filter); characters A-Z a-z 0-9 _ .'),
    exclude_action_type: p.strings('Leave these types out; characters A-Z a-z 0-9 _ .'),
    ...supportedParam(),
    include_accounts: p.bool('Fill each action\'s accounts.', false),
    include_transactions: p.bool('Fill each action\'s transactions_full.', false),
    ...limitParams(),
  }),
  response: ActionsResponse,
  errors: { 404: 'masterchain block <n> not found', 422: 'action_type contains invalid characters · invalid parameter, limit or sort' },
  async run(q, ctx) {
    const bad = invalidActionTypeParam('action_type', q.action_type) ?? invalidActionTypeParam('exclude_action_type', q.exclude_action_type);
    if (bad) throw unprocessable(bad);
    const { take, skip } = page(q);
    const sort = sortOrder(q.sort);
    if (q.mc_seqno !== undefined && !q.trace_id?.length && !q.action_id?.length) await requireMasterchainBlock(ctx.sql, q.mc_seqno);
    const rows = await findActions(ctx.sql, {
      account: q.account,
      txHash: q.tx_hash,
      msgHash: q.msg_hash,
      actionId: q.action_id,
      traceId: q.trace_id,
      mcSeqno: q.mc_seqno,
      ...bounds(q),
      actionType: q.action_type,
      excludeActionType: q.exclude_action_type,
      supported: supportedActionTypes(q.supported_action_types, ctx.actionsVersion),
      take,
      skip,
      sort,
    });
    const perRow = q.include_transactions ? newTransactionsPerRow(rows) : [];
    requireWithinBudget(perRow, ctx.maxAnswerTransactions, 'actions with include_transactions');
    ctx.checkBudget();
    return heavyRead(perRow.reduce((n, k) => n + k, 0), ctx.checkBudget, async () => {
      const [accounts, txs] = await Promise.all([
        q.include_accounts ? accountsOfActions(ctx.sql, rows) : null,
        q.include_transactions ? transactionsOfActions(ctx, rows) : null,
      ]);
      await letIoIn();
      ctx.checkBudget();
      const list = rows.map((r) =>
        actionJson(r, {
          accounts: accounts ? (accounts.get(actionKey(r)) ?? []) : undefined,
          transactions: txs ? r.tx_hashes.map((h) => txs.get(b64(h))).filter((t) => t !== undefined) : undefined,
        }),
      );
      return { actions: list, ...(await sideMaps(ctx, actionAddresses(list))) };
    });
  },
});

/** The transactions of the actions, as /transactions shows them, by hash (base64). */
async function transactionsOfActions(ctx: V3Context, rows: ActionRow[]): Promise<Map<string, TransactionJson>> {
  const hashes = [...new Map(rows.flatMap((r) => r.tx_hashes).map((h) => [hex(h), h])).values()];
  if (!hashes.length) return new Map();
  const txRows = await transactionsWhere(ctx.sql, { hashes: hashes.map(bytes) });
  return new Map((await loadTransactions(ctx.sql, txRows, ctx.txCache)).map((t) => [t.hash, t]));
}

/** balanceChanges takes the ids as exact standard base64 (toncenter's raw string parameters). */
function rawHash(name: string, value: string | undefined): Buffer | null {
  if (value === undefined) return null;
  const v = unspace(value);
  const b = Buffer.from(v, 'base64');
  if (b.length !== 32 || b.toString('base64') !== v) throw unprocessable(`${name} must be a 32-byte hash in standard base64`);
  return b;
}

export const balanceChangesRoute = defineRoute({
  path: 'balanceChanges',
  tag: 'blockchain',
  summary: 'Balance changes of a trace or of one of its actions',
  description:
    'changes: per account, TON received minus sent minus fees by its transactions in the trace (or the action); fees: the fees; ' +
    'jettons: per owner and jetton master, the signed amount its successful jetton transfers, mints and burns moved. ' +
    'With both ids and an action outside that trace, all three are null.',
  query: z.object({
    trace_id: p.string('Trace id, standard base64.'),
    action_id: p.string('Action id, standard base64.'),
  }),
  response: BalanceChanges,
  errors: { 404: 'action_id not found · trace not found', 422: 'trace_id / action_id must be a 32-byte hash in standard base64' },
  async run(q, ctx) {
    const traceId = rawHash('trace_id', q.trace_id);
    const actionId = rawHash('action_id', q.action_id);
    if (!traceId && !actionId) throw new V3Error(400, 'trace_id or action_id is required');
    let trace = traceId;
    if (!trace) {
      const found = await traceOfAction(ctx.sql, bytes(actionId!));
      if (!found) throw notFound('action_id not found');
      trace = Buffer.from(found);
    }
    const out = await balanceChanges(ctx.sql, trace, actionId);
    // [quirk] toncenter answers an unknown trace with 500; it is the client's id that is wrong: 404.
    if (!out) throw notFound('trace not found');
    return out;
  },
});
