// GET /dns/records (api-v3.md §2.2): the .ton names the derive stage keeps (lib/indexer/derive/nft.ts),
// by the wallet their record points to or by domain.
import { z } from 'zod';
import { unprocessable } from '../errors';
import { DnsRecordsResponse } from '../models/dns';
import { limitParams, p, page } from '../params';
import { findDnsRecords } from '../queries/dns-records';
import { defineRoute } from '../route';
import { sideMaps } from '../queries/side-maps';

export const dnsRecords = defineRoute({
  path: 'dns/records',
  tag: 'dns',
  summary: 'DNS records',
  description: 'The .ton names whose wallet record is `wallet`, or the name `domain`, with every record; shortest domain first.',
  query: z.object({
    wallet: p.address('The address a dns_smc_address wallet record points to.'),
    domain: p.string('Exact domain, e.g. foo.ton.'),
    limit: limitParams().limit,
    offset: limitParams().offset,
  }),
  response: DnsRecordsResponse,
  errors: { 422: 'either wallet address or domain is required · provide either wallet address or domain, not both · invalid parameter or limit' },
  async run(q, ctx) {
    if (q.wallet === undefined && q.domain === undefined) throw unprocessable('either wallet address or domain is required');
    if (q.wallet !== undefined && q.domain !== undefined) throw unprocessable('provide either wallet address or domain, not both');
    const records = await findDnsRecords(ctx.sql, { wallet: q.wallet, domain: q.domain?.toLowerCase() }, page(q));
    const { address_book } = await sideMaps(ctx, records.flatMap((r) => [r.nft_item_address, r.nft_item_owner, r.dns_wallet]), { book: true, metadata: false });
    return { records, address_book };
  },
});
