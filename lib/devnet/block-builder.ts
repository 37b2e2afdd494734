/**
 * One shard's transactions of a round → a TL-B Block cell.
 *
 * Within a round the devnet runs each cascade as far as its shard reaches (see chain.ts):
 *   - both transactions in the same shard: msg_export_imm (with its reimport) / msg_import_imm;
 *   - basechain ↔ masterchain: msg_export_new in the sender's block, msg_import_fin in the
 *     receiver's block of the same round;
 *   - between two basechain shards: msg_export_new, and the message goes into the sender's
 *     OutMsgQueue; the receiver's block of the next round imports it (msg_import_fin with the same
 *     envelope), and the sender's block after that dequeues it (msg_export_deq_short naming the
 *     importing block's end_lt) — or, when the receiver is the queue's own shard (after a merge),
 *     the importing block dequeues it itself (msg_export_deq_imm);
 *   - external in: msg_import_ext; external out: msg_export_ext.
 * A message created but never delivered (a cascade that failed half way) is msg_export_new.
 * Envelopes are msg_envelope_v2 with the trace metadata (initiator, depth), as mainnet writes them
 * today: cur_addr = next_addr = use_dest_bits 96 for immediate delivery, 0 → 96 between chains,
 * hypercube routing between basechain shards (32 → 36).
 *
 * Value flow (no fee collector, no minting on the devnet):
 *   from_prev_blk + imported + fees_imported = to_next_blk + exported + fees_collected
 * fees_collected = transaction fees + import fees (+ the shard fees a masterchain block imports).
 */
import { createHash } from 'node:crypto';
import {
  Address,
  Cell,
  CurrencyCollection,
  Dictionary,
  beginCell,
  loadCommonMessageInfo,
} from '@ton/core';
import {
  accountBlocksFromTransactions,
  addCurrencyCollections,
  cryptoSignaturePairValue,
  inMsgImportFees,
  outMsgExportValue,
  serializeBoc,
  shardFeesKey,
  storeBlock,
  transactionTotalFees,
  zeroCurrencyCollection,
  SHARD_ALL,
  accountPrefix,
  hypercubeRoute,
  type AugEntry,
  type BlkPrevInfo,
  type BlockInfo,
  type ConfigParams,
  type ExtBlkRef,
  type GlobalVersion,
  type ImportFees,
  type InMsg,
  type IntermediateAddress,
  type MsgEnvelope,
  type OutMsg,
  type ShardFeeCreated,
  type ShardHashes,
  type ValueFlow,
} from '../ton';
import { MASTERCHAIN, shardIdent } from './state';
import { queueKeyNextHop, type QueuedMessage } from './shard-tip';

/** One executed transaction as the chain recorded it. */
export interface ExecutedTx {
  cell: Cell;
  hash: Buffer;
  workchain: number;
  account: bigint;
  lt: bigint;
  /** lt + 1 + number of outbound messages: the first lt after everything this transaction created. */
  endLt: bigint;
  now: number;
  totalFees: CurrencyCollection;
  inMsg: Cell | null;
  inExternal: boolean;
  /** Outbound messages in out_msgs order. */
  outMsgs: Cell[];
  /** Trace of the external message that started the cascade: its account and transaction lt. */
  initiator: Address;
  initiatorLt: bigint;
  /** Hops from the external message to this transaction's inbound message (0 for the external itself). */
  depth: number;
  /** The shard of its block (the whole workchain for the masterchain). */
  shard: bigint;
  /** Its inbound message came out of a shard's queue: that queue entry. */
  imported?: QueuedMessage;
}

/** What a shard block does to message queues besides its transactions' own messages. */
export interface QueueWork {
  /** Messages of the block's transactions that go into its queue (to other basechain shards), by message hash (latin1), with their envelopes. */
  enqueued: Map<string, MsgEnvelope>;
  /** Entries leaving the queue because another shard imported them in an earlier block. */
  dequeued: { m: QueuedMessage; importBlockLt: bigint }[];
  /** Messages (hash, latin1) this block imports from its own queue. */
  ownImports: Set<string>;
}

const keyOf = (c: Cell) => c.hash().toString('latin1');
const bigKey = (c: Cell) => BigInt('0x' + c.hash().toString('hex'));

/** Where each message of a round was created and consumed (both chains). */
export class RoundIndex {
  readonly createdBy = new Map<string, ExecutedTx>();
  readonly consumedBy = new Map<string, ExecutedTx>();

  constructor(txs: Iterable<ExecutedTx>) {
    for (const tx of txs) {
      if (tx.inMsg) this.consumedBy.set(keyOf(tx.inMsg), tx);
      for (const m of tx.outMsgs) this.createdBy.set(keyOf(m), tx);
    }
  }
}

const REGULAR_96: IntermediateAddress = { kind: 'regular', useDestBits: 96 };
const REGULAR_0: IntermediateAddress = { kind: 'regular', useDestBits: 0 };

function forwardFee(msg: Cell): bigint {
  const info = loadCommonMessageInfo(msg.beginParse());
  return info.type === 'internal' ? info.forwardFee : 0n;
}

function envelope(msg: Cell, creator: ExecutedTx | undefined, immediate: boolean): MsgEnvelope {
  return {
    version: 2,
    curAddr: immediate ? REGULAR_96 : REGULAR_0,
    nextAddr: REGULAR_96,
    fwdFeeRemaining: forwardFee(msg),
    msg,
    metadata: creator ? { depth: creator.depth + 1, initiatorAddr: creator.initiator, initiatorLt: creator.initiatorLt } : undefined,
  };
}

/** The envelope of a message from shard `shard` to another basechain shard (hypercube routing, as mainnet's shards route). */
export function routedEnvelope(msg: Cell, creator: ExecutedTx, shard: bigint): MsgEnvelope {
  const info = loadCommonMessageInfo(msg.beginParse());
  if (info.type !== 'internal') throw new Error('only internal messages are routed');
  const at = (a: Address) => ({ workchain: a.workChain, prefix: accountPrefix(a.hash) });
  const route = hypercubeRoute(at(info.src), at(info.dest), { workchain: info.src.workChain, shard });
  return {
    ...envelope(msg, creator, false),
    curAddr: { kind: 'regular', useDestBits: route.cur },
    nextAddr: { kind: 'regular', useDestBits: route.next },
  };
}

function importImm(msg: Cell, creator: ExecutedTx, consumer: ExecutedTx): InMsg {
  const env = envelope(msg, creator, true);
  return { type: 'importImm', inMsg: env, transaction: consumer.cell, fwdFee: env.fwdFeeRemaining };
}

export interface MsgDescrs {
  inEntries: Map<bigint, AugEntry<InMsg, ImportFees>>;
  outEntries: Map<bigint, AugEntry<OutMsg, CurrencyCollection>>;
  /** Σ value_imported of the in descriptors (messages from the other chain). */
  imported: CurrencyCollection;
  /** Σ fees_collected of the in descriptors (forwarding fees collected on import). */
  importFees: CurrencyCollection;
  /** Σ exported value (messages to the other chain, or undelivered). */
  exported: CurrencyCollection;
}

/** A block's chain: a workchain and one of its shards. */
export interface ChainShard {
  workchain: number;
  shard: bigint;
}

const sameChain = (tx: ExecutedTx, c: ChainShard) => tx.workchain === c.workchain && tx.shard === c.shard;

/** InMsgDescr and OutMsgDescr entries of one shard's transactions (and its queue's dequeues). */
export function buildMsgDescrs(txs: readonly ExecutedTx[], chain: ChainShard, index: RoundIndex, globalVersion: number, queue?: QueueWork): MsgDescrs {
  const opts = { globalVersion };
  const inEntries = new Map<bigint, AugEntry<InMsg, ImportFees>>();
  const outEntries = new Map<bigint, AugEntry<OutMsg, CurrencyCollection>>();
  let imported = zeroCurrencyCollection();
  let importFees = zeroCurrencyCollection();
  let exported = zeroCurrencyCollection();
  const add = (key: bigint, m: OutMsg) => {
    const extra = outMsgExportValue(m, opts);
    outEntries.set(key, { value: m, extra });
    exported = addCurrencyCollections(exported, extra);
  };
  for (const tx of txs) {
    if (tx.inMsg) {
      let m: InMsg;
      if (tx.inExternal) {
        m = { type: 'importExt', msg: tx.inMsg, transaction: tx.cell };
      } else if (tx.imported) {
        const env = tx.imported.env;
        m = { type: 'importFin', inMsg: env, transaction: tx.cell, fwdFee: env.fwdFeeRemaining };
        // From this shard's own queue (its halves' queues after a merge): it leaves the queue in this block.
        if (queue?.ownImports.has(keyOf(tx.inMsg))) add(bigKey(tx.inMsg), { type: 'exportDeqImm', outMsg: env, reimport: m });
      } else {
        const creator = index.createdBy.get(keyOf(tx.inMsg));
        if (creator && sameChain(creator, chain)) {
          m = importImm(tx.inMsg, creator, tx);
        } else {
          const env = envelope(tx.inMsg, creator, false);
          m = { type: 'importFin', inMsg: env, transaction: tx.cell, fwdFee: env.fwdFeeRemaining };
        }
      }
      const extra = inMsgImportFees(m, opts);
      inEntries.set(bigKey(tx.inMsg), { value: m, extra });
      imported = addCurrencyCollections(imported, extra.valueImported);
      importFees = addCurrencyCollections(importFees, { coins: extra.feesCollected });
    }
    for (const msg of tx.outMsgs) {
      const info = loadCommonMessageInfo(msg.beginParse());
      let m: OutMsg;
      if (info.type === 'external-out') {
        m = { type: 'exportExt', msg, transaction: tx.cell };
      } else {
        const consumer = index.consumedBy.get(keyOf(msg));
        const queued = queue?.enqueued.get(keyOf(msg));
        if (consumer && sameChain(consumer, chain)) {
          const reimport = importImm(msg, tx, consumer);
          if (reimport.type !== 'importImm') throw new Error('unreachable');
          m = { type: 'exportImm', outMsg: reimport.inMsg, transaction: tx.cell, reimport };
        } else {
          m = { type: 'exportNew', outMsg: queued ?? envelope(msg, tx, false), transaction: tx.cell };
        }
      }
      add(bigKey(msg), m);
    }
  }
  for (const { m, importBlockLt } of queue?.dequeued ?? []) {
    const next = queueKeyNextHop(m);
    add(BigInt('0x' + m.msgHash.toString('hex')), {
      type: 'exportDeqShort',
      msgEnvHash: m.envelope.hash(),
      nextWorkchain: next.workchain,
      nextAddrPfx: next.prefix,
      importBlockLt,
    });
  }
  return { inEntries, outEntries, imported, importFees, exported };
}

function sumExtras<E>(entries: Map<bigint, AugEntry<unknown, E>>, add: (a: E, b: E) => E, zero: E): E {
  let total = zero;
  for (const e of entries.values()) total = add(total, e.extra);
  return total;
}

export interface McBlockExtraInput {
  keyBlock: boolean;
  shardHashes: ShardHashes;
  /** Fees of the shard blocks this block registers, keyed by workchain and shard. */
  shardFees: { workchain: number; shard: bigint; fees: CurrencyCollection }[];
  /** Key blocks carry the configuration. */
  config?: ConfigParams;
}

export interface BlockInput {
  globalId: number;
  workchain: number;
  seqno: number;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  prev: ExtBlkRef;
  /** Shard blocks: the latest masterchain block when this one was made. */
  masterRef?: ExtBlkRef;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  genSoftware: GlobalVersion;
  genValidatorListHashShort: number;
  /** This chain's transactions of the round. */
  txs: readonly ExecutedTx[];
  index: RoundIndex;
  /** Total balance of the chain's accounts before and after the block. */
  balanceBefore: CurrencyCollection;
  balanceAfter: CurrencyCollection;
  stateUpdate: Cell;
  randSeed: Buffer;
  createdBy: Buffer;
  /** Masterchain blocks only. */
  mc?: McBlockExtraInput;
  /** Basechain blocks: their shard (default the whole workchain), prev refs of both kinds, split/merge flags, catchain seqno, queue work. */
  shard?: bigint;
  prevRef?: BlkPrevInfo;
  flags?: { afterMerge?: boolean; beforeSplit?: boolean; afterSplit?: boolean; wantSplit?: boolean; wantMerge?: boolean };
  genCatchainSeqno?: number;
  queue?: QueueWork;
}

export interface BuiltBlock {
  root: Cell;
  boc: Buffer;
  rootHash: Buffer;
  fileHash: Buffer;
  valueFlow: ValueFlow;
  info: BlockInfo;
}

export function buildBlock(p: BlockInput): BuiltBlock {
  const isMc = p.workchain === MASTERCHAIN;
  if (isMc !== (p.mc !== undefined)) throw new Error('buildBlock: masterchain blocks (only) need the McBlockExtra input');
  const txs = [...p.txs].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  for (const tx of txs) {
    if (tx.lt < p.startLt || tx.endLt > p.endLt) {
      throw new Error(`buildBlock: transaction lt ${tx.lt}..${tx.endLt} outside block ${p.startLt}..${p.endLt}`);
    }
  }
  const globalVersion = p.genSoftware.version;
  const descrs = buildMsgDescrs(txs, { workchain: p.workchain, shard: p.shard ?? SHARD_ALL }, p.index, globalVersion, p.queue);
  const accountBlocks = accountBlocksFromTransactions(txs.map((t) => t.cell));
  let txFees = zeroCurrencyCollection();
  for (const tx of txs) txFees = addCurrencyCollections(txFees, transactionTotalFees(tx.cell));

  const shardFeeEntries = new Map<bigint, AugEntry<ShardFeeCreated, ShardFeeCreated>>();
  let feesImported = zeroCurrencyCollection();
  for (const f of p.mc?.shardFees ?? []) {
    const v = { fees: f.fees, create: zeroCurrencyCollection() };
    shardFeeEntries.set(shardFeesKey(f.workchain, f.shard), { value: v, extra: v });
    feesImported = addCurrencyCollections(feesImported, f.fees);
  }
  const feesCollected = addCurrencyCollections(addCurrencyCollections(txFees, descrs.importFees), feesImported);
  const valueFlow: ValueFlow = {
    fromPrevBlk: p.balanceBefore,
    toNextBlk: p.balanceAfter,
    imported: descrs.imported,
    exported: descrs.exported,
    feesCollected,
    // value_flow_v2 (with burned) in the masterchain, as mainnet writes it since fee burning.
    burned: isMc ? zeroCurrencyCollection() : undefined,
    feesImported,
    recovered: zeroCurrencyCollection(),
    created: zeroCurrencyCollection(),
    minted: zeroCurrencyCollection(),
  };

  const prevRef: BlkPrevInfo = p.prevRef ?? { kind: 'single', prev: p.prev };
  const info: BlockInfo = {
    version: 0,
    notMaster: !isMc,
    afterMerge: prevRef.kind === 'merged',
    beforeSplit: p.flags?.beforeSplit ?? false,
    afterSplit: p.flags?.afterSplit ?? false,
    wantSplit: p.flags?.wantSplit ?? false,
    wantMerge: p.flags?.wantMerge ?? false,
    keyBlock: p.mc?.keyBlock ?? false,
    vertSeqnoIncr: false,
    flags: 1,
    seqno: p.seqno,
    vertSeqno: 0,
    shard: shardIdent(p.workchain, p.shard),
    genUtime: p.genUtime,
    startLt: p.startLt,
    endLt: p.endLt,
    genValidatorListHashShort: p.genValidatorListHashShort,
    genCatchainSeqno: p.genCatchainSeqno ?? 0,
    minRefMcSeqno: p.minRefMcSeqno,
    prevKeyBlockSeqno: p.prevKeyBlockSeqno,
    genSoftware: p.genSoftware,
    masterRef: isMc ? undefined : p.masterRef,
    prevRef,
  };
  if (!isMc && !p.masterRef) throw new Error('buildBlock: shard blocks need master_ref');

  const root = beginCell()
    .store(
      storeBlock(
        {
          globalId: p.globalId,
          info,
          valueFlow,
          stateUpdate: p.stateUpdate,
          extra: {
            inMsgDescr: { entries: descrs.inEntries, extra: sumInFees(descrs.inEntries) },
            outMsgDescr: { entries: descrs.outEntries, extra: descrs.exported },
            accountBlocks: {
              entries: accountBlocks,
              extra: sumExtras(accountBlocks, addCurrencyCollections, zeroCurrencyCollection()),
            },
            randSeed: p.randSeed,
            createdBy: p.createdBy,
            custom: p.mc
              ? {
                  keyBlock: p.mc.keyBlock,
                  shardHashes: p.mc.shardHashes,
                  shardFees: { entries: shardFeeEntries, extra: { fees: feesImported, create: zeroCurrencyCollection() } },
                  prevBlkSignatures: Dictionary.empty(Dictionary.Keys.Uint(16), cryptoSignaturePairValue),
                  config: p.mc.keyBlock ? p.mc.config : undefined,
                }
              : undefined,
          },
        },
        { globalVersion },
      ),
    )
    .endCell();
  const boc = serializeBoc(root);
  return { root, boc, rootHash: root.hash(), fileHash: createHash('sha256').update(boc).digest(), valueFlow, info };
}

function sumInFees(entries: Map<bigint, AugEntry<InMsg, ImportFees>>): ImportFees {
  let feesCollected = 0n;
  let valueImported = zeroCurrencyCollection();
  for (const e of entries.values()) {
    feesCollected += e.extra.feesCollected;
    valueImported = addCurrencyCollections(valueImported, e.extra.valueImported);
  }
  return { feesCollected, valueImported };
}

/** An ExtBlkRef to a block. */
export function extBlkRef(b: { endLt: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer }): ExtBlkRef {
  return { endLt: b.endLt, seqno: b.seqno, rootHash: b.rootHash, fileHash: b.fileHash };
}
