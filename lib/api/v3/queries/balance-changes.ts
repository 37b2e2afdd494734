// /balanceChanges (api-v3.md §2.4): per account, the TON its transactions in a trace (or in one action
// of it) moved — value received minus value sent minus fees — with the fees apart, and the jetton
// balances the trace's successful jetton actions moved, per owner and jetton master.
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { bytes } from '../encode';

export interface BalanceChangesJson {
  changes: Record<string, number> | null;
  fees: Record<string, number> | null;
  jettons: Record<string, Record<string, string>> | null;
}

const sorted = <T>(m: Map<string, T>) => Object.fromEntries([...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The transactions and actions a balance change covers: a whole trace, or one action's. */
export type BalanceScope = { traceId: Uint8Array } | { traceId: Uint8Array; actionId: Uint8Array; txHashes: Uint8Array[] };

/** The stored trace (existence), and the action's transactions: what balanceChanges looks up first (exported for the plan test). */
export const traceExistsQuery = (traceId: Uint8Array): Prisma.Sql => Prisma.sql`SELECT 1 AS found FROM traces tr WHERE tr.trace_id = ${traceId}`;
export const actionTxHashesQuery = (traceId: Uint8Array, actionId: Uint8Array): Prisma.Sql =>
  Prisma.sql`SELECT a.tx_hashes FROM actions a WHERE a.trace_id = ${traceId} AND a.action_id = ${actionId} LIMIT 1`;

/** Per account, the fees and the value received and sent by its transactions in the scope (exported for the plan test). */
export function tonMovesQuery(scope: BalanceScope): Prisma.Sql {
  const txFilter = 'actionId' in scope ? Prisma.sql`t.hash = ANY(${scope.txHashes}::bytea[])` : Prisma.sql`t.trace_id = ${scope.traceId}`;
  return Prisma.sql`
    SELECT t.account, sum(t.total_fees)::text AS fees,
      coalesce(sum((SELECT sum(m.value) FROM messages m WHERE m.tx_hash = t.hash AND m.direction = 'in' AND m.source IS NOT NULL)), 0)::text AS received,
      coalesce(sum((SELECT sum(m.value) FROM messages m WHERE m.tx_hash = t.hash AND m.direction = 'out' AND m.destination IS NOT NULL)), 0)::text AS sent
    FROM transactions t WHERE ${txFilter} GROUP BY t.account`;
}

/** The successful jetton transfers, mints and burns in the scope (exported for the plan test). */
export function jettonMovesQuery(scope: BalanceScope): Prisma.Sql {
  const actionFilter = 'actionId' in scope ? Prisma.sql`a.trace_id = ${scope.traceId} AND a.action_id = ${scope.actionId}` : Prisma.sql`a.trace_id = ${scope.traceId}`;
  return Prisma.sql`
    SELECT a.type, a.source, a.destination, a.asset, a.amount::text AS amount FROM actions a
    WHERE ${actionFilter} AND a.success AND a.type IN ('jetton_transfer', 'jetton_mint', 'jetton_burn')`;
}

/** null when the trace (or the action) is not stored. */
export async function balanceChanges(sql: SqlReader, traceId: Buffer, actionId: Buffer | null): Promise<BalanceChangesJson | null> {
  const trace = bytes(traceId);
  if (!(await sql.rows(traceExistsQuery(trace))).length) return null;
  let scope: BalanceScope = { traceId: trace };
  if (actionId) {
    const [found] = await sql.rows<{ tx_hashes: Uint8Array[] }>(actionTxHashesQuery(trace, bytes(actionId)));
    if (!found) return { changes: null, fees: null, jettons: null };
    scope = { traceId: trace, actionId: bytes(actionId), txHashes: found.tx_hashes.map((h) => bytes(h)) };
  }
  const [ton, moves] = await Promise.all([
    sql.rows<{ account: string; fees: string; received: string; sent: string }>(tonMovesQuery(scope)),
    sql.rows<{ type: string; source: string | null; destination: string | null; asset: string | null; amount: string | null }>(jettonMovesQuery(scope)),
  ]);
  const changes = new Map<string, number>();
  const fees = new Map<string, number>();
  for (const r of ton) {
    changes.set(r.account, Number(BigInt(r.received) - BigInt(r.sent) - BigInt(r.fees)));
    fees.set(r.account, Number(BigInt(r.fees)));
  }
  const jettons = new Map<string, Map<string, bigint>>();
  const add = (owner: string | null, asset: string | null, amount: bigint) => {
    if (!owner || !asset) return;
    const per = jettons.get(owner) ?? new Map<string, bigint>();
    per.set(asset, (per.get(asset) ?? 0n) + amount);
    jettons.set(owner, per);
  };
  for (const m of moves) {
    const amount = BigInt(m.amount ?? 0);
    if (m.type !== 'jetton_mint') add(m.source, m.asset, -amount);
    if (m.type !== 'jetton_burn') add(m.destination, m.asset, amount);
  }
  return {
    changes: sorted(changes),
    fees: sorted(fees),
    jettons: sorted(new Map([...jettons].map(([owner, per]) => [owner, sorted(new Map([...per].map(([k, v]) => [k, v.toString()])))]))),
  };
}
