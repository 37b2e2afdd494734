// v3 response models: Actions (/actions, /pendingActions). Conventions: ./index.ts.
import { z } from 'zod';
import { addr, AddressBook, hash, int64s, Metadata } from './common';
import { Transaction } from './transactions';

export const Action = z.object({
  trace_id: hash.nullable(),
  action_id: hash,
  start_lt: int64s,
  end_lt: int64s,
  start_utime: z.number().int(),
  end_utime: z.number().int(),
  trace_end_lt: int64s,
  trace_end_utime: z.number().int(),
  trace_mc_seqno_end: z.number().int(),
  transactions: z.array(hash),
  success: z.boolean().nullable(),
  type: z.string(),
  details: z.record(z.string(), z.unknown()).describe('per-type object (api-v3.md §3.7)'),
  raw_action: z.record(z.string(), z.unknown()).optional().describe('the stored record, only for types without a details mapping'),
  trace_external_hash: hash.optional(),
  trace_external_hash_norm: hash.optional(),
  accounts: z.array(addr).optional(),
  transactions_full: z.array(Transaction).optional(),
  finality: z.enum(['pending', 'confirmed', 'finalized']),
});

export const ActionsResponse = z.object({ actions: z.array(Action), address_book: AddressBook, metadata: Metadata });

export type ActionJson = z.infer<typeof Action>;
