// Requests a contract of a block received (a jetton wallet's transfer, an NFT item's transfer): the
// transaction, its in-message's body and what the detector knows about the receiver. One walk for
// every token family, so they agree on which transactions count.
import { Prisma, type PrismaClient } from '../../db/generated/client';
import type { MessageRecord } from '../../chain/records';
import type { TableRows } from '../sql';
import type { DeriveBlock } from './detector';

/** What every received request carries, whatever the receiver. */
export interface ReceivedRequest {
  txHash: Buffer;
  lt: bigint;
  now: number;
  aborted: boolean;
  mcSeqno: number;
  body: Buffer;
}

/**
 * The block's transactions with an in-message whose body is at hand and that `pick` accepts (it
 * returns the receiver's own fields, undefined to skip). Every account that had a transaction is
 * among the block's accounts, so the receiver's data is at hand for `pick`.
 */
export function receivedRequests<R extends object>(
  block: DeriveBlock,
  pick: (account: string, msg: MessageRecord) => R | undefined,
): (ReceivedRequest & R)[] {
  const inMessages = new Map<string, MessageRecord>();
  for (const b of block.blocks) for (const m of b.messages) if (m.direction === 'in') inMessages.set(m.txHash.toString('hex'), m);
  const requests: (ReceivedRequest & R)[] = [];
  for (const b of block.blocks) {
    for (const t of b.transactions) {
      const msg = inMessages.get(t.hash.toString('hex'));
      const own = msg && pick(t.account, msg);
      if (!msg || !own) continue;
      const body = block.contents.get(msg.bodyHash.toString('hex'));
      if (!body) continue;
      requests.push({ txHash: t.hash, lt: t.lt, now: t.now, aborted: t.description.aborted ?? false, mcSeqno: block.mcSeqno, body, ...own });
    }
  }
  return requests;
}

/**
 * A backfill page (Detector.history) of requests already indexed: those with lt above `afterLt`, at
 * most `limit`, and every other one at the page's last lt (several accounts' transactions share an
 * lt, and the next page starts above it). `requestsAfter` reads the requests where its SQL condition
 * on `m.tx_lt` holds, by lt, at most `limit` of them (null: all); `tables` makes the rows.
 */
export async function requestHistory<R extends ReceivedRequest>(
  requestsAfter: (ltCondition: Prisma.Sql, limit: number | null) => Promise<R[]>,
  afterLt: bigint,
  limit: number,
  tables: (rows: R[]) => TableRows[],
): Promise<{ tables: TableRows[]; lastLt: bigint | null; count: number }> {
  const rows = await requestsAfter(Prisma.sql`m.tx_lt > ${afterLt}`, limit);
  if (!rows.length) return { tables: [], lastLt: null, count: 0 };
  const lastLt = rows[rows.length - 1]!.lt;
  const seen = new Set(rows.map((r) => r.txHash.toString('hex')));
  for (const r of await requestsAfter(Prisma.sql`m.tx_lt = ${lastLt}`, null)) if (!seen.has(r.txHash.toString('hex'))) rows.push(r);
  return { tables: tables(rows), lastLt, count: rows.length };
}

/** A received request as SQL reads it back from the index, with the receiver's own columns (`R`). */
type IndexedRequestRow<R> = { hash: Uint8Array; lt: bigint; now: number; aborted: boolean; mc_seqno: number | null; account: string; boc: Uint8Array } & R;

/**
 * Requests already indexed (in-messages joined to their transaction and body) to receivers that
 * `receiver` joins on `m.destination`, whose message `where` and `ltCondition` accept, by lt; at
 * most `limit` of them (null: all). `own` maps a row to the receiver's fields.
 */
export async function indexedRequests<R extends object, O extends object>(
  prisma: PrismaClient,
  q: { columns: Prisma.Sql; receiver: Prisma.Sql; where: Prisma.Sql; own: (row: IndexedRequestRow<R>) => O },
  ltCondition: Prisma.Sql,
  limit: number | null,
): Promise<(ReceivedRequest & O)[]> {
  const rows = await prisma.$queryRaw<IndexedRequestRow<R>[]>(Prisma.sql`
    SELECT t.hash, t.lt, t.now, coalesce((t.description->>'aborted')::boolean, false) AS aborted, t.mc_block_seqno AS mc_seqno,
           t.account, ${q.columns}, c.boc
    FROM messages m
    ${q.receiver}
    JOIN transactions t ON t.hash = m.tx_hash
    JOIN message_contents c ON c.hash = m.body_hash
    WHERE m.direction = 'in' AND ${q.where} AND ${ltCondition}
    ORDER BY m.tx_lt, m.tx_hash ${limit === null ? Prisma.empty : Prisma.sql`LIMIT ${limit}`}`);
  return rows.map((r) => ({
    txHash: Buffer.from(r.hash),
    lt: r.lt,
    now: r.now,
    aborted: r.aborted,
    mcSeqno: r.mc_seqno ?? 0,
    body: Buffer.from(r.boc),
    ...q.own(r),
  }));
}
