// nft_sales for GET /nft/sales: the sales and auctions among the given addresses, sales first, each
// with the item it sells (api-v3.md §2.3, §3.17).
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { optB64 } from '../encode';
import type { NftSaleJson } from '../models/nfts';
import { findNftItems } from './nft-items';

interface Row {
  address: string;
  type: 'getgems_sale' | 'getgems_auction';
  nft_address: string | null;
  nft_owner_address: string | null;
  marketplace_address: string | null;
  created_at: bigint | null;
  details: Record<string, unknown>;
  code_hash: Uint8Array | null;
  data_hash: Uint8Array | null;
  last_transaction_lt: bigint;
}

/** The sales among `addresses`, sales before auctions. */
export const nftSalesQuery = (addresses: string[]): Prisma.Sql => Prisma.sql`
  SELECT address, type, nft_address, nft_owner_address, marketplace_address, created_at, details, code_hash, data_hash, last_transaction_lt
  FROM nft_sales WHERE address = ANY(${addresses}::text[])
  ORDER BY CASE type WHEN 'getgems_sale' THEN 0 ELSE 1 END, address`;

export async function findNftSales(sql: SqlReader, addresses: string[]): Promise<NftSaleJson[]> {
  const rows = await sql.rows<Row>(nftSalesQuery(addresses));
  const nfts = rows.flatMap((r) => (r.nft_address ? [r.nft_address] : []));
  const items = nfts.length ? await findNftItems(sql, { address: nfts }, { take: nfts.length, skip: 0 }) : [];
  const byAddress = new Map(items.map((i) => [i.address, i]));
  return rows.map((r) => {
    // Optional fields absent rather than null (toncenter omits them), in the model's key order.
    const sale: NftSaleJson = {
      type: r.type,
      address: r.address,
      ...(r.nft_address ? { nft_address: r.nft_address } : {}),
      ...(r.nft_owner_address ? { nft_owner_address: r.nft_owner_address } : {}),
      ...(r.marketplace_address ? { marketplace_address: r.marketplace_address } : {}),
      ...(r.created_at !== null ? { created_at: Number(r.created_at) } : {}),
      last_transaction_lt: r.last_transaction_lt.toString(),
      ...(r.code_hash ? { code_hash: optB64(r.code_hash)! } : {}),
      ...(r.data_hash ? { data_hash: optB64(r.data_hash)! } : {}),
      details: sortedDetails(r.details),
    };
    const item = r.nft_address ? byAddress.get(r.nft_address) : undefined;
    if (item) sale.nft_item = item;
    return sale;
  });
}

function sortedDetails(d: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(d).filter(([, v]) => v !== null).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
