// dns_entries for GET /dns/records: the .ton names whose wallet record is an address, or one domain
// (api-v3.md §2.2, §3.18), ordered shortest domain first.
import { Prisma, type PrismaClient } from '../../../db/generated/client';
import type { DnsRecordJson } from '../models';
import type { Page } from '../params';

export interface DnsRecordFilter {
  wallet?: string;
  domain?: string;
}

export async function findDnsRecords(prisma: PrismaClient, f: DnsRecordFilter, page: Page): Promise<DnsRecordJson[]> {
  const cond = f.wallet !== undefined ? Prisma.sql`dns_wallet = ${f.wallet}` : Prisma.sql`domain = ${f.domain ?? ''}`;
  return prisma.$queryRaw<DnsRecordJson[]>(Prisma.sql`
    SELECT nft_item_address, nft_item_owner, domain, dns_next_resolver, dns_wallet, dns_site_adnl, dns_storage_bag_id
    FROM dns_entries WHERE ${cond} ORDER BY length(domain), domain LIMIT ${page.take} OFFSET ${page.skip}`);
}
