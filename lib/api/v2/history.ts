// v2 over history a non-archival lite server has pruned. When a liteserver answers that it no longer keeps
// a block, a transaction or a state ("lt not in db", "state already gc'd": lib/lite/errors.ts
// isHistoryGone), the methods that read history ask the index instead, and answer from it in exactly the
// JSON the live path gives (the same builders, fed the same cells and block fields). What the index holds
// must be the whole answer, never part of it: a block is held when its row is there (stored with all its
// transactions in one database transaction), an account's history as far as its transactions link up
// (prev_trans_lt/hash) with their BoCs (transaction_bocs), a lookup by lt or time only when the block
// before the answer is there too (else an unindexed one could be the answer). When the index does not
// hold it either, the liteserver's error stands: 542 (errors.ts liteFailure), never a 500.
import { Address, Cell } from '@ton/core';
import { Prisma } from '../../db/generated/client';
import type { Database } from '../../db/database';
import { isHistoryGone } from '../../lite/errors';
import { shardsHolding } from '../../ton';
import { rawUpper } from '../../ton/address';
import { shardString, type BlockIdLike } from './block-json';
import { invalidRequest } from './errors';
import type { BlockRecord } from '../../chain/records';

/**
 * Runs the live read; when the lite servers no longer keep the history it needs, the index read (if the
 * services have a database); when that does not hold it either (undefined), the liteserver's error.
 */
export async function withHistory<T>(db: Database | undefined, live: () => Promise<T>, indexed: (db: Database) => Promise<T | undefined>): Promise<T> {
  try {
    return await live();
  } catch (err) {
    if (!db || !isHistoryGone(err)) throw err;
    const answer = await indexed(db);
    if (answer === undefined) throw err;
    return answer;
  }
}

/** The header fields v2 shows that the index keeps as they are (header proofs give them the same types). */
export type V2HeaderField =
  | 'globalId'
  | 'version'
  | 'afterMerge'
  | 'afterSplit'
  | 'beforeSplit'
  | 'wantMerge'
  | 'wantSplit'
  | 'minRefMcSeqno'
  | 'keyBlock'
  | 'prevKeyBlockSeqno'
  | 'startLt'
  | 'endLt';

/** A block's row as the index holds it: its id and the header fields v2 shows. */
export interface IndexedBlock
  extends BlockIdLike,
    // validatorListHashShort: the uint32 as stored
    Pick<BlockRecord, V2HeaderField | 'validatorListHashShort' | 'genCatchainSeqno' | 'prevBlocks'> {
  shard: bigint;
  genUtime: number;
}

interface BlockRow {
  workchain: number;
  shard: bigint;
  seqno: number;
  root_hash: Uint8Array;
  file_hash: Uint8Array;
  global_id: number;
  version: number;
  after_merge: boolean;
  after_split: boolean;
  before_split: boolean;
  want_merge: boolean;
  want_split: boolean;
  validator_list_hash_short: bigint;
  gen_catchain_seqno: number;
  min_ref_mc_seqno: number;
  key_block: boolean;
  prev_key_block_seqno: number;
  start_lt: bigint;
  end_lt: bigint;
  gen_utime: bigint;
  prev_blocks: IndexedBlock['prevBlocks'];
}

const BLOCK_FIELDS = Prisma.sql`workchain, shard, seqno, root_hash, file_hash, global_id, version, after_merge, after_split, before_split,
  want_merge, want_split, validator_list_hash_short, gen_catchain_seqno, min_ref_mc_seqno, key_block, prev_key_block_seqno, start_lt,
  end_lt, gen_utime, prev_blocks`;

function indexedBlock(r: BlockRow): IndexedBlock {
  return {
    workchain: r.workchain,
    shard: r.shard,
    seqno: r.seqno,
    rootHash: Buffer.from(r.root_hash),
    fileHash: Buffer.from(r.file_hash),
    globalId: r.global_id,
    version: r.version,
    afterMerge: r.after_merge,
    afterSplit: r.after_split,
    beforeSplit: r.before_split,
    wantMerge: r.want_merge,
    wantSplit: r.want_split,
    validatorListHashShort: r.validator_list_hash_short,
    genCatchainSeqno: r.gen_catchain_seqno,
    minRefMcSeqno: r.min_ref_mc_seqno,
    keyBlock: r.key_block,
    prevKeyBlockSeqno: r.prev_key_block_seqno,
    startLt: r.start_lt,
    endLt: r.end_lt,
    genUtime: Number(r.gen_utime),
    prevBlocks: r.prev_blocks,
  };
}

async function blockAt(db: Database, workchain: number, shard: bigint, seqno: number): Promise<IndexedBlock | undefined> {
  const [row] = await db.prisma.$queryRaw<BlockRow[]>(Prisma.sql`
    SELECT ${BLOCK_FIELDS} FROM blocks WHERE workchain = ${workchain} AND shard = ${shard} AND seqno = ${seqno}`);
  return row && indexedBlock(row);
}

/**
 * The block a v2 block method names (workchain, shard, seqno and maybe both hashes), if the index holds it:
 * with both hashes, that very block; without, the one a lookup by seqno finds (as on the live path).
 * Hashes the index knows no such block by are the request's mistake, as on the live path.
 */
export async function indexedBlockOf(
  db: Database,
  p: { workchain: number; shard: bigint; seqno: number; root_hash?: Buffer; file_hash?: Buffer },
): Promise<IndexedBlock | undefined> {
  const block = p.root_hash && p.file_hash ? await blockAt(db, p.workchain, BigInt.asIntN(64, p.shard), p.seqno) : await indexedBlockBySeqno(db, p.workchain, p.shard, p.seqno);
  if (block && p.root_hash && p.file_hash && !(block.rootHash.equals(p.root_hash) && block.fileHash.equals(p.file_hash))) {
    throw invalidRequest(
      `block (${p.workchain},${shardString(p.shard)},${p.seqno}) with root_hash ${p.root_hash.toString('hex')} and file_hash ${p.file_hash.toString('hex')} does not exist`,
    );
  }
  return block;
}

/**
 * The shards a lookup searches: like the node, it reads the shard id as an account prefix and finds the
 * block of whichever shard held that prefix at the time (the shard itself, an ancestor before a split,
 * a descendant after one).
 */
const lineage = (shard: bigint) => Prisma.join(shardsHolding(shard).map((s) => BigInt.asIntN(64, s)));

/** lookupBlock by seqno: the block of that seqno of the shard holding the prefix. */
export async function indexedBlockBySeqno(db: Database, workchain: number, shard: bigint, seqno: number): Promise<IndexedBlock | undefined> {
  const [row] = await db.prisma.$queryRaw<BlockRow[]>(Prisma.sql`
    SELECT ${BLOCK_FIELDS} FROM blocks WHERE workchain = ${workchain} AND shard IN (${lineage(shard)}) AND seqno = ${seqno} LIMIT 1`);
  return row && indexedBlock(row);
}

/**
 * lookupBlock by lt as the node's LtDb answers it: the first block holding the prefix whose end_lt ≥ lt.
 * Held when that block contains lt, or the block before it is indexed too (it then ends before lt).
 */
export async function indexedBlockByLt(db: Database, workchain: number, shard: bigint, lt: bigint): Promise<IndexedBlock | undefined> {
  const [before] = await db.prisma.$queryRaw<BlockRow[]>(Prisma.sql`
    SELECT ${BLOCK_FIELDS} FROM blocks WHERE workchain = ${workchain} AND shard IN (${lineage(shard)}) AND start_lt <= ${lt} ORDER BY start_lt DESC LIMIT 1`);
  if (!before) return undefined;
  if (before.end_lt >= lt) return indexedBlock(before);
  const [after] = await db.prisma.$queryRaw<BlockRow[]>(Prisma.sql`
    SELECT ${BLOCK_FIELDS} FROM blocks WHERE workchain = ${workchain} AND shard IN (${lineage(shard)}) AND start_lt > ${lt} ORDER BY start_lt LIMIT 1`);
  return after && after.seqno === before.seqno + 1 ? indexedBlock(after) : undefined;
}

/** lookupBlock by time: the first block holding the prefix generated at or after utime; held when the block before it is indexed too. */
export async function indexedBlockByUtime(db: Database, workchain: number, shard: bigint, utime: number): Promise<IndexedBlock | undefined> {
  const [row] = await db.prisma.$queryRaw<BlockRow[]>(Prisma.sql`
    SELECT ${BLOCK_FIELDS} FROM blocks WHERE workchain = ${workchain} AND shard IN (${lineage(shard)}) AND gen_utime >= ${utime} ORDER BY gen_utime, seqno LIMIT 1`);
  if (!row) return undefined;
  return row.seqno === 1 || (await indexedBlockBySeqno(db, workchain, shard, row.seqno - 1)) ? indexedBlock(row) : undefined;
}

/**
 * The top shard blocks masterchain block `mcSeqno` registered (shard_state, stored with it), in the
 * order of its ShardHashes (workchains by their dictionary key, shards left to right); undefined when the
 * index does not hold that masterchain block.
 */
export async function indexedShards(db: Database, mcSeqno: number): Promise<BlockIdLike[] | undefined> {
  const rows = await db.prisma.$queryRaw<{ workchain: number; shard: bigint; seqno: number; root_hash: Uint8Array | null; file_hash: Uint8Array | null }[]>(Prisma.sql`
    SELECT s.workchain, s.shard, s.seqno, b.root_hash, b.file_hash
    FROM shard_state s LEFT JOIN blocks b ON b.workchain = s.workchain AND b.shard = s.shard AND b.seqno = s.seqno
    WHERE s.mc_seqno = ${mcSeqno}`);
  if (!rows.some((r) => r.workchain === -1)) return undefined;
  const shards = rows.filter((r) => r.workchain !== -1);
  if (shards.some((r) => !r.root_hash || !r.file_hash)) return undefined;
  const u32 = (n: number) => n >>> 0;
  const u64 = (n: bigint) => BigInt.asUintN(64, n);
  shards.sort((a, b) => u32(a.workchain) - u32(b.workchain) || (u64(a.shard) < u64(b.shard) ? -1 : u64(a.shard) > u64(b.shard) ? 1 : 0));
  return shards.map((r) => ({ workchain: r.workchain, shard: r.shard, seqno: r.seqno, rootHash: Buffer.from(r.root_hash!), fileHash: Buffer.from(r.file_hash!) }));
}

/** A block transaction cursor (after_lt / after_hash): the account id and lt to continue after. */
export interface BlockTxCursor {
  account: Buffer;
  lt: string;
}

interface BlockTxRow {
  account: string;
  lt: bigint;
  hash: Uint8Array;
  boc: Uint8Array | null;
}

/**
 * Up to `count` transactions of an indexed block after `after`, in the liteserver's order (account, then
 * lt), and whether more follow. Undefined when `withBocs` and a transaction's BoC is not stored.
 */
export async function indexedBlockTransactions(db: Database, block: IndexedBlock, after: BlockTxCursor | null, count: number, withBocs: boolean) {
  const from = after ? Prisma.sql`AND (t.account, t.lt) > (${`${block.workchain}:${after.account.toString('hex').toUpperCase()}`}, ${BigInt(after.lt)})` : Prisma.empty;
  const rows = await db.prisma.$queryRaw<BlockTxRow[]>(Prisma.sql`
    SELECT t.account, t.lt, t.hash, ${withBocs ? Prisma.sql`b.boc` : Prisma.sql`NULL::bytea AS boc`}
    FROM transactions t ${withBocs ? Prisma.sql`LEFT JOIN transaction_bocs b ON b.hash = t.hash` : Prisma.empty}
    WHERE t.block_workchain = ${block.workchain} AND t.block_shard = ${block.shard} AND t.block_seqno = ${block.seqno} ${from}
    ORDER BY t.account, t.lt LIMIT ${count + 1}`);
  const page = rows.slice(0, count);
  if (withBocs && page.some((r) => !r.boc)) return undefined;
  return {
    incomplete: rows.length > count,
    transactions: page.map((r) => ({
      account: Buffer.from(r.account.split(':')[1]!, 'hex'),
      lt: r.lt,
      hash: Buffer.from(r.hash),
      cell: r.boc ? Cell.fromBoc(Buffer.from(r.boc))[0]! : undefined,
    })),
  };
}

/**
 * Up to `count` of an account's transactions from `start` (inclusive) back, as liteServer.getTransactions
 * gives them: each the previous one's prev_trans, stopping where the index's chain of them breaks (the
 * node, too, answers as far as it can). 'mismatch' when the index has the account's transaction at that
 * lt with another hash; undefined when it does not hold the one at `start`.
 */
export async function indexedAccountTransactions(db: Database, account: Address, start: { lt: bigint; hash: Buffer }, count: number): Promise<Cell[] | 'mismatch' | undefined> {
  const rows = await db.prisma.$queryRaw<{ lt: bigint; hash: Uint8Array; prev_trans_lt: bigint; prev_trans_hash: Uint8Array; boc: Uint8Array | null }[]>(Prisma.sql`
    SELECT t.lt, t.hash, t.prev_trans_lt, t.prev_trans_hash, b.boc
    FROM transactions t LEFT JOIN transaction_bocs b ON b.hash = t.hash
    WHERE t.account = ${rawUpper(account)} AND t.lt <= ${start.lt} ORDER BY t.lt DESC LIMIT ${count}`);
  const first = rows[0];
  if (!first || first.lt !== start.lt) return undefined;
  if (!Buffer.from(first.hash).equals(start.hash)) return 'mismatch';
  const cells: Cell[] = [];
  let want = start;
  for (const r of rows) {
    if (r.lt !== want.lt || !Buffer.from(r.hash).equals(want.hash) || !r.boc) break;
    cells.push(Cell.fromBoc(Buffer.from(r.boc))[0]!);
    want = { lt: r.prev_trans_lt, hash: Buffer.from(r.prev_trans_hash) };
  }
  return cells.length ? cells : undefined;
}

/**
 * The transaction on `side` of an internal message (source → destination, created_lt), from the index's
 * messages: 'result' the destination's that received it, 'source' the source's that sent it.
 */
export async function indexedLocate(db: Database, side: 'result' | 'source', source: Address, destination: Address, createdLt: bigint): Promise<Cell | undefined> {
  const direction = side === 'result' ? 'in' : 'out';
  const [row] = await db.prisma.$queryRaw<{ boc: Uint8Array | null }[]>(Prisma.sql`
    SELECT b.boc FROM messages m LEFT JOIN transaction_bocs b ON b.hash = m.tx_hash
    WHERE m.direction = ${direction} AND m.source = ${rawUpper(source)} AND m.destination = ${rawUpper(destination)}
      AND m.sort_lt = ${createdLt} AND m.created_lt = ${createdLt}
    LIMIT 1`);
  return row?.boc ? Cell.fromBoc(Buffer.from(row.boc))[0]! : undefined;
}
