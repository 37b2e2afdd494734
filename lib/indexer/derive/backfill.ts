// The derive backfill: an index made before the derive stage (or with it off) gets its token tables
// from what it already holds — every account's latest state derived as a block would derive it (get-
// methods at the last indexed masterchain block), then each detector's history of already-indexed
// transactions. Resumable: progress is a cursor in derive_jobs, committed with each batch's rows; a
// restart continues after the last committed batch. Rows are written with the block path's conflict
// rules, so it may run while the indexer indexes new blocks.
import { Prisma, type PrismaClient } from '../../db/generated/client';
import type { Logger } from '../../log';
import type { AccountStateRecord } from '../account-state';
import type { AccountStatusName } from '../../chain/records';
import { insertRows, run, writeTransaction, type TableRows, type Tx } from '../sql';
import type { Deriver } from './index';
import type { GetterBlock } from './getters';
import { withStoredTraceIds } from './trace-ids';

/** The job's id: a new one (e.g. when a detector family is added) makes every index backfill again. */
export const BACKFILL_JOB = 'derive-v4'; // v2: NFTs, sales and DNS (nft.ts); v3: vesting wallets (vesting.ts); v4: multisig v2 (multisig.ts)
const historyJob = (detector: string) => `${BACKFILL_JOB}:${detector}`;

export interface BackfillOptions {
  prisma: PrismaClient;
  deriver: Deriver;
  log: Logger;
  /** Accounts (or history rows) per batch and transaction. */
  batch?: number;
  /** Checked between batches: true ends the run early (it resumes next time). */
  shouldStop?: () => boolean;
}

export interface BackfillResult {
  accounts: number;
  history: number;
  done: boolean;
}

/**
 * Whether the index needs the backfill. An empty index does not (the derive stage sees every block
 * from the first): its job is recorded as done.
 */
export async function backfillNeeded(prisma: PrismaClient): Promise<boolean> {
  const job = await prisma.deriveJob.findUnique({ where: { id: BACKFILL_JOB } });
  if (job) return job.doneAt === null;
  const any = await prisma.latestAccountState.findFirst({ select: { account: true } });
  if (any) return true;
  await prisma.deriveJob.upsert({ where: { id: BACKFILL_JOB }, create: { id: BACKFILL_JOB, doneAt: new Date() }, update: {} });
  return false;
}

/** A latest_account_states row as the derive stage reads it. */
export interface StateRow {
  account: string;
  account_state_hash: Uint8Array;
  last_trans_lt: bigint;
  last_trans_hash: Uint8Array;
  timestamp: number;
  balance: Prisma.Decimal;
  account_status: string;
  data_hash: Uint8Array | null;
  code_hash: Uint8Array | null;
  data_boc: Uint8Array | null;
  code_boc: Uint8Array | null;
}

const buf = (b: Uint8Array | null) => (b ? Buffer.from(b) : null);

export function stateRecord(r: StateRow): AccountStateRecord {
  return {
    hash: Buffer.from(r.account_state_hash),
    account: r.account,
    balance: BigInt(r.balance.toFixed()),
    balanceExtraCurrencies: null,
    accountStatus: r.account_status as AccountStatusName,
    frozenHash: null,
    dataHash: buf(r.data_hash),
    codeHash: buf(r.code_hash),
    dataBoc: buf(r.data_boc),
    codeBoc: buf(r.code_boc),
    lastTransLt: r.last_trans_lt,
    lastTransHash: Buffer.from(r.last_trans_hash),
    timestamp: r.timestamp,
  };
}

/** The newest indexed masterchain block: get-methods of the backfill run at it. */
export async function lastMasterchainBlock(prisma: PrismaClient): Promise<(GetterBlock & { seqno: number }) | null> {
  const b = await prisma.block.findFirst({ where: { workchain: -1 }, orderBy: { seqno: 'desc' } });
  if (!b) return null;
  return {
    seqno: b.seqno,
    id: { kind: 'tonNode.blockIdExt', workchain: -1, shard: b.shard.toString(), seqno: b.seqno, rootHash: Buffer.from(b.rootHash), fileHash: Buffer.from(b.fileHash) },
    utime: Number(b.genUtime),
    keySeqno: b.keyBlock ? b.seqno : b.prevKeyBlockSeqno,
  };
}

/**
 * One batch of a resumable job in derive_jobs (this backfill, the trace backfill of trace-backfill.ts):
 * the batch's writes (`write` returns how many items it processed) and the job's cursor and progress in
 * one database transaction, so a restart continues after the last committed batch and never writes a
 * batch twice.
 */
export async function commitJobBatch(prisma: PrismaClient, job: string, cursor: string, write: (tx: Tx) => Promise<number>): Promise<void> {
  await writeTransaction(prisma, async (tx) => {
    const count = await write(tx);
    await run(tx, Prisma.sql`
      INSERT INTO derive_jobs (id, last_account, processed) VALUES (${job}, ${cursor}, ${count})
      ON CONFLICT (id) DO UPDATE SET last_account = EXCLUDED.last_account, processed = derive_jobs.processed + EXCLUDED.processed`);
  });
}

const commit = (prisma: PrismaClient, tables: TableRows[], job: string, cursor: string, count: number) =>
  commitJobBatch(prisma, job, cursor, async (tx) => {
    for (const t of await withStoredTraceIds(tx, tables)) await insertRows(tx, t);
    return count;
  });

/** Runs (or resumes) the backfill until it is done or shouldStop() says so. */
export async function runBackfill(o: BackfillOptions): Promise<BackfillResult> {
  const batch = o.batch ?? 200;
  const result: BackfillResult = { accounts: 0, history: 0, done: false };
  const at = await lastMasterchainBlock(o.prisma);
  const job = await o.prisma.deriveJob.upsert({ where: { id: BACKFILL_JOB }, create: { id: BACKFILL_JOB }, update: {} });
  if (job.doneAt) return { ...result, done: true };
  o.log.info({ from: job.lastAccount, processed: job.processed, atSeqno: at?.seqno }, 'derive backfill: starting');

  // 1. Every account's latest state, in account order.
  let cursor = job.lastAccount;
  while (at) {
    if (o.shouldStop?.()) return result;
    const rows = await o.prisma.$queryRaw<StateRow[]>(Prisma.sql`
      SELECT account, account_state_hash, last_trans_lt, last_trans_hash, timestamp, balance, account_status, data_hash, code_hash, data_boc, code_boc
      FROM latest_account_states
      WHERE code_hash IS NOT NULL ${cursor === null ? Prisma.empty : Prisma.sql`AND account > ${cursor}`}
      ORDER BY account LIMIT ${batch}`);
    if (!rows.length) break;
    const tables = await o.deriver.derive({ mcSeqno: at.seqno, blocks: [], states: rows.map(stateRecord), at });
    cursor = rows[rows.length - 1]!.account;
    await commit(o.prisma, tables, BACKFILL_JOB, cursor, rows.length);
    result.accounts += rows.length;
    o.log.info({ accounts: job.processed + result.accounts, lastAccount: cursor }, 'derive backfill: accounts');
  }

  // 2. Each family's history of already-indexed transactions, in lt order.
  for (const d of o.deriver.detectors) {
    if (!d.history) continue;
    const id = historyJob(d.name);
    const h = await o.prisma.deriveJob.findUnique({ where: { id } });
    if (h?.doneAt) continue;
    let afterLt = h?.lastAccount ? BigInt(h.lastAccount) : -1n;
    for (;;) {
      if (o.shouldStop?.()) return result;
      const page = await d.history(o.prisma, afterLt, batch);
      if (page.lastLt === null) break;
      afterLt = page.lastLt;
      await commit(o.prisma, page.tables, id, afterLt.toString(), page.count);
      result.history += page.count;
      o.log.info({ detector: d.name, transactions: result.history, lastLt: afterLt.toString() }, 'derive backfill: history');
    }
    await o.prisma.deriveJob.upsert({ where: { id }, create: { id, doneAt: new Date() }, update: { doneAt: new Date() } });
  }
  await o.prisma.deriveJob.update({ where: { id: BACKFILL_JOB }, data: { doneAt: new Date() } });
  o.log.info({ accounts: result.accounts, history: result.history }, 'derive backfill: done');
  return { ...result, done: true };
}
