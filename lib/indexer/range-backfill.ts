// `npm run indexer -- --from A --to B`: indexes the masterchain blocks A..B the index does not hold yet,
// oldest first, and exits. Typical use on a real network: the follower starts near the head
// (INDEXER_START_SEQNO, default head − 100) and older ranges are filled on request, next to it.
//
// Resumable without bookkeeping of its own: a masterchain block is stored in one transaction with every
// shard block it registered (store.ts), so "masterchain block N is in `blocks`" means N is indexed, exactly.
// A run killed at any moment and started again with the same range (or an overlapping one) skips what is
// stored and goes on from there. It never moves the follower's cursor (advance: false), and a block the
// follower stores at the same moment is written once (store.ts's per-block lock).
//
// Progress: one log line when it starts (what is already there), then every `reportEveryMs` (default
// 10 s) with done/total, blocks and transactions per second and the ETA, and one when it ends.
import { Prisma, type PrismaClient } from '../db/generated/client';
import type { Logger } from '../log';
import { MASTER_SHARD } from '../ton';
import { RateWindow, type Indexer } from './follower';

export interface RangeBackfillOptions {
  prisma: PrismaClient;
  /** An indexer that has claimed the chain (Indexer.claim). */
  indexer: Indexer;
  from: number;
  to: number;
  log: Logger;
  /** How often a progress line is logged (default 10 000 ms; 0: after every block). */
  reportEveryMs?: number;
  /** Checked between blocks: true ends the run early (it resumes at the next start). */
  shouldStop?: () => boolean;
}

export interface RangeBackfillResult {
  total: number;
  /** Blocks of the range the index held before this run. */
  alreadyIndexed: number;
  /** Blocks this run indexed. */
  indexed: number;
  transactions: number;
  /** The run ended before the range was done (shouldStop). */
  stopped: boolean;
}

/** Masterchain seqnos looked up at once when looking for the blocks still missing. */
const CHUNK = 1000;

/** Masterchain blocks of [from, to] the index holds. */
async function storedMasterchainSeqnos(prisma: PrismaClient, from: number, to: number): Promise<Set<number>> {
  const rows = await prisma.$queryRaw<{ seqno: number }[]>(Prisma.sql`
    SELECT seqno FROM blocks WHERE workchain = -1 AND shard = ${MASTER_SHARD} AND seqno BETWEEN ${from} AND ${to}`);
  return new Set(rows.map((r) => r.seqno));
}

/** How many masterchain blocks of [from, to] the index holds (an index-only count over the primary key). */
async function countStored(prisma: PrismaClient, from: number, to: number): Promise<number> {
  const [row] = await prisma.$queryRaw<{ n: bigint }[]>(Prisma.sql`
    SELECT count(*) AS n FROM blocks WHERE workchain = -1 AND shard = ${MASTER_SHARD} AND seqno BETWEEN ${from} AND ${to}`);
  return Number(row?.n ?? 0);
}

export async function backfillRange(o: RangeBackfillOptions): Promise<RangeBackfillResult> {
  const { from, to, log } = o;
  const total = to - from + 1;
  const alreadyIndexed = await countStored(o.prisma, from, to);
  const reportEveryMs = o.reportEveryMs ?? 10_000;
  const window = new RateWindow();
  const startedAt = Date.now();
  let indexed = 0;
  let transactions = 0;
  const progress = (seqno: number | null) => {
    const done = alreadyIndexed + indexed;
    const blocksPerSecond = window.blocksPerSecond();
    return {
      from,
      to,
      seqno,
      done,
      total,
      percent: Math.floor((done / total) * 1000) / 10,
      blocksPerSecond: +blocksPerSecond.toFixed(2),
      transactionsPerSecond: +window.transactionsPerSecond().toFixed(1),
      etaSeconds: blocksPerSecond > 0 ? Math.round((total - done) / blocksPerSecond) : null,
    };
  };
  log.info(
    { ...progress(null), alreadyIndexed },
    alreadyIndexed === 0 ? 'backfill starting' : alreadyIndexed === total ? 'backfill: the range is already indexed' : 'backfill resuming: skipping the blocks already indexed',
  );

  let stopped = false;
  window.shouldReport(); // the start line was the first report
  outer: for (let chunk = from; chunk <= to; chunk += CHUNK) {
    const chunkEnd = Math.min(to, chunk + CHUNK - 1);
    const stored = await storedMasterchainSeqnos(o.prisma, chunk, chunkEnd);
    for (let seqno = chunk; seqno <= chunkEnd; seqno++) {
      if (stored.has(seqno)) continue;
      if (o.shouldStop?.()) {
        stopped = true;
        break outer;
      }
      // Prepare ahead only blocks this run will write: up to the next one already stored.
      let aheadUntil = seqno;
      while (aheadUntil < chunkEnd && !stored.has(aheadUntil + 1)) aheadUntil++;
      const txs = await o.indexer.indexMasterchainBlock(seqno, { aheadUntil, advance: false });
      indexed++;
      transactions += txs;
      window.add(txs);
      log.debug({ seqno, transactions: txs }, 'backfilled');
      if (window.shouldReport(reportEveryMs)) log.info(progress(seqno), 'backfill progress');
    }
  }
  const seconds = (Date.now() - startedAt) / 1000;
  log.info({ ...progress(null), alreadyIndexed, indexed, transactions, seconds: +seconds.toFixed(1) }, stopped ? 'backfill stopped; run it again to resume' : 'backfill done');
  return { total, alreadyIndexed, indexed, transactions, stopped };
}
