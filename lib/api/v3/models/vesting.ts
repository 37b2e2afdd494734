// v3 response models: Vesting contracts (/vesting). Conventions: ./index.ts.
import { z } from 'zod';
import { addr, AddressBook } from './common';

export const VestingInfo = z.object({
  address: addr,
  start_time: z.number().int().describe('unix time vesting starts'),
  total_duration: z.number().int().describe('seconds from start_time until everything is unlocked'),
  unlock_period: z.number().int().describe('seconds between unlocks'),
  cliff_duration: z.number().int().describe('seconds from start_time before the first unlock'),
  sender_address: addr.nullable(),
  owner_address: addr.nullable(),
  total_amount: z.string().describe('nanotons vested, a decimal string'),
  whitelist: z.array(addr).describe('addresses the wallet may send locked coins to'),
});

export const VestingResponse = z.object({ vesting_contracts: z.array(VestingInfo), address_book: AddressBook });

export type VestingInfoJson = z.infer<typeof VestingInfo>;
