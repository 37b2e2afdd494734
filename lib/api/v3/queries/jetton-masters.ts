// jetton_masters for GET /jetton/masters: filters, ordering and the JSON shape (api-v3.md §2, §3.10).
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { dec, optB64 } from '../encode';
import type { JettonMasterJson } from '../models/jettons';
import type { Page } from '../params';
import { oneOf, where } from './where';

export interface JettonMasterFilter {
  address?: string[];
  adminAddress?: string[];
}

interface Row {
  address: string;
  total_supply: Prisma.Decimal;
  mintable: boolean;
  admin_address: string | null;
  jetton_content: Record<string, string> | null;
  jetton_wallet_code_hash: Uint8Array | null;
  code_hash: Uint8Array | null;
  data_hash: Uint8Array | null;
  last_transaction_lt: bigint;
}

/** The query of one page: masters by insertion order (toncenter's id), or by address when addresses are given. */
export function jettonMastersQuery(f: JettonMasterFilter, page: Page): Prisma.Sql {
  const cond: Prisma.Sql[] = [];
  if (f.address?.length) cond.push(oneOf('address', f.address));
  if (f.adminAddress?.length) cond.push(oneOf('admin_address', f.adminAddress));
  const order = f.address?.length ? Prisma.sql`address ASC` : Prisma.sql`id ASC`;
  return Prisma.sql`
    SELECT address, total_supply, mintable, admin_address, jetton_content, jetton_wallet_code_hash, code_hash, data_hash, last_transaction_lt
    FROM jetton_masters ${where(cond)} ORDER BY ${order} LIMIT ${page.take} OFFSET ${page.skip}`;
}

export async function findJettonMasters(sql: SqlReader, f: JettonMasterFilter, page: Page): Promise<JettonMasterJson[]> {
  const rows = await sql.rows<Row>(jettonMastersQuery(f, page));
  return rows.map((r) => ({
    address: r.address,
    total_supply: dec(r.total_supply),
    mintable: r.mintable,
    admin_address: r.admin_address,
    jetton_content: r.jetton_content ? sorted(r.jetton_content) : null,
    jetton_wallet_code_hash: optB64(r.jetton_wallet_code_hash),
    code_hash: optB64(r.code_hash),
    data_hash: optB64(r.data_hash),
    last_transaction_lt: r.last_transaction_lt.toString(),
  }));
}

/** jsonb does not keep key order; Go prints map keys sorted (NFT content too). */
export function sorted(m: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

