// `blocks` for the v3 block routes (api-v3.md §2.1): filters, toncenter's tie-breakers and the rows in the
// shape of the Prisma model, read with raw SQL (a page of 1,000 blocks through the ORM costs more CPU than
// the database spends on it).
import { Prisma, type Block } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { bytes } from '../encode';
import { MASTERCHAIN_SHARD } from '../mappers';
import type { Page, SortOrder } from '../params';

/** Every column of blocks, named as the Block model names it. */
const COLUMNS = Prisma.sql`b.workchain, b.shard, b.seqno, b.root_hash AS "rootHash", b.file_hash AS "fileHash", b.mc_block_seqno AS "mcBlockSeqno",
  b.global_id AS "globalId", b.version, b.after_merge AS "afterMerge", b.before_split AS "beforeSplit", b.after_split AS "afterSplit",
  b.want_merge AS "wantMerge", b.want_split AS "wantSplit", b.key_block AS "keyBlock", b.vert_seqno_incr AS "vertSeqnoIncr", b.flags,
  b.gen_utime AS "genUtime", b.start_lt AS "startLt", b.end_lt AS "endLt", b.validator_list_hash_short AS "validatorListHashShort",
  b.gen_catchain_seqno AS "genCatchainSeqno", b.min_ref_mc_seqno AS "minRefMcSeqno", b.prev_key_block_seqno AS "prevKeyBlockSeqno",
  b.vert_seqno AS "vertSeqno", b.master_ref_seqno AS "masterRefSeqno", b.rand_seed AS "randSeed", b.created_by AS "createdBy",
  b.tx_count AS "txCount", b.prev_blocks AS "prevBlocks"`;

export interface BlockFilter {
  workchain?: number;
  shard?: bigint;
  seqno?: number;
  rootHash?: Buffer;
  fileHash?: Buffer;
  mcSeqno?: number;
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
  sort: SortOrder;
}

/**
 * Blocks order by gen_utime {sort}, then workchain descending (masterchain first when sorting desc),
 * shard and seqno {sort} — toncenter's tie-breakers.
 * [quirk] toncenter orders /blocks (and /masterchainBlockShards) only when `sort` is given and leaves
 * the order to PostgreSQL otherwise, which makes limit/offset paging return repeats and gaps. Atlas
 * always orders, with `sort` defaulting to desc like every other list route; any order is one toncenter
 * could have answered, so clients lose nothing.
 */
function ordering(sort: SortOrder): Prisma.Sql {
  const s = sort === 'asc' ? 'ASC' : 'DESC';
  return Prisma.raw(`b.gen_utime ${s}, b.workchain ${s === 'ASC' ? 'DESC' : 'ASC'}, b.shard ${s}, b.seqno ${s}`);
}

/** The query of one page of `f` (exported for the plan test). */
export function blocksQuery(f: BlockFilter, page: Page): Prisma.Sql {
  const cond: Prisma.Sql[] = [];
  if (f.workchain !== undefined) cond.push(Prisma.sql`b.workchain = ${f.workchain}::int`);
  if (f.shard !== undefined) cond.push(Prisma.sql`b.shard = ${f.shard}::int8`);
  if (f.seqno !== undefined) cond.push(Prisma.sql`b.seqno = ${f.seqno}::int`);
  if (f.rootHash) cond.push(Prisma.sql`b.root_hash = ${bytes(f.rootHash)}`);
  if (f.fileHash) cond.push(Prisma.sql`b.file_hash = ${bytes(f.fileHash)}`);
  if (f.mcSeqno !== undefined) cond.push(Prisma.sql`b.mc_block_seqno = ${f.mcSeqno}::int`);
  if (f.startUtime !== undefined) cond.push(Prisma.sql`b.gen_utime >= ${BigInt(f.startUtime)}::int8`);
  if (f.endUtime !== undefined) cond.push(Prisma.sql`b.gen_utime <= ${BigInt(f.endUtime)}::int8`);
  if (f.startLt !== undefined) cond.push(Prisma.sql`b.start_lt >= ${f.startLt}::int8`);
  if (f.endLt !== undefined) cond.push(Prisma.sql`b.start_lt <= ${f.endLt}::int8`);
  const where = cond.length ? Prisma.sql`WHERE ${Prisma.join(cond, ' AND ')}` : Prisma.empty;
  return Prisma.sql`SELECT ${COLUMNS} FROM blocks b ${where} ORDER BY ${ordering(f.sort)} LIMIT ${page.take} OFFSET ${page.skip}`;
}

export const findBlocks = (sql: SqlReader, f: BlockFilter, page: Page): Promise<Block[]> => sql.rows<Block>(blocksQuery(f, page));

/** blocksOfShardState's SQL (exported for the plan test). */
export const shardStateQuery = (mcSeqno: number): Prisma.Sql => Prisma.sql`
  SELECT ${COLUMNS} FROM shard_state s JOIN blocks b ON b.workchain = s.workchain AND b.shard = s.shard AND b.seqno = s.seqno
  WHERE s.mc_seqno = ${mcSeqno}::int ORDER BY b.workchain, b.shard, b.seqno`;

/** The blocks a masterchain block's shard state names (the masterchain block itself included), by workchain, shard and seqno. */
export const blocksOfShardState = (sql: SqlReader, mcSeqno: number): Promise<Block[]> => sql.rows<Block>(shardStateQuery(mcSeqno));

/**
 * The first or last indexed masterchain block (exported for the plan test). The masterchain has one
 * shard: naming it makes the seqno order a walk of the primary key (workchain, shard, seqno) from one
 * end, where workchain alone leaves every masterchain block to sort.
 */
export const masterchainEndQuery = (end: 'first' | 'last'): Prisma.Sql => Prisma.sql`
  SELECT ${COLUMNS} FROM blocks b WHERE b.workchain = -1 AND b.shard = ${MASTERCHAIN_SHARD}::int8
  ORDER BY b.seqno ${Prisma.raw(end === 'first' ? 'ASC' : 'DESC')} LIMIT 1`;

/** The first and last indexed masterchain blocks; null when none is indexed. */
export async function masterchainEnds(sql: SqlReader): Promise<{ first: Block; last: Block } | null> {
  const [[first], [last]] = await Promise.all([sql.rows<Block>(masterchainEndQuery('first')), sql.rows<Block>(masterchainEndQuery('last'))]);
  return first && last ? { first, last } : null;
}

/** masterchainBlockExists' SQL (exported for the plan test). */
export const masterchainBlockQuery = (seqno: number): Prisma.Sql =>
  Prisma.sql`SELECT b.seqno FROM blocks b WHERE b.workchain = -1 AND b.shard = ${MASTERCHAIN_SHARD}::int8 AND b.seqno = ${seqno}::int`;

/** Whether masterchain block `seqno` is indexed. */
export const masterchainBlockExists = async (sql: SqlReader, seqno: number): Promise<boolean> => (await sql.rows(masterchainBlockQuery(seqno))).length > 0;
