// Stream events from what was just committed at a finality, rendered by the v3 renderers: a pending or
// confirmed trace from its pending-store entry (lib/api/v3/pending-json.ts), a finalized one — and the account
// states, jetton wallets and block — from the rows the indexer's transaction wrote.
import { actionAddresses, actionJson } from '../api/v3/action-json';
import type { V3Context } from '../api/v3/context';
import { b64, bytes, hex } from '../api/v3/encode';
import { mapAccountState } from '../api/v3/mappers';
import type { TransactionJson } from '../api/v3/models/transactions';
import { accountsOfActions, actionKey, type ActionRow } from '../api/v3/queries/actions';
import { findJettonWallets } from '../api/v3/queries/jetton-wallets';
import { findTraces, type TraceRow } from '../api/v3/queries/traces';
import { sideMaps, type SideMaps } from '../api/v3/queries/side-maps';
import { traceTree } from '../api/v3/trace-json';
import { traceParts, transactionsByTrace, type TraceRows } from '../api/v3/queries/trace-parts';
import { accountStatesQuery, mapTransactions, partsAddresses, transactionAddresses } from '../api/v3/queries/transactions-load';
import type { AccountState } from '../db/generated/client';
import type { CommittedBlock } from '../indexer/events';
import type { PendingEntry } from '../pending';
import { emulatedTransactions, entryActions } from '../api/v3/pending-json';
import type { AccountStateEvent, BlockEvent, JettonEvent, StreamAction, StreamEvent, TraceEvent } from './events';
import type { Finality } from './finality';

const byLtDesc = (a: TransactionJson, b: TransactionJson) => {
  const x = BigInt(a.lt);
  const y = BigInt(b.lt);
  return x < y ? 1 : x > y ? -1 : 0;
};

function pickMaps(maps: SideMaps, addresses: Iterable<string>): SideMaps {
  const out: SideMaps = { address_book: {}, metadata: {} };
  for (const a of [...new Set(addresses)].sort()) {
    if (maps.address_book[a]) out.address_book[a] = maps.address_book[a];
    if (maps.metadata[a]) out.metadata[a] = maps.metadata[a];
  }
  return out;
}

const actionsAddresses = (actions: StreamAction[]) => [...actions.flatMap((a) => a.action.accounts), ...actionAddresses(actions.map((a) => a.action))];

function traceEvent(finality: Finality, norm: string, txs: TransactionJson[], actions: StreamAction[] | null, maps: SideMaps, at: number): TraceEvent {
  const addresses = [...transactionAddresses(txs), ...actionsAddresses(actions ?? [])];
  return { kind: 'trace', finality, norm, transactions: [...txs].sort(byLtDesc), trace: traceTree(txs).root, actions, ...pickMaps(maps, addresses), at };
}

/** The trace event of a pending-store entry: its emulated (pending) or confirmed transactions and actions. */
export async function entryEvent(ctx: V3Context, entry: PendingEntry, at = Date.now()): Promise<TraceEvent> {
  const txs = emulatedTransactions(entry);
  const actions = entry.actions ? entryActions(entry) : null;
  const maps = await sideMaps(ctx, [...transactionAddresses(txs), ...actionsAddresses(actions ?? [])]);
  return traceEvent(entry.finality ?? 'pending', entry.externalHashNorm, txs, actions, maps, at);
}

/**
 * The trace's key across finalities: the normalized hash of its external message; a trace that did not
 * start with one (tick-tock, an index started mid-trace) goes by its trace id.
 */
const traceKey = (r: TraceRow) => b64(r.external_hash_norm ?? r.trace_id);

/**
 * The actions' accounts and the side maps of every address the events name, read beside the account
 * states (traceParts' `alongside`): the transactions' addresses are known from their rows, the actions'
 * from their details.
 */
function accountsAndMaps(ctx: V3Context, { rows, messages, actions }: TraceRows) {
  const all = [...(actions?.values() ?? [])].flat();
  const addresses = [...partsAddresses({ rows, messages, kept: new Map() }), ...actionAddresses(all.map((r) => actionJson(r)))];
  return Promise.all([accountsOfActions(ctx.sql, all), sideMaps(ctx, addresses)]);
}

/**
 * Finalized trace events of the committed traces: each trace whole, as /traces serves it, with every
 * action. Read in three rounds, each of queries side by side: the traces; their transactions, messages
 * and actions (traceParts); the account states, the actions' accounts and the side maps.
 */
export async function finalizedTraceEvents(ctx: V3Context, traceIds: Buffer[], at: number): Promise<TraceEvent[]> {
  if (!traceIds.length) return [];
  const rows = await findTraces(ctx.sql, { traceId: traceIds, take: traceIds.length, skip: 0, sort: 'asc' });
  const { parts, actions, alongside } = await traceParts(ctx.sql, rows, null, { alongside: (read) => accountsAndMaps(ctx, read) });
  const [accountsOf, maps] = alongside;
  const byTrace = transactionsByTrace(mapTransactions(parts));
  const streamAction = (r: ActionRow): StreamAction => {
    const mine = accountsOf.get(actionKey(r)) ?? [];
    return { action: { ...actionJson(r, { accounts: mine }), accounts: mine }, ancestors: r.ancestor_type ?? [] };
  };
  const actionsOf = (r: TraceRow) => (r.classification_state === 'unclassified' ? null : (actions?.get(hex(r.trace_id)) ?? []).map(streamAction));
  // A trace too large to be served whole (is_incomplete) has no transactions to stream.
  return rows.filter((r) => byTrace.has(b64(r.trace_id))).map((r) => traceEvent('finalized', traceKey(r), byTrace.get(b64(r.trace_id))!, actionsOf(r), maps, at));
}

/** The committed states of the accounts the block touched, as v3's AccountState. */
export async function accountStateEvents(ctx: V3Context, states: CommittedBlock['states'], at: number): Promise<AccountStateEvent[]> {
  if (!states.length) return [];
  const rows = await ctx.sql.rows<AccountState>(accountStatesQuery(states.map((s) => bytes(s.hash))));
  const byHash = new Map(rows.map((r) => [hex(r.hash), r]));
  return states.flatMap((s) => {
    const row = byHash.get(s.hash.toString('hex'));
    return row ? [{ kind: 'account_state' as const, finality: 'finalized' as const, account: s.account, state: mapAccountState(s.hash, row), at }] : [];
  });
}

/** The jetton wallets among the accounts the block touched, as the derive stage left them. */
export async function jettonEvents(ctx: V3Context, accounts: string[], at: number): Promise<JettonEvent[]> {
  if (!accounts.length) return [];
  const wallets = await findJettonWallets(ctx.sql, { address: accounts }, { take: accounts.length, skip: 0 });
  if (!wallets.length) return [];
  const maps = await sideMaps(ctx, wallets.flatMap((w) => [w.address, w.owner, w.jetton]));
  return wallets.map((w) => ({ kind: 'jetton', finality: 'finalized', jetton: w, ...pickMaps(maps, [w.address, w.owner, w.jetton]), at }));
}

/**
 * The end of this turn of the event loop. The streams send what they were given in a turn when it ends
 * (hub.ts, TurnWrites), and the embedded database answers within the turn (its queries run as promise
 * callbacks, never waiting on I/O): without this, a block's traces would wait in every stream until its
 * states and jetton wallets were read and rendered too.
 */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Everything a committed masterchain block streams, in the order it is published: its traces first (what
 * clients wait for, sent before the rest is read), then the states of the accounts it touched, the jetton
 * wallets among them, the block.
 */
export async function* committedEvents(ctx: V3Context, c: CommittedBlock): AsyncGenerator<StreamEvent> {
  yield* await finalizedTraceEvents(ctx, c.traceIds, c.at);
  await nextTurn();
  yield* await accountStateEvents(ctx, c.states, c.at);
  yield* await jettonEvents(ctx, c.states.map((s) => s.account), c.at);
  yield { kind: 'block', mcSeqno: c.mcSeqno, transactions: c.transactions, at: c.at } satisfies BlockEvent;
}
