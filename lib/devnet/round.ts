/**
 * The basechain side of a round: one block per shard of the round's layout (shard-config.ts), each
 * from its shard's tip (or its parent's after a split, or its two children's after a merge), with
 * its transactions, its queue work and its split/merge flags. The masterchain block that registers
 * them is built by chain.ts.
 *
 * States: a block after a split starts from the parent's state split in two (ShardState::split:
 * the accounts under the child's prefix, the queue entries whose current address is in the child);
 * its MERKLE_UPDATE goes from the parent's whole state to the child's. A block after a merge starts
 * from both states merged; its MERKLE_UPDATE goes from split_state(left, right).
 */
import { Cell, type CurrencyCollection } from '@ton/core';
import { addCurrencyCollections, shardDepth, splitStateCell, type BlkPrevInfo, type ExtBlkRef, type GlobalVersion, type ShardDescr } from '../ton';
import { CellInterner, rawShardAccountFromCell, type RawShardAccounts } from './accounts';
import { buildBlock, extBlkRef, routedEnvelope, type BuiltBlock, type ExecutedTx, type QueueWork, type RoundIndex } from './block-builder';
import type { BlockMeta } from './block-store';
import { diffMerkleUpdateStats } from './merkle-update';
import { beforeSplitAt, scheduleWants, type LayoutEntry, type ShardBlockFacts, type ShardSchedule, type SplitLimits } from './shard-config';
import { crossesShards, mergeTips, processedAfter, queueEntryOf, queueInfoCell, splitTip, type QueuedMessage, type ShardTip } from './shard-tip';
import { BASECHAIN, buildShardState } from './state';

/** A transaction waiting for its round, with the ShardAccount it left (base64 BoC; null: account deleted). */
export interface PendingTx extends ExecutedTx {
  after: string | null;
}

/** Where a queued message was imported: the round and the importing block's end_lt (its dequeue names it). */
export type Deliveries = Map<string, { round: number; blockEndLt: bigint }>;

export interface RoundContext {
  seqno: number;
  genUtime: number;
  /** Start lt of the round's blocks. */
  base: bigint;
  globalId: number;
  globalVersion: GlobalVersion;
  prevKeyBlockSeqno: number;
  randSeed: Buffer;
  createdBy: Buffer;
  /** The masterchain block before this round: every shard block's master_ref. */
  mcRef: ExtBlkRef;
  interner: CellInterner;
  index: RoundIndex;
  /** gen_validator_list_hash_short of a shard's validators at a catchain seqno. */
  listHash(shard: bigint, ccSeqno: number): number;
  schedule: ShardSchedule;
  limits: SplitLimits;
  /** Imports recorded here; dequeues read (and drop) them. */
  deliveries: Deliveries;
}

export interface BuiltShard {
  tip: ShardTip;
  block: BuiltBlock;
  facts: ShardBlockFacts;
  /** Cells the new state adds (what keeping it costs). */
  newCells: number;
}

const hashKey = (hash: Buffer) => hash.toString('latin1');

/** The tip a shard's block starts from: its own, its parent's half, or its children's union; with its prev refs and the old state. */
function startingPoint(entry: LayoutEntry, tips: ReadonlyMap<bigint, ShardTip>): { start: Omit<ShardTip, 'state' | 'meta'>; oldState: Cell; prevRef: BlkPrevInfo; prevMetas: BlockMeta[] } {
  const tip = (s: bigint) => tips.get(s) ?? fail(`devnet: no tip of shard ${s.toString(16)}`);
  if (entry.afterMerge) {
    const [left, right] = entry.prev.map(tip);
    return {
      start: mergeTips(left, right, entry.shard),
      oldState: splitStateCell(left.state, right.state),
      prevRef: { kind: 'merged', prev1: extBlkRef(left.meta), prev2: extBlkRef(right.meta) },
      prevMetas: [left.meta, right.meta],
    };
  }
  const prev = tip(entry.prev[0]);
  const start = entry.afterSplit
    ? splitTip(prev, entry.shard)
    : { shard: prev.shard, accounts: prev.accounts.clone(), queue: prev.queue.copy(), processed: prev.processed };
  return { start, oldState: prev.state, prevRef: { kind: 'single', prev: extBlkRef(prev.meta) }, prevMetas: [prev.meta] };
}

function fail(message: string): never {
  throw new Error(message);
}

/** Applies the round's transactions to a shard's accounts (an account's last transaction leaves its state). */
export function applyAccounts(accounts: RawShardAccounts, txs: readonly PendingTx[], interner: CellInterner): void {
  const last = new Map<bigint, string | null>();
  for (const t of txs) last.set(t.account, t.after);
  for (const [id, b64] of last) {
    if (!b64) {
      accounts.delete(id);
      continue;
    }
    const sa = rawShardAccountFromCell(Cell.fromBase64(b64));
    accounts.set(id, { ...sa, account: interner.account(sa.account) });
  }
}

/**
 * The queue work of a shard's block: dequeue what others imported in earlier rounds, enqueue its
 * transactions' messages to other basechain shards (those not consumed within the round).
 */
function queueWork(ctx: RoundContext, start: Omit<ShardTip, 'state' | 'meta'>, txs: readonly PendingTx[]): QueueWork {
  const work: QueueWork = { enqueued: new Map(), dequeued: [], ownImports: new Set() };
  for (const m of [...start.queue.entries.values()]) {
    const d = ctx.deliveries.get(hashKey(m.msgHash));
    if (d && d.round < ctx.seqno) {
      work.dequeued.push({ m, importBlockLt: d.blockEndLt });
      start.queue.dequeue(m);
      ctx.deliveries.delete(hashKey(m.msgHash));
    }
  }
  for (const tx of txs) {
    if (tx.imported && start.queue.entries.has(tx.imported.key)) {
      work.ownImports.add(hashKey(tx.imported.msgHash));
      start.queue.dequeue(tx.imported);
    }
    for (const msg of tx.outMsgs) {
      if (ctx.index.consumedBy.has(hashKey(msg.hash())) || !crossesShards(msg, start.shard)) continue;
      const env = routedEnvelope(msg, tx, start.shard);
      start.queue.enqueue(queueEntryOf(env));
      work.enqueued.set(hashKey(msg.hash()), env);
    }
  }
  return work;
}

/** Builds one basechain shard's block of the round. */
export function buildShardBlock(ctx: RoundContext, entry: LayoutEntry, tips: ReadonlyMap<bigint, ShardTip>, txs: readonly PendingTx[]): BuiltShard {
  const { start, oldState, prevRef, prevMetas } = startingPoint(entry, tips);
  const end = txs.reduce((m, t) => (t.endLt > m ? t.endLt : m), ctx.base + 1n);
  const balanceBefore = start.accounts.total().balance;
  const queue = queueWork(ctx, start, txs);
  applyAccounts(start.accounts, txs, ctx.interner);
  const imports = txs.filter((t) => t.imported).map((t) => t.imported!);
  for (const m of imports) if (!queue.ownImports.has(hashKey(m.msgHash))) ctx.deliveries.set(hashKey(m.msgHash), { round: ctx.seqno, blockEndLt: end });
  const lastImport = imports.sort((a, b) => (a.emittedLt !== b.emittedLt ? (a.emittedLt < b.emittedLt ? -1 : 1) : Buffer.compare(a.msgHash, b.msgHash))).at(-1);
  const processed = processedAfter(start.processed, entry.shard, ctx.seqno - 1, lastImport && { lt: lastImport.emittedLt, hash: lastImport.msgHash });
  const beforeSplit = beforeSplitAt(entry, ctx.genUtime);
  const wants = scheduleWants(ctx.schedule, ctx.limits, shardDepth(entry.shard), ctx.seqno);
  const state = buildShardState({
    globalId: ctx.globalId,
    workchain: BASECHAIN,
    shard: entry.shard,
    seqno: ctx.seqno,
    genUtime: ctx.genUtime,
    genLt: end,
    minRefMcSeqno: ctx.seqno - 1,
    outMsgQueueInfo: queueInfoCell({ queue: start.queue, processed }),
    beforeSplit,
    accounts: start.accounts.toCell(),
    totalBalance: start.accounts.total().balance,
    libraries: null,
    masterRef: ctx.mcRef,
    custom: null,
  });
  const update = diffMerkleUpdateStats(oldState, state);
  const block = buildBlock({
    globalId: ctx.globalId,
    workchain: BASECHAIN,
    shard: entry.shard,
    seqno: ctx.seqno,
    genUtime: ctx.genUtime,
    startLt: ctx.base,
    endLt: end,
    prev: extBlkRef(prevMetas[0]),
    prevRef,
    flags: { afterMerge: entry.afterMerge, afterSplit: entry.afterSplit, beforeSplit, ...wants },
    genCatchainSeqno: entry.ccSeqno,
    masterRef: ctx.mcRef,
    minRefMcSeqno: ctx.seqno - 1,
    prevKeyBlockSeqno: ctx.prevKeyBlockSeqno,
    genSoftware: ctx.globalVersion,
    genValidatorListHashShort: ctx.listHash(entry.shard, entry.ccSeqno),
    txs,
    index: ctx.index,
    balanceBefore,
    balanceAfter: start.accounts.total().balance,
    stateUpdate: update.update,
    randSeed: ctx.randSeed,
    createdBy: ctx.createdBy,
    queue,
  });
  const meta: BlockMeta = {
    workchain: BASECHAIN,
    shard: entry.shard,
    seqno: ctx.seqno,
    rootHash: block.rootHash,
    fileHash: block.fileHash,
    startLt: block.info.startLt,
    endLt: block.info.endLt,
    genUtime: block.info.genUtime,
    keyBlock: false,
  };
  const facts: ShardBlockFacts = {
    entry,
    seqno: ctx.seqno,
    startLt: meta.startLt,
    endLt: meta.endLt,
    rootHash: meta.rootHash,
    fileHash: meta.fileHash,
    genUtime: meta.genUtime,
    minRefMcSeqno: ctx.seqno - 1,
    beforeSplit,
    ...wants,
    feesCollected: block.valueFlow.feesCollected,
  };
  return { tip: { ...start, processed, state, meta }, block, facts, newCells: update.newCells };
}

/** Sum of several currency collections. */
export function sumBalances(xs: Iterable<CurrencyCollection>): CurrencyCollection {
  let total: CurrencyCollection = { coins: 0n };
  for (const x of xs) total = addCurrencyCollections(total, x);
  return total;
}

export type { ShardDescr, QueuedMessage };
