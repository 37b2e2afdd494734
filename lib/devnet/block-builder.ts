/**
 * One shard's transactions of a round → a TL-B Block cell.
 *
 * The devnet runs every cascade to the end before it seals (see chain.ts), so each internal
 * message of a round is both created and consumed within the round:
 *   - both transactions in the same chain: msg_export_imm (with its reimport) / msg_import_imm;
 *   - in different chains (basechain ↔ masterchain): msg_export_new in the sender's block,
 *     msg_import_fin in the receiver's block;
 *   - external in: msg_import_ext; external out: msg_export_ext.
 * A message created but never delivered (a cascade that failed half way) is msg_export_new.
 * Envelopes are msg_envelope_v2 with the trace metadata (initiator, depth), as mainnet writes them
 * today: cur_addr = next_addr = use_dest_bits 96 for immediate delivery, 0 → 96 between chains.
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
  type AugEntry,
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
import { FULL_SHARD, MASTERCHAIN, shardIdent } from './state';

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

/** InMsgDescr and OutMsgDescr entries of one chain's transactions. */
export function buildMsgDescrs(txs: readonly ExecutedTx[], workchain: number, index: RoundIndex, globalVersion: number): MsgDescrs {
  const opts = { globalVersion };
  const inEntries = new Map<bigint, AugEntry<InMsg, ImportFees>>();
  const outEntries = new Map<bigint, AugEntry<OutMsg, CurrencyCollection>>();
  let imported = zeroCurrencyCollection();
  let importFees = zeroCurrencyCollection();
  let exported = zeroCurrencyCollection();
  for (const tx of txs) {
    if (tx.inMsg) {
      let m: InMsg;
      if (tx.inExternal) {
        m = { type: 'importExt', msg: tx.inMsg, transaction: tx.cell };
      } else {
        const creator = index.createdBy.get(keyOf(tx.inMsg));
        if (creator && creator.workchain === workchain) {
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
        if (consumer && consumer.workchain === workchain) {
          const reimport = importImm(msg, tx, consumer);
          if (reimport.type !== 'importImm') throw new Error('unreachable');
          m = { type: 'exportImm', outMsg: reimport.inMsg, transaction: tx.cell, reimport };
        } else {
          m = { type: 'exportNew', outMsg: envelope(msg, tx, false), transaction: tx.cell };
        }
      }
      const extra = outMsgExportValue(m, opts);
      outEntries.set(bigKey(msg), { value: m, extra });
      exported = addCurrencyCollections(exported, extra);
    }
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
  const descrs = buildMsgDescrs(txs, p.workchain, p.index, globalVersion);
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

  const info: BlockInfo = {
    version: 0,
    notMaster: !isMc,
    afterMerge: false,
    beforeSplit: false,
    afterSplit: false,
    wantSplit: false,
    wantMerge: false,
    keyBlock: p.mc?.keyBlock ?? false,
    vertSeqnoIncr: false,
    flags: 1,
    seqno: p.seqno,
    vertSeqno: 0,
    shard: shardIdent(p.workchain),
    genUtime: p.genUtime,
    startLt: p.startLt,
    endLt: p.endLt,
    genValidatorListHashShort: p.genValidatorListHashShort,
    genCatchainSeqno: 0,
    minRefMcSeqno: p.minRefMcSeqno,
    prevKeyBlockSeqno: p.prevKeyBlockSeqno,
    genSoftware: p.genSoftware,
    masterRef: isMc ? undefined : p.masterRef,
    prevRef: { kind: 'single', prev: p.prev },
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

/** The whole-workchain shard id used in ShardFees keys and block ids. */
export const BASECHAIN_SHARD = FULL_SHARD;

/** An ExtBlkRef to a block. */
export function extBlkRef(b: { endLt: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer }): ExtBlkRef {
  return { endLt: b.endLt, seqno: b.seqno, rootHash: b.rootHash, fileHash: b.fileHash };
}
