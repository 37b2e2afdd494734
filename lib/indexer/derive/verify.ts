// The derived NFT, DNS, vesting and multisig tables checked against the get-methods (npm run index:verify): every stored
// account of those tables is derived again from its latest indexed state at the newest indexed
// masterchain block, exactly as the derive stage would, and each stored row must equal the fresh one.
// A difference means a row missed an update or the detector changed since it was written. A row whose
// get-method the contract now makes unusable (a crash, a result past the limits: derive_skips) is listed
// as skipped, not as a difference.
import { Prisma, type PrismaClient } from '../../db/generated/client';
import type { Row } from '../sql';
import { lastMasterchainBlock, stateRecord, type StateRow } from './backfill';
import type { Deriver } from './index';

/** The tables compared, each by its key column. */
const TABLES: Record<string, string> = {
  nft_collections: 'address',
  nft_items: 'address',
  nft_sales: 'address',
  dns_entries: 'nft_item_address',
  vesting_contracts: 'address',
  multisig_wallets: 'address',
  multisig_orders: 'address',
};

/** Tables of several rows per account, compared as one set per account along with the account's row. */
const MEMBERS: Record<string, { table: string; key: string; column: string }> = {
  vesting_contracts: { table: 'vesting_whitelist', key: 'vesting_contract_address', column: 'wallet_address' },
};

/** `column` of `rows` as one sorted, comparable list per `key`. */
function members(rows: Row[], key: string, column: string): Map<string, string> {
  const lists = new Map<string, string[]>();
  for (const r of rows) {
    const k = r[key] as string;
    lists.set(k, [...(lists.get(k) ?? []), r[column] as string]);
  }
  return new Map([...lists].map(([k, v]) => [k, `[${v.sort().join(', ')}]`]));
}

/** One comparable text per value, whether it came from the database or from the detector. */
function text(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v).toString('hex')}`;
  if (v instanceof Prisma.Decimal) return v.toFixed();
  if (typeof v === 'object') return JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x));
  return String(v);
}

export interface DerivedVerifyOptions {
  prisma: PrismaClient;
  deriver: Deriver;
  /** Accounts derived at once. */
  batch?: number;
}

/** One line per difference, naming the table, the row and the column. */
export async function verifyDerived(o: DerivedVerifyOptions): Promise<{ rows: number; differences: string[]; skipped: string[] }> {
  const at = await lastMasterchainBlock(o.prisma);
  const differences: string[] = [];
  const skipped: string[] = [];
  let rows = 0;
  if (!at) return { rows, differences, skipped };
  const batch = o.batch ?? 200;
  for (const [table, key] of Object.entries(TABLES)) {
    let after = '';
    for (;;) {
      const stored = await o.prisma.$queryRaw<Row[]>(
        Prisma.sql`SELECT * FROM ${Prisma.raw(table)} WHERE ${Prisma.raw(key)} > ${after} ORDER BY ${Prisma.raw(key)} LIMIT ${batch}`,
      );
      if (!stored.length) break;
      after = stored[stored.length - 1]![key] as string;
      rows += stored.length;
      const accounts = stored.map((r) => r[key] as string);
      const states = await o.prisma.$queryRaw<StateRow[]>(Prisma.sql`
        SELECT account, account_state_hash, last_trans_lt, last_trans_hash, timestamp, balance, account_status, data_hash, code_hash, data_boc, code_boc
        FROM latest_account_states WHERE account = ANY(${accounts}::text[])`);
      const derived = await o.deriver.derive({ mcSeqno: at.seqno, blocks: [], states: states.map(stateRecord), at });
      const fresh = new Map<string, Row>();
      for (const t of derived) if (t.table === table) for (const r of t.rows) fresh.set(r[key] as string, r);
      const skips = new Map<string, string>();
      for (const t of derived) if (t.table === 'derive_skips') for (const r of t.rows) skips.set(r.address as string, `${String(r.method)}: ${String(r.reason)}`);
      for (const r of stored) {
        const id = `${table} ${String(r[key])}`;
        const want = fresh.get(r[key] as string);
        const skip = skips.get(r[key] as string);
        if (!want && skip) {
          skipped.push(`${id}: ${skip}`);
          continue;
        }
        if (!want) {
          differences.push(`${id}: the get-methods no longer give this row`);
          continue;
        }
        for (const [column, value] of Object.entries(want)) {
          if (text(r[column]) !== text(value)) differences.push(`${id}: ${column} ${text(r[column])} != ${text(value)}`);
        }
      }
      const m = MEMBERS[table];
      if (m) {
        const had = members(
          await o.prisma.$queryRaw<Row[]>(
            Prisma.sql`SELECT ${Prisma.raw(m.key)}, ${Prisma.raw(m.column)} FROM ${Prisma.raw(m.table)} WHERE ${Prisma.raw(m.key)} = ANY(${accounts}::text[])`,
          ),
          m.key,
          m.column,
        );
        const want = members(derived.filter((t) => t.table === m.table).flatMap((t) => t.rows), m.key, m.column);
        for (const a of accounts) {
          const [h, w] = [had.get(a) ?? '[]', want.get(a) ?? '[]'];
          if (h !== w) differences.push(`${m.table} ${a}: ${m.column} ${h} != ${w}`);
        }
      }
    }
  }
  return { rows, differences, skipped };
}
