/**
 * A shard's outbound message queue and what it has processed of its neighbours' queues (block.tlb):
 *
 *   _ enqueued_lt:uint64 out_msg:^MsgEnvelope = EnqueuedMsg;
 *   _ (HashmapAugE 352 EnqueuedMsg uint64) = OutMsgQueue;
 *   processed_upto$_ last_msg_lt:uint64 last_msg_hash:bits256 = ProcessedUpto;
 *   _ (HashmapE 96 ProcessedUpto) = ProcessedInfo;          // key: shard:uint64 mc_seqno:uint32
 *   _ out_queue:OutMsgQueue proc_info:ProcessedInfo extra:(Maybe OutMsgQueueExtra) = OutMsgQueueInfo;
 *
 * A queue key is next_workchain:int32 ‖ next_addr_pfx:uint64 ‖ message hash:bits256: where the
 * message goes next (its envelope's next_addr applied between source and destination). The node's
 * augmentation is the smallest emitted lt below a fork (a leaf: the envelope's emitted_lt, else the
 * message's created_lt; an empty queue: 0). Older states end with an empty IhrPendingInfo, which has
 * the same bit as an absent OutMsgQueueExtra.
 */
import { Builder, Cell, Dictionary, Slice, beginCell, loadCommonMessageInfo, type DictionaryValue } from '@ton/core';
import { AugDictCodec, augDictRootExtra, loadAugDictRootE, loadAugDictRoot, storeAugDictRootE } from './hashmap-aug';
import { loadMsgEnvelope, type IntermediateAddress, type MsgEnvelope } from './msg-descr';
import { interpolateAddr, type AddrPrefix } from './shard';

export interface EnqueuedMsg {
  enqueuedLt: bigint;
  /** The MsgEnvelope cell, kept exactly. */
  envelope: Cell;
}

/** The lt a queue entry is ordered by: the envelope's emitted_lt, else its message's created_lt. */
export function envelopeEmittedLt(envelope: Cell): bigint {
  return emittedLtOf(loadMsgEnvelope(envelope.beginParse()));
}

/** The same of an envelope already parsed. */
export function emittedLtOf(env: MsgEnvelope): bigint {
  if (env.emittedLt !== undefined) return env.emittedLt;
  const info = loadCommonMessageInfo(env.msg.beginParse());
  if (info.type === 'external-in') throw new Error('an external inbound message cannot be enqueued');
  return info.createdLt;
}

export const outMsgQueueAug: AugDictCodec<EnqueuedMsg, bigint> = {
  loadValue: (s) => ({ enqueuedLt: s.loadUintBig(64), envelope: s.loadRef() }),
  storeValue: (v) => (b) => {
    b.storeUint(v.enqueuedLt, 64).storeRef(v.envelope);
  },
  loadExtra: (s) => s.loadUintBig(64),
  storeExtra: (x) => (b) => {
    b.storeUint(x, 64);
  },
  combine: (a, b) => (a < b ? a : b),
  empty: () => 0n,
  leafExtra: (v) => envelopeEmittedLt(v.envelope),
};

/** The 352-bit queue key of a message going next to (workchain, prefix). */
export function outMsgQueueKey(next: AddrPrefix, msgHash: Buffer): bigint {
  return (
    (BigInt.asUintN(32, BigInt(next.workchain)) << 320n) |
    (BigInt.asUintN(64, next.prefix) << 256n) |
    BigInt('0x' + msgHash.toString('hex'))
  );
}

/** The parts of a queue key. */
export function splitOutMsgQueueKey(key: bigint): { next: AddrPrefix; msgHash: Buffer } {
  return {
    next: { workchain: Number(BigInt.asIntN(32, key >> 320n)), prefix: (key >> 256n) & ((1n << 64n) - 1n) },
    msgHash: Buffer.from((key & ((1n << 256n) - 1n)).toString(16).padStart(64, '0'), 'hex'),
  };
}

/** Where an intermediate address points between a message's source and destination. */
export function intermediatePrefix(src: AddrPrefix, dest: AddrPrefix, addr: IntermediateAddress): AddrPrefix {
  if (addr.kind === 'regular') return interpolateAddr(src, dest, addr.useDestBits);
  return { workchain: addr.workchainId, prefix: addr.addrPfx };
}

export interface ProcessedUpto {
  lastMsgLt: bigint;
  lastMsgHash: Buffer;
}

const processedUptoValue: DictionaryValue<ProcessedUpto> = {
  serialize: (v: ProcessedUpto, b: Builder) => {
    b.storeUint(v.lastMsgLt, 64).storeBuffer(v.lastMsgHash, 32);
  },
  parse: (s: Slice) => ({ lastMsgLt: s.loadUintBig(64), lastMsgHash: s.loadBuffer(32) }),
};

/** ProcessedInfo key: the shard that processed ‖ the masterchain seqno its neighbours' queues were read at. */
export function processedKey(shard: bigint, mcSeqno: number): bigint {
  return (BigInt.asUintN(64, shard) << 32n) | BigInt(mcSeqno);
}

export type ProcessedInfo = Dictionary<bigint, ProcessedUpto>;

export function emptyProcessedInfo(): ProcessedInfo {
  return Dictionary.empty(Dictionary.Keys.BigUint(96), processedUptoValue);
}

export interface OutMsgQueueInfo {
  /** Root of the OutMsgQueue (null: empty), kept as cells so that it can be updated in place. */
  queue: Cell | null;
  processed: ProcessedInfo;
}

export function storeOutMsgQueueInfo(info: OutMsgQueueInfo): (builder: Builder) => void {
  return (b) => {
    b.store(storeAugDictRootE(info.queue, 352, outMsgQueueAug));
    b.storeDict(info.processed, Dictionary.Keys.BigUint(96), processedUptoValue);
    b.storeBit(0); // no OutMsgQueueExtra (no dispatch queue); the old empty IhrPendingInfo reads the same
  };
}

export function outMsgQueueInfoCell(info: OutMsgQueueInfo): Cell {
  return beginCell().store(storeOutMsgQueueInfo(info)).endCell();
}

export function loadOutMsgQueueInfo(cell: Cell): OutMsgQueueInfo {
  const s = cell.beginParse();
  const queue = loadAugDictRootE(s, outMsgQueueAug);
  const processed = s.loadDict(Dictionary.Keys.BigUint(96), processedUptoValue);
  return { queue, processed };
}

/** Every queue entry by key, in key order. */
export function outMsgQueueEntries(queue: Cell | null): Map<bigint, EnqueuedMsg> {
  const out = new Map<bigint, EnqueuedMsg>();
  for (const [k, e] of loadAugDictRoot(queue, 352, outMsgQueueAug).entries) out.set(k, e.value);
  return out;
}

/** The queue's augmentation: the smallest emitted lt in it (0 when empty). */
export function outMsgQueueMinLt(queue: Cell | null): bigint {
  return augDictRootExtra(queue, 352, outMsgQueueAug);
}
