// Pending routes (api-v3.md §2.1 pendingTransactions, §2.4 pendingTraces and pendingActions, §4.3): the
// emulated traces of external messages sent through Atlas (lib/pending), from the pending store, minus
// what the index already holds. Entries whose real trace is complete and classified are dropped from the
// store as they are met (their TTL drops the rest). The index is read where every GET route reads it (a
// read replica, lib/db/replicas.ts): an entry is dropped only once the index the request reads holds its
// real trace, so the window in which a client sees neither is no wider than the replica's lag.
import { z } from 'zod';
import { pendingActions, pendingTraceJson, emulatedTransactions, newestFirst } from '../pending-json';
import type { PendingEntry, PendingTraces } from '../../../pending';
import { actionAddresses } from '../action-json';
import { supportedActionTypes } from '../action-types';
import type { V3Context } from '../context';
import { b64 } from '../encode';
import { notFound, unprocessable, V3Error } from '../errors';
import { type ActionJson, ActionsResponse } from '../models/actions';
import { PendingTracesResponse } from '../models/traces';
import { PendingTransactionsResponse, type TransactionJson } from '../models/transactions';
import { p } from '../params';
import { indexedInbound, type IndexedInbound } from '../queries/pending';
import { defineRoute } from '../route';
import { sideMaps } from '../queries/side-maps';
import { transactionAddresses } from '../queries/transactions-load';

function store(ctx: V3Context): PendingTraces {
  // [quirk] toncenter's wording when it runs without a pending store.
  if (!ctx.pending) throw new V3Error(500, 'emulatedTracesRepository is not initialized');
  return ctx.pending;
}

const hexOf = (b64hash: string) => Buffer.from(b64hash, 'base64').toString('hex');

/** The entries' root messages the index has, and drops from the store those it holds complete and classified. */
async function indexedRoots(ctx: V3Context, entries: PendingEntry[]): Promise<Map<string, IndexedInbound>> {
  const found = await indexedInbound(ctx.prisma, entries.map((e) => e.externalHash));
  const done = entries.filter((e) => found.get(hexOf(e.externalHash))?.classified).map((e) => e.externalHash);
  if (done.length) await store(ctx).store.delete(done);
  return found;
}

/** Lookup by ext_msg_hash, else by account: one is required. */
async function lookup(ctx: V3Context, q: { account?: string; ext_msg_hash?: Buffer[] }, index: 'transactions' | 'actions'): Promise<PendingEntry[]> {
  // The request is judged before the store is reached, as toncenter does.
  if (q.ext_msg_hash?.length) return store(ctx).store.byHashes(q.ext_msg_hash.map(b64));
  if (q.account) return store(ctx).store.byAccounts([q.account], index);
  throw unprocessable('account or ext_msg_hash should be specified');
}

const supportedParam = {
  supported_action_types: p.strings('Action types the client understands: types, versions (v1…v4, latest) or groups; default latest. Header X-Actions-Version replaces it.'),
};

export const pendingTransactions = defineRoute({
  path: 'pendingTransactions',
  tag: 'blockchain',
  summary: 'Emulated transactions of messages sent and not yet indexed',
  description:
    'The emulated transactions (emulated: true, finality pending) of these accounts in the pending traces of external messages sent ' +
    'through this Atlas (v2 sendBoc*, POST /message): traces the index holds complete are left out, and so is each transaction whose ' +
    'inbound message is indexed. No defined order. 404 when the store has nothing for the accounts.',
  query: z.object({
    account: p.addresses('Accounts (at least one).'),
    trace_id: p.hashes('Declared by toncenter; unreachable there because account is mandatory, ignored here.'),
  }),
  response: PendingTransactionsResponse,
  errors: { 404: 'emulated traces not found', 422: 'at least 1 account address required' },
  async run(q, ctx) {
    if (!q.account?.length) throw unprocessable('at least 1 account address required');
    const accounts = new Set(q.account);
    const entries = (await store(ctx).store.byAccounts([...accounts], 'transactions')).filter((e) => !e.rejected);
    if (!entries.length) throw notFound('emulated traces not found');
    const txsOf = new Map(entries.map((e) => [e.externalHash, emulatedTransactions(e).filter((t) => accounts.has(t.account))]));
    const inbound = [...txsOf.values()].flat().flatMap((t) => (t.in_msg ? [t.in_msg.hash] : []));
    const indexed = await indexedInbound(ctx.prisma, [...new Set([...entries.map((e) => e.externalHash), ...inbound])]);
    const transactions: TransactionJson[] = [];
    for (const e of entries.sort(newestFirst)) {
      if (indexed.get(hexOf(e.externalHash))?.complete) continue;
      transactions.push(...txsOf.get(e.externalHash)!.filter((t) => !(t.in_msg && indexed.has(hexOf(t.in_msg.hash)))));
    }
    // The address book is always built (toncenter ignores X-No-Address-Book here).
    const { address_book } = await sideMaps({ ...ctx, prisma: ctx.prisma, noAddressBook: false }, transactionAddresses(transactions), { book: true, metadata: false });
    return { transactions: transactions.length ? transactions : null, address_book };
  },
});

export const pendingTraces = defineRoute({
  path: 'pendingTraces',
  tag: 'blockchain',
  summary: 'Emulated traces of messages sent and not yet indexed, with their predicted actions',
  description:
    'account or ext_msg_hash (hash or normalized hash of the external message). Whole traces touching the account, newest first; ' +
    'a trace the index holds complete and classified is left out. Each carries trace_id null, trace_state pending, its emulated ' +
    'transactions, transactions_order, tree and actions. Asked-for messages the chain will refuse are listed under `rejected` (Atlas extension).',
  query: z.object({
    account: p.address('Traces with an emulated transaction on this account.'),
    ext_msg_hash: p.hashes('External message hashes (hash or normalized hash).'),
    ...supportedParam,
  }),
  response: PendingTracesResponse,
  errors: { 422: 'account or ext_msg_hash should be specified' },
  async run(q, ctx) {
    const entries = await lookup(ctx, q, 'transactions');
    const rejected = entries.filter((e) => e.rejected);
    const live = entries.filter((e) => !e.rejected);
    const indexed = await indexedRoots(ctx, live);
    const supported = supportedActionTypes(q.supported_action_types, ctx.actionsVersion);
    const traces = live
      .filter((e) => !indexed.get(hexOf(e.externalHash))?.classified)
      .sort(newestFirst)
      .map((e) => pendingTraceJson(e, supported));
    const txs = traces.flatMap((t) => Object.values(t.transactions ?? {}));
    const maps = await sideMaps(ctx, [...transactionAddresses(txs), ...actionAddresses(traces.flatMap((t) => t.actions ?? []))]);
    return {
      traces: traces.length ? traces : null,
      ...maps,
      ...(rejected.length && q.ext_msg_hash?.length
        ? { rejected: rejected.map((e) => ({ external_hash: e.externalHash, external_hash_norm: e.externalHashNorm, reason: e.rejected! })) }
        : {}),
    };
  },
});

export const pendingActionsRoute = defineRoute({
  path: 'pendingActions',
  tag: 'blockchain',
  summary: 'Predicted actions of messages sent and not yet indexed',
  description:
    'account or ext_msg_hash. With account only the actions naming it. Traces newest first, within a trace end_lt desc, start_lt desc; ' +
    'a trace the index holds complete and classified is left out. Actions carry trace_id null, accounts and finality pending.',
  query: z.object({
    account: p.address('Actions naming this account.'),
    ext_msg_hash: p.hashes('External message hashes (hash or normalized hash).'),
    ...supportedParam,
    include_transactions: p.bool('Fill each action\'s transactions_full.', false),
  }),
  response: ActionsResponse,
  errors: { 422: 'account or ext_msg_hash should be specified' },
  async run(q, ctx) {
    const entries = (await lookup(ctx, q, 'actions')).filter((e) => !e.rejected);
    const indexed = await indexedRoots(ctx, entries);
    const supported = supportedActionTypes(q.supported_action_types, ctx.actionsVersion);
    const cmp = (x: string, y: string) => (BigInt(x) < BigInt(y) ? -1 : BigInt(x) > BigInt(y) ? 1 : 0);
    const actions: ActionJson[] = [];
    for (const e of entries.filter((x) => !indexed.get(hexOf(x.externalHash))?.classified).sort(newestFirst)) {
      const mine = pendingActions(e, supported, { transactions: q.include_transactions ? emulatedTransactions(e) : undefined })
        .filter((a) => !q.account || q.ext_msg_hash?.length || a.accounts?.includes(q.account))
        .sort((a, b) => cmp(b.end_lt, a.end_lt) || cmp(b.start_lt, a.start_lt));
      actions.push(...mine);
    }
    return { actions, ...(await sideMaps(ctx, actionAddresses(actions))) };
  },
});
