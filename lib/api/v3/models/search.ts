// v3 response models: Token search (/search). Conventions: ./index.ts.
import { z } from 'zod';
import { addr, AddressBook } from './common';

export const TokenHit = z.object({
  type: z.enum(['jetton', 'nft_collection', 'nft_item']),
  address: addr,
  name: z.string().nullable(),
  symbol: z.string().nullable().describe('jettons only'),
});

export const TokenSearchResponse = z.object({ tokens: z.array(TokenHit), address_book: AddressBook });

export type TokenHitJson = z.infer<typeof TokenHit>;
export type TokenSearchResponseJson = z.infer<typeof TokenSearchResponse>;
