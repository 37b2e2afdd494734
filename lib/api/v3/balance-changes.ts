// /balanceChanges (api-v3.md §2.4): per account, the TON its transactions in a trace (or in one action
// of it) moved — value received minus value sent minus fees — with the fees apart, and the jetton
// balances the trace's successful jetton actions moved, per owner and jetton master.
import { Prisma, type PrismaClient } from '../../db/generated/client';
import { bytes } from './encode';

export interface BalanceChangesJson {
  changes: Record<string, number> | null;
  fees: Record<string, number> | null;
  jettons: Record<string, Record<string, string>> | null;
}

const sorted = <T>(m: Map<string, T>) => Object.fromEntries([...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** null when the trace (or the action) is not stored. */
export async function balanceChanges(prisma: PrismaClient, traceId: Buffer, actionId: Buffer | null): Promise<BalanceChangesJson | null> {
  const trace = await prisma.trace.findUnique({ where: { traceId: bytes(traceId) }, select: { traceId: true } });
  if (!trace) return null;
  let txFilter = Prisma.sql`t.trace_id = ${bytes(traceId)}`;
  let actionFilter = Prisma.sql`a.trace_id = ${bytes(traceId)}`;
  if (actionId) {
    const found = await prisma.action.findFirst({ where: { traceId: bytes(traceId), actionId: bytes(actionId) }, select: { txHashes: true } });
    if (!found) return { changes: null, fees: null, jettons: null };
    txFilter = Prisma.sql`t.hash = ANY(${found.txHashes.map(bytes)}::bytea[])`;
    actionFilter = Prisma.sql`a.trace_id = ${bytes(traceId)} AND a.action_id = ${bytes(actionId)}`;
  }
  const ton = await prisma.$queryRaw<{ account: string; fees: string; received: string; sent: string }[]>(Prisma.sql`
    SELECT t.account, sum(t.total_fees)::text AS fees,
      coalesce(sum((SELECT sum(m.value) FROM messages m WHERE m.tx_hash = t.hash AND m.direction = 'in' AND m.source IS NOT NULL)), 0)::text AS received,
      coalesce(sum((SELECT sum(m.value) FROM messages m WHERE m.tx_hash = t.hash AND m.direction = 'out' AND m.destination IS NOT NULL)), 0)::text AS sent
    FROM transactions t WHERE ${txFilter} GROUP BY t.account`);
  const changes = new Map<string, number>();
  const fees = new Map<string, number>();
  for (const r of ton) {
    changes.set(r.account, Number(BigInt(r.received) - BigInt(r.sent) - BigInt(r.fees)));
    fees.set(r.account, Number(BigInt(r.fees)));
  }
  const moves = await prisma.$queryRaw<{ type: string; source: string | null; destination: string | null; asset: string | null; amount: string | null }[]>(Prisma.sql`
    SELECT a.type, a.source, a.destination, a.asset, a.amount::text AS amount FROM actions a
    WHERE ${actionFilter} AND a.success AND a.type IN ('jetton_transfer', 'jetton_mint', 'jetton_burn')`);
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
