// The Streaming API v2 as clients see it (toncenter's protocol; /work/shared/reference/streaming.md):
// the event types a subscription names, and the notifications and replies sent on a stream (finality
// levels: finality.ts). The notifications carry the same v3 objects the v3 routes answer (lib/api/v3/models/).
import { z } from 'zod';
import { Action } from '../api/v3/models/actions';
import { AddressBook, Metadata } from '../api/v3/models/common';
import { JettonWallet } from '../api/v3/models/jettons';
import { TraceNode } from '../api/v3/models/traces';
import { AccountState, Transaction } from '../api/v3/models/transactions';
import { FINALITIES } from './finality';

/**
 * What a subscription may ask for. `blocks` is Atlas's own: one small notification per indexed
 * masterchain block (the explorer's home page follows the chain with it); the rest are toncenter's.
 */
export const EVENT_TYPES = ['transactions', 'actions', 'trace', 'trace_invalidated', 'account_state_change', 'jettons_change', 'blocks'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const finality = z.enum(FINALITIES);
const norm = z.string().describe('trace_external_hash_norm: the normalized hash of the trace\'s external message, standard base64');
const sideMaps = { address_book: AddressBook.optional(), metadata: Metadata.optional() };

export const TransactionsNotification = z.object({
  type: z.literal('transactions'),
  finality,
  trace_external_hash_norm: norm,
  transactions: z.array(Transaction).describe('the subscribed accounts\' transactions of the trace, newest (highest lt) first'),
  ...sideMaps,
});

export const ActionsNotification = z.object({
  type: z.literal('actions'),
  finality,
  trace_external_hash_norm: norm,
  actions: z.array(Action).describe('the trace\'s actions naming a subscribed account, newest first'),
  ...sideMaps,
});

export const TraceNotification = z.object({
  type: z.literal('trace'),
  finality,
  trace_external_hash_norm: norm,
  trace: TraceNode,
  transactions: z.record(z.string(), Transaction).describe('every transaction of the trace, by hash'),
  actions: z.array(Action).optional(),
  ...sideMaps,
});

export const TraceInvalidatedNotification = z.object({ type: z.literal('trace_invalidated'), trace_external_hash_norm: norm });

export const AccountStateNotification = z.object({
  type: z.literal('account_state_change'),
  finality: z.enum(['confirmed', 'finalized']),
  account: z.string(),
  state: AccountState,
});

export const JettonsNotification = z.object({
  type: z.literal('jettons_change'),
  finality: z.enum(['confirmed', 'finalized']),
  jetton: JettonWallet,
  ...sideMaps,
});

export const BlocksNotification = z.object({
  type: z.literal('blocks'),
  finality: z.literal('finalized'),
  mc_seqno: z.number().int().describe('the masterchain block just indexed'),
  transactions: z.number().int().describe('transactions it and its shard blocks added'),
});

/** Every notification, by the name its schema has in the OpenAPI document (openapi.ts), in the union's order. */
export const NOTIFICATIONS = {
  TransactionsNotification,
  ActionsNotification,
  TraceNotification,
  TraceInvalidatedNotification,
  AccountStateNotification,
  JettonsNotification,
  BlocksNotification,
} as const;

type NotificationSchema = (typeof NOTIFICATIONS)[keyof typeof NOTIFICATIONS];

export const Notification = z.discriminatedUnion('type', Object.values(NOTIFICATIONS) as [NotificationSchema, ...NotificationSchema[]]);

export type ActionsNotificationJson = z.infer<typeof ActionsNotification>;
export type TraceNotificationJson = z.infer<typeof TraceNotification>;
export type NotificationJson = z.infer<typeof Notification>;

/** A request's own id, echoed in its reply (toncenter's clients send strings; numbers are echoed too). */
export const RequestId = z.union([z.string().max(256), z.number()]);
export type RequestIdJson = z.infer<typeof RequestId>;

/** `subscribed`, `unsubscribed`, `pong`: the answer to a request, and SSE's first event. */
export const StatusReply = z.object({ id: RequestId.optional(), status: z.enum(['subscribed', 'unsubscribed', 'pong']) });
export const ErrorReply = z.object({ id: RequestId.optional(), error: z.string() });
