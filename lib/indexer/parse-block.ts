// One block BoC → every row it contributes to the index (block header, transactions, messages, contents).
// Transactions come from account_blocks, ordered by (account, lt) as liteservers list them.
import { createHash } from 'node:crypto';
import { deserializeBoc, deserializeBocLazy, listShards, shardChild, shardIdOf, shardParent, type BlkPrevInfo, type ExtBlkRef } from '../ton';
import { loadIndexedBlock, type IndexedBlock } from './indexed-block';
import type { BlockRecord, MessageContentRecord, MessageRecord, ParsedBlock, TransactionRecord } from '../chain/records';
import { parseTransaction } from '../chain/parse-transaction';

/** Unsigned 64-bit shard id → the signed form toncenter stores and prints in v2. */
export const signedShard = (shard: bigint) => BigInt.asIntN(64, shard);
export const unsignedShard = (shard: bigint) => BigInt.asUintN(64, shard);

/**
 * A block's name in keys, logs and verify reports: workchain:shard:seqno, the shard unsigned hex (as
 * lite-client ids print it) whichever form the caller holds.
 */
export const shardBlockName = (id: { workchain: number; shard: bigint; seqno: number }) => `${id.workchain}:${unsignedShard(id.shard).toString(16)}:${id.seqno}`;

function prevBlocks(workchain: number, shard: bigint, afterSplit: boolean, prev: BlkPrevInfo): BlockRecord['prevBlocks'] {
  const ref = (r: ExtBlkRef, s: bigint) => ({
    workchain,
    shard: signedShard(s).toString(),
    seqno: r.seqno,
    root_hash: r.rootHash.toString('base64'),
    file_hash: r.fileHash.toString('base64'),
  });
  if (prev.kind === 'merged') return [ref(prev.prev1, shardChild(unsignedShard(shard), false)), ref(prev.prev2, shardChild(unsignedShard(shard), true))];
  return [ref(prev.prev, afterSplit ? shardParent(unsignedShard(shard)) : shard)];
}

/**
 * @param boc the block as downloaded (its sha256 is the file hash)
 * @param mcBlockSeqno the masterchain block that registered it (its own seqno for masterchain blocks)
 */
export function parseBlock(boc: Buffer, mcBlockSeqno: number | null): ParsedBlock {
  const root = deserializeBoc(boc)[0]!;
  return parseIndexedBlock(loadIndexedBlock(root), { rootHash: root.hash(), fileHash: sha256(boc) }, mcBlockSeqno);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest();

/** A block id with its shard (unsigned). */
export interface ShardBlockId {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

/** A block the follower asked for by id: its rows, and what it needs to walk on to the next blocks. */
export interface DownloadedBlock {
  parsed: ParsedBlock;
  genUtime: number;
  /** the blocks it follows: its shard's previous block, its parent after a split, its two children after a merge */
  prevs: ShardBlockId[];
  /** on masterchain blocks: the newest block of each shard (shard unsigned) */
  shardTops: { workchain: number; shard: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer }[];
}

/**
 * parseBlock for a block downloaded by id: refuses bytes whose file hash (their SHA-256) is not the one
 * the id names, so a block we did not ask for is never indexed, as lite-client checks a block it
 * downloads. That makes the id's root hash the block's without hashing its cells: they are read lazily
 * (lib/ton/lazy-cells.ts), and only those under its transactions are ever hashed. The follower runs this
 * in its parse worker.
 */
export function parseDownloadedBlock(boc: Buffer, id: { rootHash: Buffer; fileHash: Buffer }, mcBlockSeqno: number): DownloadedBlock {
  const fileHash = sha256(boc);
  if (!fileHash.equals(id.fileHash)) throw new Error(`block file hash mismatch: ${fileHash.toString('hex')} != ${id.fileHash.toString('hex')}`);
  const b = loadIndexedBlock(deserializeBocLazy(boc)[0]!);
  const hashes = b.custom?.shardHashes;
  const workchain = b.info.shard.workchainId;
  const parsed = parseIndexedBlock(b, { rootHash: id.rootHash, fileHash }, mcBlockSeqno);
  return {
    parsed,
    genUtime: b.info.genUtime,
    prevs: parsed.block.prevBlocks.map((p) => ({
      workchain,
      shard: unsignedShard(BigInt(p.shard)),
      seqno: p.seqno,
      rootHash: Buffer.from(p.root_hash, 'base64'),
      fileHash: Buffer.from(p.file_hash, 'base64'),
    })),
    shardTops: hashes
      ? listShards(hashes).map((s) => ({ workchain: s.workchain, shard: s.shard, seqno: s.descr.seqno, rootHash: s.descr.rootHash, fileHash: s.descr.fileHash }))
      : [],
  };
}

/**
 * A parsed block's rows as registered by masterchain block mcBlockSeqno: for a block parsed before that
 * was known (downloaded ahead, lib/indexer/events.ts). A copy: whoever was given the first one keeps it.
 */
export function registeredBy(parsed: ParsedBlock, mcBlockSeqno: number): ParsedBlock {
  return {
    ...parsed,
    block: { ...parsed.block, mcBlockSeqno },
    transactions: parsed.transactions.map((t) => ({ ...t, mcBlockSeqno })),
  };
}

/** parseBlock for a block already loaded, whose hashes are known. */
export function parseIndexedBlock(b: IndexedBlock, hashes: { rootHash: Buffer; fileHash: Buffer }, mcBlockSeqno: number | null): ParsedBlock {
  const info = b.info;
  const workchain = info.shard.workchainId;
  const shard = shardIdOf(info.shard);
  const ctx = { workchain, blockShard: signedShard(shard), blockSeqno: info.seqno, mcBlockSeqno };

  const transactions: TransactionRecord[] = [];
  const messages: MessageRecord[] = [];
  const contents = new Map<string, MessageContentRecord>();
  const accounts = [...b.accountBlocks.entries.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  for (const account of accounts) {
    const ab = b.accountBlocks.entries.get(account)!.value;
    const lts = [...ab.transactions.entries.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    for (const lt of lts) {
      const parsed = parseTransaction(ab.transactions.entries.get(lt)!.value, ctx);
      transactions.push(parsed.transaction);
      messages.push(...parsed.messages);
      for (const c of parsed.contents) {
        const key = c.hash.toString('hex');
        if (!contents.has(key)) contents.set(key, { hash: c.hash, boc: c.cell.toBoc() });
      }
    }
  }

  const block: BlockRecord = {
    workchain,
    shard: signedShard(shard),
    seqno: info.seqno,
    rootHash: hashes.rootHash,
    fileHash: hashes.fileHash,
    mcBlockSeqno,
    globalId: b.globalId,
    version: info.version,
    afterMerge: info.afterMerge,
    beforeSplit: info.beforeSplit,
    afterSplit: info.afterSplit,
    wantMerge: info.wantMerge,
    wantSplit: info.wantSplit,
    keyBlock: info.keyBlock,
    vertSeqnoIncr: info.vertSeqnoIncr,
    flags: info.flags,
    genUtime: BigInt(info.genUtime),
    startLt: info.startLt,
    endLt: info.endLt,
    validatorListHashShort: BigInt(info.genValidatorListHashShort),
    genCatchainSeqno: info.genCatchainSeqno,
    minRefMcSeqno: info.minRefMcSeqno,
    prevKeyBlockSeqno: info.prevKeyBlockSeqno,
    vertSeqno: info.vertSeqno,
    masterRefSeqno: info.masterRef?.seqno ?? 0,
    randSeed: b.randSeed,
    createdBy: b.createdBy,
    txCount: transactions.length,
    prevBlocks: prevBlocks(workchain, shard, info.afterSplit, info.prevRef),
  };
  return { block, transactions, messages, contents: [...contents.values()] };
}
