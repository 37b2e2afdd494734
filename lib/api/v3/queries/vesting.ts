// vesting_contracts (with vesting_whitelist) for GET /vesting (api-v3.md §2.3, §3.19): by contract, or
// by owner or sender (and with check_whitelist by whitelist member), in insertion order.
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import type { VestingInfoJson } from '../models/vesting';
import type { Page } from '../params';
import { oneOf } from './where';

export type VestingFilter = { contracts: string[] } | { wallets: string[]; checkWhitelist: boolean };

interface VestingRow {
  address: string;
  vesting_start_time: bigint;
  vesting_total_duration: bigint;
  unlock_period: bigint;
  cliff_duration: bigint;
  vesting_total_amount: Prisma.Decimal;
  vesting_sender_address: string | null;
  owner_address: string | null;
  whitelist: string[] | null;
}

/** The query of one page, in insertion order. */
export function vestingQuery(f: VestingFilter, page: Page): Prisma.Sql {
  let cond: Prisma.Sql;
  if ('contracts' in f) cond = oneOf('v.address', f.contracts);
  else {
    const parties = Prisma.sql`${oneOf('v.owner_address', f.wallets)} OR ${oneOf('v.vesting_sender_address', f.wallets)}`;
    // Whitelisted: the contracts whose whitelist holds a wallet, as an array (a look-up of
    // vesting_whitelist by wallet) the planner reads vesting_contracts by, next to owner and sender; a
    // correlated EXISTS would have it test every contract.
    cond = f.checkWhitelist
      ? Prisma.sql`(${parties} OR v.address = ANY(ARRAY(SELECT m.vesting_contract_address FROM vesting_whitelist m WHERE ${oneOf('m.wallet_address', f.wallets)})))`
      : Prisma.sql`(${parties})`;
  }
  return Prisma.sql`
    SELECT v.address, v.vesting_start_time, v.vesting_total_duration, v.unlock_period, v.cliff_duration, v.vesting_total_amount,
           v.vesting_sender_address, v.owner_address,
           (SELECT json_agg(w.wallet_address ORDER BY w.wallet_address) FROM vesting_whitelist w WHERE w.vesting_contract_address = v.address) AS whitelist
    FROM vesting_contracts v WHERE ${cond} ORDER BY v.id ASC LIMIT ${page.take} OFFSET ${page.skip}`;
}

export async function findVesting(sql: SqlReader, f: VestingFilter, page: Page): Promise<VestingInfoJson[]> {
  const rows = await sql.rows<VestingRow>(vestingQuery(f, page));
  return rows.map((r) => ({
    address: r.address,
    start_time: Number(r.vesting_start_time),
    total_duration: Number(r.vesting_total_duration),
    unlock_period: Number(r.unlock_period),
    cliff_duration: Number(r.cliff_duration),
    sender_address: r.vesting_sender_address,
    owner_address: r.owner_address,
    total_amount: r.vesting_total_amount.toFixed(),
    whitelist: r.whitelist ?? [],
  }));
}
