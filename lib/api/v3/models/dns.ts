// v3 response models: DNS records (/dns/records). Conventions: ./index.ts.
import { z } from 'zod';
import { addr, AddressBook } from './common';

export const DnsRecord = z.object({
  nft_item_address: addr,
  nft_item_owner: addr.nullable(),
  domain: z.string(),
  dns_next_resolver: addr.nullable(),
  dns_wallet: addr.nullable(),
  dns_site_adnl: z.string().describe('ADNL address, 64 hex digits').nullable(),
  dns_storage_bag_id: z.string().describe('TON Storage bag id, 64 hex digits').nullable(),
});

export const DnsRecordsResponse = z.object({ records: z.array(DnsRecord), address_book: AddressBook });

export type DnsRecordJson = z.infer<typeof DnsRecord>;
