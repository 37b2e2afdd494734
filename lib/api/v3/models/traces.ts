// v3 response models: Traces (/traces, /events, /pendingTraces, /emulate, /balanceChanges). Conventions: ./index.ts.
import { z } from 'zod';
import { Action } from './actions';
import { addr, AddressBook, hash, int64s, Metadata } from './common';
import { Transaction } from './transactions';

export interface TraceNodeJson {
  tx_hash: string;
  in_msg_hash?: string;
  children: TraceNodeJson[] | null;
}

export const TraceNode: z.ZodType<TraceNodeJson> = z.lazy(() =>
  z.object({ tx_hash: hash, in_msg_hash: hash.optional(), children: z.array(TraceNode).nullable().describe('null when the transaction sent messages none of which led to a transaction of the trace') }),
);

export const TraceInfo = z.object({
  trace_state: z.enum(['complete', 'pending', 'broken']),
  messages: z.number().int(),
  transactions: z.number().int(),
  pending_messages: z.number().int(),
  classification_state: z.enum(['unclassified', 'failed', 'ok', 'broken']),
});

export const Trace = z.object({
  trace_id: hash.nullable(),
  external_hash: hash.nullable(),
  mc_seqno_start: int64s,
  mc_seqno_end: int64s,
  start_lt: int64s,
  start_utime: z.number().int(),
  end_lt: int64s.nullable(),
  end_utime: z.number().int().nullable(),
  trace_info: TraceInfo,
  is_incomplete: z.boolean(),
  warning: z.string().optional(),
  actions: z.array(Action).optional(),
  trace: TraceNode.optional(),
  transactions_order: z.array(hash).optional(),
  transactions: z.record(z.string(), Transaction).optional(),
});

export const TracesResponse = z.object({ traces: z.array(Trace), address_book: AddressBook, metadata: Metadata });

/** An external message the emulator found the chain will refuse (Atlas extension of /pendingTraces). */
export const RejectedMessage = z.object({
  external_hash: hash,
  external_hash_norm: hash,
  reason: z.string().describe('the executor\'s reason, e.g. a failed signature check (exit code 35)'),
});

export const PendingTracesResponse = z.object({
  traces: z.array(Trace).nullable().describe('null when there are none [toncenter quirk]'),
  address_book: AddressBook,
  metadata: Metadata,
  rejected: z.array(RejectedMessage).optional().describe('Atlas extension: asked-for messages the chain will refuse (no trace is kept for them)'),
});

/** POST /emulate (Atlas extension): what an external message would do, emulated and never sent. */
export const EmulateResponse = z.object({
  external_hash: hash,
  external_hash_norm: hash,
  destination: addr.describe('the account the external message is addressed to'),
  mc_seqno: z.number().int().describe('masterchain block whose account states the emulation started from'),
  trace: Trace.nullable().describe('the emulated trace (trace_id null, trace_state pending) with its actions; null when the chain would refuse the message'),
  rejected: z
    .object({ reason: z.string().describe("the executor's reason"), exit_code: z.number().int().nullable().describe('the exit code the receiving contract refused it with, when it ran') })
    .nullable()
    .describe('why the chain would refuse the message (no transaction at all); null when it would accept it'),
  truncated: z.boolean().describe('the emulation stopped at its bounds (transactions or time): later hops are missing'),
  total_fees: z.string().describe('nanotons: the fees of every emulated transaction together'),
  address_book: AddressBook,
  metadata: Metadata,
});

export const EventsResponse = z.object({ events: z.array(Trace), address_book: AddressBook, metadata: Metadata });

export const BalanceChanges = z.object({
  changes: z.record(z.string(), z.number()).nullable().describe('account → TON value delta minus fees (nanoton)'),
  fees: z.record(z.string(), z.number()).nullable().describe('account → fees paid (nanoton)'),
  jettons: z.record(z.string(), z.record(z.string(), z.string())).nullable().describe('owner → jetton master → signed amount'),
});

export type TraceJson = z.infer<typeof Trace>;
export type EmulateResponseJson = z.infer<typeof EmulateResponse>;
