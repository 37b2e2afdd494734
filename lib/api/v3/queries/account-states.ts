// latest_account_states for topAccountsByBalance, accountStates and walletStates (api-v3.md §2.2): the
// newest state of each account, in the shape of the LatestAccountState model.
import { Prisma, type LatestAccountState } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { bytes } from '../encode';
import type { Page } from '../params';

/** Every column of latest_account_states, named as the LatestAccountState model names it. */
const COLUMNS = Prisma.sql`account, account_state_hash AS "accountStateHash", last_trans_lt AS "lastTransLt", last_trans_hash AS "lastTransHash",
  timestamp, balance, balance_extra_currencies AS "balanceExtraCurrencies", account_status AS "accountStatus", frozen_hash AS "frozenHash",
  data_hash AS "dataHash", code_hash AS "codeHash", data_boc AS "dataBoc", code_boc AS "codeBoc"`;

/** At most this many states per answer (toncenter's LIMIT 1000; its swagger's "max 1000" addresses is not checked). */
export const MAX_STATES = 1000;

/** One page of accounts by balance, largest first (ties by account). */
export const topBalancesQuery = (page: Page): Prisma.Sql => Prisma.sql`
  SELECT account, balance FROM latest_account_states ORDER BY balance DESC, account ASC LIMIT ${page.take} OFFSET ${page.skip}`;

export const findTopBalances = (sql: SqlReader, page: Page) => sql.rows<{ account: string; balance: Prisma.Decimal }>(topBalancesQuery(page));

export interface LatestStateFilter {
  accounts: string[];
  /** Only states with one of these code hashes. */
  codeHashes?: Buffer[];
}

/** The latest states of the accounts, in no particular order. */
export function latestStatesQuery(f: LatestStateFilter): Prisma.Sql {
  const code = f.codeHashes?.length ? Prisma.sql`AND code_hash = ANY(${f.codeHashes.map(bytes)}::bytea[])` : Prisma.empty;
  return Prisma.sql`SELECT ${COLUMNS} FROM latest_account_states WHERE account = ANY(${f.accounts}::text[]) ${code} LIMIT ${MAX_STATES}`;
}

export const findLatestStates = (sql: SqlReader, f: LatestStateFilter): Promise<LatestAccountState[]> => sql.rows<LatestAccountState>(latestStatesQuery(f));
