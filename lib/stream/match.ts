// One published event → the notifications one subscription gets from it (toncenter's rules): transactions
// and actions of the subscribed accounts, the whole trace for a subscribed trace hash, state and jetton
// wallet changes of subscribed accounts, each at or above the subscription's min_finality, with the side
// maps cut to what the notification names. Each comes with a key: subscriptions that would get the same
// bytes get the same key, so one serialization serves them all.
import { actionAddresses } from '../api/v3/action-json';
import type { AddressBookJson, MetadataJson } from '../api/v3/models/common';
import { transactionAddresses } from '../api/v3/queries/transactions-load';
import type { AccountStateEvent, BlockEvent, JettonEvent, StreamAction, TraceEvent } from './events';
import { reaches } from './finality';
import type { NotificationJson } from './protocol';
import type { Subscription } from './subscription';

export interface Outgoing {
  key: string;
  notification: NotificationJson;
}

function pick<T>(map: Record<string, T>, keys: Iterable<string>): Record<string, T> {
  const out: Record<string, T> = {};
  // Sorted, as v3 answers its side maps (Go's map order).
  for (const k of [...new Set(keys)].sort()) if (map[k] !== undefined) out[k] = map[k];
  return out;
}

function sideMaps(sub: Subscription, maps: { address_book: AddressBookJson; metadata: MetadataJson }, addresses: string[] | null) {
  return {
    ...(sub.includeAddressBook ? { address_book: addresses ? pick(maps.address_book, addresses) : maps.address_book } : {}),
    ...(sub.includeMetadata ? { metadata: addresses ? pick(maps.metadata, addresses) : maps.metadata } : {}),
  };
}

/** Shown to this subscriber: of a requested type (if it named any), supported, and no enclosing action supported. */
const visible = (sub: Subscription) => (a: StreamAction) =>
  (!sub.actionTypes || sub.actionTypes.has(a.action.type)) && sub.supported.has(a.action.type) && !a.ancestors.some((t) => sub.supported.has(t));

const mine = (sub: Subscription, accounts: readonly string[]) => accounts.some((a) => sub.addresses.has(a));

export function traceNotifications(e: TraceEvent, sub: Subscription): Outgoing[] {
  if (!reaches(e.finality, sub.minFinality)) return [];
  const out: Outgoing[] = [];
  const base = { finality: e.finality, trace_external_hash_norm: e.norm };
  if (sub.types.has('transactions')) {
    const picked = e.transactions.filter((t) => sub.addresses.has(t.account));
    if (picked.length) {
      out.push({
        key: `tx|${picked.map((t) => t.hash).join(',')}|${sub.shape}`,
        notification: { type: 'transactions', ...base, transactions: picked, ...sideMaps(sub, e, transactionAddresses(picked)) },
      });
    }
  }
  if (sub.types.has('actions') && e.actions) {
    const picked = e.actions.filter((a) => mine(sub, a.action.accounts)).filter(visible(sub));
    if (picked.length) {
      const actions = picked.map((a) => a.action).reverse(); // newest first
      out.push({
        key: `ac|${actions.map((a) => a.action_id).join(',')}|${sub.shape}`,
        notification: { type: 'actions', ...base, actions, ...sideMaps(sub, e, [...actions.flatMap((a) => a.accounts), ...actionAddresses(actions)]) },
      });
    }
  }
  if (sub.types.has('trace') && sub.traces.has(e.norm) && e.trace) {
    const actions = e.actions?.filter(visible(sub)).map((a) => a.action);
    out.push({
      key: `tr|${sub.shape}`,
      notification: {
        type: 'trace',
        ...base,
        trace: e.trace,
        transactions: Object.fromEntries(e.transactions.map((t) => [t.hash, t])),
        ...(actions?.length ? { actions } : {}),
        ...sideMaps(sub, e, null),
      },
    });
  }
  return out;
}

export function accountStateNotification(e: AccountStateEvent, sub: Subscription): Outgoing | null {
  if (!sub.types.has('account_state_change') || !reaches(e.finality, sub.minFinality) || !sub.addresses.has(e.account)) return null;
  return { key: 'st', notification: { type: 'account_state_change', finality: e.finality, account: e.account, state: e.state } };
}

export function jettonNotification(e: JettonEvent, sub: Subscription): Outgoing | null {
  if (!sub.types.has('jettons_change') || !reaches(e.finality, sub.minFinality)) return null;
  if (!sub.addresses.has(e.jetton.address) && !sub.addresses.has(e.jetton.owner)) return null;
  const named = [e.jetton.address, e.jetton.owner, e.jetton.jetton];
  return { key: `jt|${+sub.includeAddressBook}${+sub.includeMetadata}`, notification: { type: 'jettons_change', finality: e.finality, jetton: e.jetton, ...sideMaps(sub, e, named) } };
}

export function blockNotification(e: BlockEvent, sub: Subscription): Outgoing | null {
  if (!sub.types.has('blocks')) return null;
  return { key: 'bl', notification: { type: 'blocks', finality: 'finalized', mc_seqno: e.mcSeqno, transactions: e.transactions } };
}

/** Every account a trace event's notifications may be about (the hub looks subscribers up by them). */
export function traceAccounts(e: TraceEvent): string[] {
  const out = new Set(e.transactions.map((t) => t.account));
  for (const a of e.actions ?? []) for (const x of a.action.accounts) out.add(x);
  return [...out];
}
