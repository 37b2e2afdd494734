// dns_entries for GET /dns/records: the .ton names whose wallet record is an address, or one domain
// (api-v3.md §2.2, §3.18), ordered shortest domain first.
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import type { DnsRecordJson } from '../models/dns';
import type { Page } from '../params';

export interface DnsRecordFilter {
  wallet?: string;
  domain?: string;
}

/** The query of one page: by wallet, else by domain. */
export function dnsRecordsQuery(f: DnsRecordFilter, page: Page): Prisma.Sql {
  const cond = f.wallet !== undefined ? Prisma.sql`dns_wallet = ${f.wallet}` : Prisma.sql`domain = ${f.domain ?? ''}`;
  return Prisma.sql`
    SELECT nft_item_address, nft_item_owner, domain, dns_next_resolver, dns_wallet, dns_site_adnl, dns_storage_bag_id
    FROM dns_entries WHERE ${cond} ORDER BY length(domain), domain LIMIT ${page.take} OFFSET ${page.skip}`;
}

export const findDnsRecords = (sql: SqlReader, f: DnsRecordFilter, page: Page): Promise<DnsRecordJson[]> => sql.rows<DnsRecordJson>(dnsRecordsQuery(f, page));
