// What publishers put on the bus: one event per trace at one finality (everything any subscriber may be
// sent about it, in v3's JSON), per account state and jetton wallet change, per invalidated trace and per
// indexed masterchain block. Each subscriber's notifications are cut from these (match.ts). JSON only:
// the same event crosses Redis between processes.
import type { ActionJson } from '../api/v3/models/actions';
import type { AddressBookJson, MetadataJson } from '../api/v3/models/common';
import type { TraceNodeJson } from '../api/v3/models/traces';
import type { AccountStateJson, TransactionJson } from '../api/v3/models/transactions';
import type { JettonWalletJson } from '../api/v3/models/jettons';
import type { Finality } from './finality';

/** An action with what filtering needs: the types of the actions enclosing it (supported_action_types). */
export interface StreamAction {
  /** v3's Action, `accounts` filled (the accounts it involves: what address subscriptions match). */
  action: ActionJson & { accounts: string[] };
  ancestors: string[];
}

export interface TraceEvent {
  kind: 'trace';
  finality: Finality;
  /** trace_external_hash_norm: the trace's key across finalities. */
  norm: string;
  /** Every transaction of the trace known at this finality, newest (highest lt) first. */
  transactions: TransactionJson[];
  /** The trace tree; null when its root is not among the transactions. */
  trace: TraceNodeJson | null;
  /** The trace's actions (every type, in start_lt order); null while it is not classified. */
  actions: StreamAction[] | null;
  /** Side maps of every address the transactions and actions name. */
  address_book: AddressBookJson;
  metadata: MetadataJson;
  /** When the data was committed at this finality (ms since the epoch): delivery latency is measured from it. */
  at: number;
}

export interface AccountStateEvent {
  kind: 'account_state';
  finality: 'confirmed' | 'finalized';
  account: string;
  state: AccountStateJson;
  at: number;
}

export interface JettonEvent {
  kind: 'jetton';
  finality: 'confirmed' | 'finalized';
  jetton: JettonWalletJson;
  address_book: AddressBookJson;
  metadata: MetadataJson;
  at: number;
}

export interface InvalidatedEvent {
  kind: 'invalidated';
  norm: string;
  /** Accounts the voided data named (subscriptions to trace_invalidated by address match them). */
  accounts: string[];
  at: number;
}

export interface BlockEvent {
  kind: 'block';
  mcSeqno: number;
  transactions: number;
  at: number;
}

export type StreamEvent = TraceEvent | AccountStateEvent | JettonEvent | InvalidatedEvent | BlockEvent;
