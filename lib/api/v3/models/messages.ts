// v3 response models: Messages (/messages) and decoded bodies (/decode). Conventions: ./index.ts.
import { z } from 'zod';
import { addr, AddressBook, amounts, hash, int64s, Metadata } from './common';

export const MessageContent = z.object({
  hash,
  body: z.string().describe('bag of cells, standard base64'),
  decoded: z.record(z.string(), z.unknown()).nullable(),
});

export const Message = z.object({
  hash,
  source: addr.nullable(),
  destination: addr.nullable(),
  value: int64s.nullable(),
  value_extra_currencies: amounts.nullable(),
  fwd_fee: int64s.nullable(),
  ihr_fee: int64s.nullable(),
  extra_flags: z.string().nullable(),
  created_lt: int64s.nullable(),
  created_at: int64s.nullable(),
  opcode: z.string().describe('0x + 8 lower-case hex digits').nullable(),
  decoded_opcode: z.string().nullable(),
  ihr_disabled: z.boolean().nullable(),
  bounce: z.boolean().nullable(),
  bounced: z.boolean().nullable(),
  import_fee: int64s.nullable(),
  in_msg_tx_hash: hash.optional(),
  out_msg_tx_hash: hash.optional(),
  message_content: MessageContent.nullable(),
  init_state: MessageContent.nullable(),
  hash_norm: hash.optional(),
});

export const MessagesResponse = z.object({ messages: z.array(Message), address_book: AddressBook, metadata: Metadata });

export const DecodeResponse = z.object({
  opcodes: z.array(z.string()).describe('constructor name of each opcode, or "unknown"'),
  bodies: z
    .array(z.record(z.string(), z.unknown()))
    .describe('each body as {"@type": constructor, …fields} (nested bodies decoded), {"@type":"empty_cell"}, or {"error": why}'),
});

export type MessageContentJson = z.infer<typeof MessageContent>;
export type MessageJson = z.infer<typeof Message>;
