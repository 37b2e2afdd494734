/**
 * A basechain shard as the devnet works on it between blocks: its accounts, its outbound message
 * queue (messages to other shards, waiting to be imported and then dequeued) and what it has
 * processed of its neighbours' queues; plus the split and merge of all three.
 *
 * A message between two shards lives in its source shard's OutMsgQueue from the block that creates
 * it (msg_export_new) until the block after the one where its destination imported it
 * (msg_import_fin there, then msg_export_deq_short here). The devnet delivers every queued message
 * in the round after it was created, so a queue holds at most two generations.
 */
import { Address, Cell, beginCell, loadCommonMessageInfo } from '@ton/core';
import {
  accountPrefix,
  augDictCutPrefix,
  augDictDelete,
  augDictJoinSiblings,
  augDictSet,
  emptyProcessedInfo,
  emittedLtOf,
  intermediatePrefix,
  loadMsgEnvelope,
  loadOutMsgQueueInfo,
  outMsgQueueAug,
  outMsgQueueEntries,
  outMsgQueueInfoCell,
  outMsgQueueKey,
  processedKey,
  shardContains,
  shardDepth,
  shardTag,
  splitOutMsgQueueKey,
  storeMsgEnvelope,
  type MsgEnvelope,
  type ProcessedInfo,
} from '../ton';
import { RawShardAccounts, rawShardAccountAug } from './accounts';
import type { BlockMeta } from './block-store';

/** A message in a shard's outbound queue. */
export interface QueuedMessage {
  key: bigint;
  /** The MsgEnvelope cell (the same cell its msg_export_new, msg_import_fin and queue entry hold). */
  envelope: Cell;
  /** The same envelope parsed, once: routing, import and delivery read it from here. */
  env: MsgEnvelope;
  msg: Cell;
  msgHash: Buffer;
  src: Address;
  dest: Address;
  emittedLt: bigint;
  /** enqueued_lt of its queue entry. */
  enqueuedLt: bigint;
}

/** A queue entry; `env` is the envelope cell parsed, when the caller has it already. */
export function queuedMessage(key: bigint, envelope: Cell, enqueuedLt: bigint, env = loadMsgEnvelope(envelope.beginParse())): QueuedMessage {
  const info = loadCommonMessageInfo(env.msg.beginParse());
  if (info.type !== 'internal') throw new Error('only internal messages travel through queues');
  return { key, envelope, env, msg: env.msg, msgHash: env.msg.hash(), src: info.src, dest: info.dest, emittedLt: emittedLtOf(env), enqueuedLt };
}

const prefixOf = (a: Address) => ({ workchain: a.workChain, prefix: accountPrefix(a.hash) });

/** The queue entry of a message leaving for another shard: keyed by where its envelope sends it next. */
export function queueEntryOf(env: MsgEnvelope): QueuedMessage {
  const cell = beginCell().store(storeMsgEnvelope(env)).endCell();
  const m = queuedMessage(0n, cell, 0n, env);
  const next = intermediatePrefix(prefixOf(m.src), prefixOf(m.dest), env.nextAddr);
  return { ...m, key: outMsgQueueKey(next, m.msgHash), enqueuedLt: m.emittedLt };
}

/** Whether a message goes from `shard` to another basechain shard (through the queues). */
export function crossesShards(msg: Cell, shard: bigint): boolean {
  const info = loadCommonMessageInfo(msg.beginParse());
  return info.type === 'internal' && info.src.workChain === 0 && info.dest.workChain === 0 && !shardContains(shard, accountPrefix(info.dest.hash));
}

/** The 64-bit prefix where a queued message is now (its envelope's cur_addr between source and destination). */
export function currentPrefix(m: QueuedMessage): bigint {
  return intermediatePrefix(prefixOf(m.src), prefixOf(m.dest), m.env.curAddr).prefix;
}

export class ShardQueue {
  constructor(
    public root: Cell | null = null,
    readonly entries = new Map<bigint, QueuedMessage>(),
  ) {}

  /** The queue of a state's OutMsgQueueInfo. */
  static fromCell(outMsgQueueInfo: Cell): { queue: ShardQueue; processed: ProcessedInfo } {
    const info = loadOutMsgQueueInfo(outMsgQueueInfo);
    const entries = new Map<bigint, QueuedMessage>();
    for (const [key, e] of outMsgQueueEntries(info.queue)) entries.set(key, queuedMessage(key, e.envelope, e.enqueuedLt));
    return { queue: new ShardQueue(info.queue, entries), processed: info.processed };
  }

  /** A copy to update (the tip it came from keeps its queue). */
  copy(): ShardQueue {
    return new ShardQueue(this.root, new Map(this.entries));
  }

  enqueue(m: QueuedMessage): void {
    // The entry's augmentation is its emitted lt, known already: the codec would parse the envelope again.
    this.root = augDictSet(this.root, 352, m.key, { enqueuedLt: m.enqueuedLt, envelope: m.envelope }, outMsgQueueAug, m.emittedLt);
    this.entries.set(m.key, m);
  }

  dequeue(m: QueuedMessage): void {
    this.root = augDictDelete(this.root, 352, m.key, outMsgQueueAug);
    this.entries.delete(m.key);
  }

  /** The part of the queue a child shard keeps after a split: messages whose current address is in it. */
  split(child: bigint): ShardQueue {
    const out = new ShardQueue();
    for (const m of this.entries.values()) if (shardContains(child, currentPrefix(m))) out.enqueue({ ...m });
    return out;
  }

  /** Both siblings' queues in one (a merge). */
  static merge(left: ShardQueue, right: ShardQueue): ShardQueue {
    const out = new ShardQueue();
    for (const q of [left, right]) for (const m of q.entries.values()) out.enqueue({ ...m });
    return out;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** ProcessedInfo after a block of `shard` (made on masterchain block `mcSeqno`) imported up to (lt, hash). */
export function processedAfter(prev: ProcessedInfo, shard: bigint, mcSeqno: number, last: { lt: bigint; hash: Buffer } | undefined): ProcessedInfo {
  if (!last) return prev;
  // Everything its neighbours had queued up to that masterchain block is processed: one entry says so.
  const out = emptyProcessedInfo();
  out.set(processedKey(shard, mcSeqno), { lastMsgLt: last.lt, lastMsgHash: last.hash });
  return out;
}

/** The ProcessedInfo entries a child keeps after a split (those whose shard overlaps it) and their union after a merge. */
export function splitProcessed(p: ProcessedInfo, child: bigint): ProcessedInfo {
  const out = emptyProcessedInfo();
  for (const [key, v] of p) {
    const shard = key >> 32n;
    if (shardContains(shard, child) || shardContains(child, shard)) out.set(key, v);
  }
  return out;
}

export function mergeProcessed(a: ProcessedInfo, b: ProcessedInfo): ProcessedInfo {
  const out = emptyProcessedInfo();
  for (const p of [a, b]) for (const [key, v] of p) out.set(key, v);
  return out;
}

/** A basechain shard's newest block and state, with the parts of the state the devnet updates. */
export interface ShardTip {
  shard: bigint;
  accounts: RawShardAccounts;
  queue: ShardQueue;
  processed: ProcessedInfo;
  state: Cell;
  meta: BlockMeta;
}

/** The key prefix (as a 256-bit account id prefix) of a shard: its prefix bits and their count. */
function accountKeyPrefix(shard: bigint): { bits: bigint; len: number } {
  const len = shardDepth(shard);
  return { bits: len === 0 ? 0n : (shard - shardTag(shard)) >> BigInt(64 - len), len };
}

/** A child's accounts, queue and processed info from its parent's (the node's ShardState::split). */
export function splitTip(parent: ShardTip, child: bigint): Omit<ShardTip, 'state' | 'meta'> {
  const { bits, len } = accountKeyPrefix(child);
  return {
    shard: child,
    accounts: new RawShardAccounts(augDictCutPrefix(parent.accounts.root, 256, bits, len)),
    queue: parent.queue.split(child),
    processed: splitProcessed(parent.processed, child),
  };
}

/** The merged shard's accounts, queue and processed info from its two children's. */
export function mergeTips(left: ShardTip, right: ShardTip, parent: bigint): Omit<ShardTip, 'state' | 'meta'> {
  const { bits, len } = accountKeyPrefix(parent);
  return {
    shard: parent,
    accounts: new RawShardAccounts(augDictJoinSiblings(left.accounts.root, right.accounts.root, 256, bits, len, rawShardAccountAug)),
    queue: ShardQueue.merge(left.queue, right.queue),
    processed: mergeProcessed(left.processed, right.processed),
  };
}

/** The OutMsgQueueInfo cell of a tip. */
export function queueInfoCell(tip: { queue: ShardQueue; processed: ProcessedInfo }): Cell {
  return outMsgQueueInfoCell({ queue: tip.queue.root, processed: tip.processed });
}

/** The next hop of a queued message's key (for msg_export_deq_short). */
export function queueKeyNextHop(m: QueuedMessage): { workchain: number; prefix: bigint } {
  return splitOutMsgQueueKey(m.key).next;
}
