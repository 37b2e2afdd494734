// v3 response models: What every answer shares: the field kinds, the address book, token metadata and the error body. Conventions: ./index.ts.
import { z } from 'zod';

export const hash = z.string().describe('32-byte hash, standard base64 with padding');
export const addr = z.string().describe('raw address `wc:HEX` (upper case)');
export const int64s = z.string().describe('64-bit integer as a decimal string');
export const amounts = z.record(z.string(), z.string()).describe('extra currency id → amount (decimal string)');
export const boc = z.string().describe('bag of cells, standard base64');
export const decoded = z.record(z.string(), z.unknown());

export const AddressBookEntry = z.object({
  user_friendly: z.string().nullable(),
  domain: z.string().nullable(),
  interfaces: z.array(z.string()).nullable(),
});

export const AddressBook = z.record(z.string(), AddressBookEntry).describe('keyed by raw address');

export const TokenInfo = z.object({
  valid: z.boolean().optional(),
  type: z.enum(['nft_items', 'nft_collections', 'jetton_masters', 'jetton_wallets']).optional(),
  name: z.string().optional(),
  symbol: z.string().optional(),
  description: z.string().optional(),
  image: z.string().optional(),
  nft_index: int64s.optional(),
  is_nsfw: z.boolean().optional(),
  is_scam: z.boolean().optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

export const MetadataEntry = z.object({ is_indexed: z.boolean(), token_info: z.array(TokenInfo) });
export const Metadata = z.record(z.string(), MetadataEntry).describe('keyed by raw address; token contracts only');
export const RequestError = z.object({ error: z.string() });

export type AddressBookEntryJson = z.infer<typeof AddressBookEntry>;
export type AddressBookJson = z.infer<typeof AddressBook>;
export type MetadataJson = z.infer<typeof Metadata>;
