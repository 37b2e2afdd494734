// jetton_wallets for GET /jetton/wallets: filters, ordering and the JSON shape (api-v3.md §2, §3.11).
import { Prisma, type PrismaClient } from '../../../db/generated/client';
import { dec, optB64 } from '../encode';
import type { JettonWalletJson } from '../models';
import type { Page, SortOrder } from '../params';

export interface JettonWalletFilter {
  address?: string[];
  owner?: string[];
  jetton?: string[];
  excludeZeroBalance?: boolean;
  /** Given: order by balance; absent: by insertion order (toncenter's internal id) ascending. */
  sort?: SortOrder;
}

interface Row {
  address: string;
  balance: Prisma.Decimal;
  owner: string;
  jetton: string;
  last_transaction_lt: bigint;
  code_hash: Uint8Array | null;
  data_hash: Uint8Array | null;
}

/**
 * Wallets by address (address order), else grouped by owner, else by a single jetton, then the sort
 * column — the (owner|jetton, id|balance) indexes serve each of these orders.
 */
export async function findJettonWallets(prisma: PrismaClient, f: JettonWalletFilter, page: Page): Promise<JettonWalletJson[]> {
  const cond: Prisma.Sql[] = [];
  if (f.address?.length) cond.push(Prisma.sql`address = ANY(${f.address}::text[])`);
  if (f.owner?.length) cond.push(Prisma.sql`owner = ANY(${f.owner}::text[])`);
  if (f.jetton?.length) cond.push(Prisma.sql`jetton = ANY(${f.jetton}::text[])`);
  if (f.excludeZeroBalance) cond.push(Prisma.sql`balance > 0`);
  const where = cond.length ? Prisma.sql`WHERE ${Prisma.join(cond, ' AND ')}` : Prisma.empty;
  const dir = Prisma.raw(f.sort === 'desc' ? 'DESC' : 'ASC');
  const column = f.sort ? Prisma.sql`balance ${dir}, id ${dir}` : Prisma.sql`id ASC`;
  const order = f.address?.length
    ? Prisma.sql`address ASC`
    : f.owner?.length
      ? Prisma.sql`owner ASC, ${column}`
      : f.jetton?.length === 1
        ? Prisma.sql`jetton ASC, ${column}`
        : column;
  const rows = await prisma.$queryRaw<Row[]>(Prisma.sql`
    SELECT address, balance, owner, jetton, last_transaction_lt, code_hash, data_hash
    FROM jetton_wallets ${where} ORDER BY ${order} LIMIT ${page.take} OFFSET ${page.skip}`);
  return rows.map((r) => ({
    address: r.address,
    balance: dec(r.balance),
    owner: r.owner,
    jetton: r.jetton,
    last_transaction_lt: r.last_transaction_lt.toString(),
    code_hash: optB64(r.code_hash),
    data_hash: optB64(r.data_hash),
  }));
}
