/**
 * Message descriptors of a block: MsgEnvelope, InMsg, OutMsg and the
 * InMsgDescr / OutMsgDescr augmented dictionaries (block.tlb).
 *
 * Messages and transactions referenced from descriptors are kept as their
 * original cells (decode them with @ton/core's loadMessage / loadTransaction):
 * @ton/core's storeMessage chooses inline-vs-ref by heuristics, so re-encoding
 * a decoded message would not reproduce the chain's cells.
 */
import { Address, Builder, Cell, CurrencyCollection, Slice, beginCell, loadCommonMessageInfo } from '@ton/core';
import {
  ImportFees,
  addImportFees,
  currencyCollectionExtra,
  loadImportFees,
  storeImportFees,
  zeroCurrencyCollection,
  zeroImportFees,
} from './currency';
import { AugDict, AugDictCodec, loadHashmapAugE, storeHashmapAugE, AugEntriesInput } from './hashmap-aug';

// ---------------------------------------------------------------------------
// IntermediateAddress, MsgMetadata, MsgEnvelope
// ---------------------------------------------------------------------------

/**
 * interm_addr_regular$0 use_dest_bits:(#<= 96)
 * interm_addr_simple$10 workchain_id:int8 addr_pfx:uint64
 * interm_addr_ext$11 workchain_id:int32 addr_pfx:uint64
 */
export type IntermediateAddress =
  | { kind: 'regular'; useDestBits: number }
  | { kind: 'simple'; workchainId: number; addrPfx: bigint }
  | { kind: 'ext'; workchainId: number; addrPfx: bigint };

export function loadIntermediateAddress(slice: Slice): IntermediateAddress {
  if (!slice.loadBit()) {
    const useDestBits = slice.loadUint(7);
    if (useDestBits > 96) throw new Error(`IntermediateAddress: use_dest_bits ${useDestBits} > 96`);
    return { kind: 'regular', useDestBits };
  }
  if (!slice.loadBit()) return { kind: 'simple', workchainId: slice.loadInt(8), addrPfx: slice.loadUintBig(64) };
  return { kind: 'ext', workchainId: slice.loadInt(32), addrPfx: slice.loadUintBig(64) };
}

export function storeIntermediateAddress(a: IntermediateAddress): (builder: Builder) => void {
  return (builder) => {
    switch (a.kind) {
      case 'regular':
        builder.storeBit(0).storeUint(a.useDestBits, 7);
        break;
      case 'simple':
        builder.storeUint(0b10, 2).storeInt(a.workchainId, 8).storeUint(a.addrPfx, 64);
        break;
      case 'ext':
        builder.storeUint(0b11, 2).storeInt(a.workchainId, 32).storeUint(a.addrPfx, 64);
        break;
    }
  };
}

/** msg_metadata#0 depth:uint32 initiator_addr:MsgAddressInt initiator_lt:uint64 = MsgMetadata; */
export interface MsgMetadata {
  depth: number;
  initiatorAddr: Address;
  initiatorLt: bigint;
}

export function loadMsgMetadata(slice: Slice): MsgMetadata {
  const tag = slice.loadUint(4);
  if (tag !== 0) throw new Error(`MsgMetadata: bad tag ${tag}`);
  return { depth: slice.loadUint(32), initiatorAddr: slice.loadAddress(), initiatorLt: slice.loadUintBig(64) };
}

export function storeMsgMetadata(m: MsgMetadata): (builder: Builder) => void {
  return (builder) => {
    builder.storeUint(0, 4).storeUint(m.depth, 32).storeAddress(m.initiatorAddr).storeUint(m.initiatorLt, 64);
  };
}

/**
 * msg_envelope#4 cur_addr next_addr fwd_fee_remaining:Grams msg:^(Message Any)
 * msg_envelope_v2#5 ... msg:^(Message Any) emitted_lt:(Maybe uint64) metadata:(Maybe MsgMetadata)
 */
export interface MsgEnvelope {
  version: 1 | 2;
  curAddr: IntermediateAddress;
  nextAddr: IntermediateAddress;
  fwdFeeRemaining: bigint;
  /** The Message Any cell. */
  msg: Cell;
  /** v2 only. */
  emittedLt?: bigint;
  /** v2 only. */
  metadata?: MsgMetadata;
}

export function loadMsgEnvelope(slice: Slice): MsgEnvelope {
  const tag = slice.loadUint(4);
  if (tag !== 4 && tag !== 5) throw new Error(`MsgEnvelope: bad tag ${tag}`);
  const curAddr = loadIntermediateAddress(slice);
  const nextAddr = loadIntermediateAddress(slice);
  const fwdFeeRemaining = slice.loadCoins();
  const msg = slice.loadRef();
  if (tag === 4) return { version: 1, curAddr, nextAddr, fwdFeeRemaining, msg };
  const emittedLt = slice.loadBit() ? slice.loadUintBig(64) : undefined;
  const metadata = slice.loadBit() ? loadMsgMetadata(slice) : undefined;
  return { version: 2, curAddr, nextAddr, fwdFeeRemaining, msg, emittedLt, metadata };
}

export function storeMsgEnvelope(env: MsgEnvelope): (builder: Builder) => void {
  return (builder) => {
    builder.storeUint(env.version === 2 ? 5 : 4, 4);
    builder.store(storeIntermediateAddress(env.curAddr));
    builder.store(storeIntermediateAddress(env.nextAddr));
    builder.storeCoins(env.fwdFeeRemaining);
    builder.storeRef(env.msg);
    if (env.version === 2) {
      if (env.emittedLt !== undefined) builder.storeBit(1).storeUint(env.emittedLt, 64);
      else builder.storeBit(0);
      if (env.metadata) builder.storeBit(1).store(storeMsgMetadata(env.metadata));
      else builder.storeBit(0);
    } else if (env.emittedLt !== undefined || env.metadata) {
      throw new Error('MsgEnvelope: emittedLt and metadata need msg_envelope_v2');
    }
  };
}

function loadEnvelopeRef(slice: Slice): MsgEnvelope {
  return loadMsgEnvelope(slice.loadRef().beginParse());
}

function envelopeRef(env: MsgEnvelope): Cell {
  return beginCell().store(storeMsgEnvelope(env)).endCell();
}

// ---------------------------------------------------------------------------
// InMsg
// ---------------------------------------------------------------------------

/**
 * msg_import_ext$000 msg:^(Message Any) transaction:^Transaction
 * msg_import_ihr$010 msg:^(Message Any) transaction:^Transaction ihr_fee:Grams proof_created:^Cell
 * msg_import_imm$011 in_msg:^MsgEnvelope transaction:^Transaction fwd_fee:Grams
 * msg_import_fin$100 in_msg:^MsgEnvelope transaction:^Transaction fwd_fee:Grams
 * msg_import_tr$101 in_msg:^MsgEnvelope out_msg:^MsgEnvelope transit_fee:Grams
 * msg_discard_fin$110 in_msg:^MsgEnvelope transaction_id:uint64 fwd_fee:Grams
 * msg_discard_tr$111 in_msg:^MsgEnvelope transaction_id:uint64 fwd_fee:Grams proof_delivered:^Cell
 * msg_import_deferred_fin$00100 in_msg:^MsgEnvelope transaction:^Transaction fwd_fee:Grams
 * msg_import_deferred_tr$00101 in_msg:^MsgEnvelope out_msg:^MsgEnvelope
 */
export type InMsg =
  | { type: 'importExt'; msg: Cell; transaction: Cell }
  | { type: 'importIhr'; msg: Cell; transaction: Cell; ihrFee: bigint; proofCreated: Cell }
  | { type: 'importImm'; inMsg: MsgEnvelope; transaction: Cell; fwdFee: bigint }
  | { type: 'importFin'; inMsg: MsgEnvelope; transaction: Cell; fwdFee: bigint }
  | { type: 'importTr'; inMsg: MsgEnvelope; outMsg: MsgEnvelope; transitFee: bigint }
  | { type: 'discardFin'; inMsg: MsgEnvelope; transactionId: bigint; fwdFee: bigint }
  | { type: 'discardTr'; inMsg: MsgEnvelope; transactionId: bigint; fwdFee: bigint; proofDelivered: Cell }
  | { type: 'importDeferredFin'; inMsg: MsgEnvelope; transaction: Cell; fwdFee: bigint }
  | { type: 'importDeferredTr'; inMsg: MsgEnvelope; outMsg: MsgEnvelope };

export function loadInMsg(slice: Slice): InMsg {
  const tag = slice.loadUint(3);
  switch (tag) {
    case 0b000:
      return { type: 'importExt', msg: slice.loadRef(), transaction: slice.loadRef() };
    case 0b010: {
      const msg = slice.loadRef();
      const transaction = slice.loadRef();
      const ihrFee = slice.loadCoins();
      return { type: 'importIhr', msg, transaction, ihrFee, proofCreated: slice.loadRef() };
    }
    case 0b011:
    case 0b100: {
      const inMsg = loadEnvelopeRef(slice);
      const transaction = slice.loadRef();
      return { type: tag === 0b011 ? 'importImm' : 'importFin', inMsg, transaction, fwdFee: slice.loadCoins() };
    }
    case 0b101: {
      const inMsg = loadEnvelopeRef(slice);
      const outMsg = loadEnvelopeRef(slice);
      return { type: 'importTr', inMsg, outMsg, transitFee: slice.loadCoins() };
    }
    case 0b110:
    case 0b111: {
      const inMsg = loadEnvelopeRef(slice);
      const transactionId = slice.loadUintBig(64);
      const fwdFee = slice.loadCoins();
      if (tag === 0b110) return { type: 'discardFin', inMsg, transactionId, fwdFee };
      return { type: 'discardTr', inMsg, transactionId, fwdFee, proofDelivered: slice.loadRef() };
    }
    case 0b001: {
      const sub = slice.loadUint(2);
      if (sub === 0b00) {
        const inMsg = loadEnvelopeRef(slice);
        const transaction = slice.loadRef();
        return { type: 'importDeferredFin', inMsg, transaction, fwdFee: slice.loadCoins() };
      }
      if (sub === 0b01) {
        const inMsg = loadEnvelopeRef(slice);
        return { type: 'importDeferredTr', inMsg, outMsg: loadEnvelopeRef(slice) };
      }
      throw new Error(`InMsg: bad tag 001${sub.toString(2).padStart(2, '0')}`);
    }
  }
  throw new Error(`InMsg: bad tag ${tag.toString(2)}`);
}

export function storeInMsg(m: InMsg): (builder: Builder) => void {
  return (b) => {
    switch (m.type) {
      case 'importExt':
        b.storeUint(0b000, 3).storeRef(m.msg).storeRef(m.transaction);
        break;
      case 'importIhr':
        b.storeUint(0b010, 3).storeRef(m.msg).storeRef(m.transaction).storeCoins(m.ihrFee).storeRef(m.proofCreated);
        break;
      case 'importImm':
      case 'importFin':
        b.storeUint(m.type === 'importImm' ? 0b011 : 0b100, 3);
        b.storeRef(envelopeRef(m.inMsg)).storeRef(m.transaction).storeCoins(m.fwdFee);
        break;
      case 'importTr':
        b.storeUint(0b101, 3).storeRef(envelopeRef(m.inMsg)).storeRef(envelopeRef(m.outMsg)).storeCoins(m.transitFee);
        break;
      case 'discardFin':
        b.storeUint(0b110, 3).storeRef(envelopeRef(m.inMsg)).storeUint(m.transactionId, 64).storeCoins(m.fwdFee);
        break;
      case 'discardTr':
        b.storeUint(0b111, 3).storeRef(envelopeRef(m.inMsg)).storeUint(m.transactionId, 64).storeCoins(m.fwdFee);
        b.storeRef(m.proofDelivered);
        break;
      case 'importDeferredFin':
        b.storeUint(0b00100, 5).storeRef(envelopeRef(m.inMsg)).storeRef(m.transaction).storeCoins(m.fwdFee);
        break;
      case 'importDeferredTr':
        b.storeUint(0b00101, 5).storeRef(envelopeRef(m.inMsg)).storeRef(envelopeRef(m.outMsg));
        break;
    }
  };
}

// ---------------------------------------------------------------------------
// OutMsg
// ---------------------------------------------------------------------------

/**
 * msg_export_ext$000 msg:^(Message Any) transaction:^Transaction
 * msg_export_imm$010 out_msg:^MsgEnvelope transaction:^Transaction reimport:^InMsg
 * msg_export_new$001 out_msg:^MsgEnvelope transaction:^Transaction
 * msg_export_tr$011 out_msg:^MsgEnvelope imported:^InMsg
 * msg_export_deq$1100 out_msg:^MsgEnvelope import_block_lt:uint63
 * msg_export_deq_short$1101 msg_env_hash:bits256 next_workchain:int32 next_addr_pfx:uint64 import_block_lt:uint64
 * msg_export_tr_req$111 out_msg:^MsgEnvelope imported:^InMsg
 * msg_export_deq_imm$100 out_msg:^MsgEnvelope reimport:^InMsg
 * msg_export_new_defer$10100 out_msg:^MsgEnvelope transaction:^Transaction
 * msg_export_deferred_tr$10101 out_msg:^MsgEnvelope imported:^InMsg
 */
export type OutMsg =
  | { type: 'exportExt'; msg: Cell; transaction: Cell }
  | { type: 'exportImm'; outMsg: MsgEnvelope; transaction: Cell; reimport: InMsg }
  | { type: 'exportNew'; outMsg: MsgEnvelope; transaction: Cell }
  | { type: 'exportTr'; outMsg: MsgEnvelope; imported: InMsg }
  | { type: 'exportDeq'; outMsg: MsgEnvelope; importBlockLt: bigint }
  | { type: 'exportDeqShort'; msgEnvHash: Buffer; nextWorkchain: number; nextAddrPfx: bigint; importBlockLt: bigint }
  | { type: 'exportTrReq'; outMsg: MsgEnvelope; imported: InMsg }
  | { type: 'exportDeqImm'; outMsg: MsgEnvelope; reimport: InMsg }
  | { type: 'exportNewDefer'; outMsg: MsgEnvelope; transaction: Cell }
  | { type: 'exportDeferredTr'; outMsg: MsgEnvelope; imported: InMsg };

function loadInMsgRef(slice: Slice): InMsg {
  return loadInMsg(slice.loadRef().beginParse());
}

function inMsgRef(m: InMsg): Cell {
  return beginCell().store(storeInMsg(m)).endCell();
}

export function loadOutMsg(slice: Slice): OutMsg {
  const tag = slice.loadUint(3);
  switch (tag) {
    case 0b000:
      return { type: 'exportExt', msg: slice.loadRef(), transaction: slice.loadRef() };
    case 0b010: {
      const outMsg = loadEnvelopeRef(slice);
      const transaction = slice.loadRef();
      return { type: 'exportImm', outMsg, transaction, reimport: loadInMsgRef(slice) };
    }
    case 0b001: {
      const outMsg = loadEnvelopeRef(slice);
      return { type: 'exportNew', outMsg, transaction: slice.loadRef() };
    }
    case 0b011:
    case 0b111: {
      const outMsg = loadEnvelopeRef(slice);
      return { type: tag === 0b011 ? 'exportTr' : 'exportTrReq', outMsg, imported: loadInMsgRef(slice) };
    }
    case 0b100: {
      const outMsg = loadEnvelopeRef(slice);
      return { type: 'exportDeqImm', outMsg, reimport: loadInMsgRef(slice) };
    }
    case 0b110: {
      if (!slice.loadBit()) {
        const outMsg = loadEnvelopeRef(slice);
        return { type: 'exportDeq', outMsg, importBlockLt: slice.loadUintBig(63) };
      }
      return {
        type: 'exportDeqShort',
        msgEnvHash: slice.loadBuffer(32),
        nextWorkchain: slice.loadInt(32),
        nextAddrPfx: slice.loadUintBig(64),
        importBlockLt: slice.loadUintBig(64),
      };
    }
    case 0b101: {
      const sub = slice.loadUint(2);
      const outMsg = loadEnvelopeRef(slice);
      if (sub === 0b00) return { type: 'exportNewDefer', outMsg, transaction: slice.loadRef() };
      if (sub === 0b01) return { type: 'exportDeferredTr', outMsg, imported: loadInMsgRef(slice) };
      throw new Error(`OutMsg: bad tag 101${sub.toString(2).padStart(2, '0')}`);
    }
  }
  throw new Error(`OutMsg: bad tag ${tag.toString(2)}`);
}

export function storeOutMsg(m: OutMsg): (builder: Builder) => void {
  return (b) => {
    switch (m.type) {
      case 'exportExt':
        b.storeUint(0b000, 3).storeRef(m.msg).storeRef(m.transaction);
        break;
      case 'exportImm':
        b.storeUint(0b010, 3).storeRef(envelopeRef(m.outMsg)).storeRef(m.transaction).storeRef(inMsgRef(m.reimport));
        break;
      case 'exportNew':
        b.storeUint(0b001, 3).storeRef(envelopeRef(m.outMsg)).storeRef(m.transaction);
        break;
      case 'exportTr':
      case 'exportTrReq':
        b.storeUint(m.type === 'exportTr' ? 0b011 : 0b111, 3);
        b.storeRef(envelopeRef(m.outMsg)).storeRef(inMsgRef(m.imported));
        break;
      case 'exportDeqImm':
        b.storeUint(0b100, 3).storeRef(envelopeRef(m.outMsg)).storeRef(inMsgRef(m.reimport));
        break;
      case 'exportDeq':
        b.storeUint(0b1100, 4).storeRef(envelopeRef(m.outMsg)).storeUint(m.importBlockLt, 63);
        break;
      case 'exportDeqShort':
        b.storeUint(0b1101, 4).storeBuffer(m.msgEnvHash, 32).storeInt(m.nextWorkchain, 32);
        b.storeUint(m.nextAddrPfx, 64).storeUint(m.importBlockLt, 64);
        break;
      case 'exportNewDefer':
        b.storeUint(0b10100, 5).storeRef(envelopeRef(m.outMsg)).storeRef(m.transaction);
        break;
      case 'exportDeferredTr':
        b.storeUint(0b10101, 5).storeRef(envelopeRef(m.outMsg)).storeRef(inMsgRef(m.imported));
        break;
    }
  };
}

// ---------------------------------------------------------------------------
// Leaf extras (the node's InMsg::get_import_fees / OutMsg::get_export_value)
// ---------------------------------------------------------------------------

export interface MsgValueOptions {
  /**
   * Global version (ConfigParam 8). From version 12 the ihr_fee field of
   * internal messages no longer carries value and is left out of imported /
   * exported amounts. Defaults to 12.
   */
  globalVersion?: number;
}

/** msg.value + (ihr_fee before v12) + fwd_fee_remaining of an enveloped internal message. */
function envelopedValue(env: MsgEnvelope, opts: MsgValueOptions): CurrencyCollection {
  const info = loadCommonMessageInfo(env.msg.beginParse());
  if (info.type !== 'internal') throw new Error('MsgEnvelope: enveloped message is not internal');
  const ihr = (opts.globalVersion ?? 12) >= 12 ? 0n : info.ihrFee;
  return { ...info.value, coins: info.value.coins + ihr + env.fwdFeeRemaining };
}

/** ImportFees of an InMsgDescr leaf. */
export function inMsgImportFees(m: InMsg, opts: MsgValueOptions = {}): ImportFees {
  switch (m.type) {
    case 'importExt':
      return zeroImportFees();
    case 'importIhr': {
      const info = loadCommonMessageInfo(m.msg.beginParse());
      if (info.type !== 'internal') throw new Error('InMsg: msg_import_ihr of a non-internal message');
      return { feesCollected: m.ihrFee, valueImported: { ...info.value, coins: info.value.coins + m.ihrFee } };
    }
    case 'importImm':
      return { feesCollected: m.fwdFee, valueImported: zeroCurrencyCollection() };
    case 'importFin':
    case 'importDeferredFin':
      return { feesCollected: m.inMsg.fwdFeeRemaining, valueImported: envelopedValue(m.inMsg, opts) };
    case 'importTr':
      return { feesCollected: m.transitFee, valueImported: envelopedValue(m.inMsg, opts) };
    case 'importDeferredTr':
      return { feesCollected: 0n, valueImported: envelopedValue(m.inMsg, opts) };
    case 'discardFin':
    case 'discardTr':
      return { feesCollected: m.fwdFee, valueImported: { coins: m.fwdFee } };
  }
}

/** Exported value (CurrencyCollection extra) of an OutMsgDescr leaf. */
export function outMsgExportValue(m: OutMsg, opts: MsgValueOptions = {}): CurrencyCollection {
  switch (m.type) {
    case 'exportNew':
    case 'exportTr':
    case 'exportTrReq':
    case 'exportNewDefer':
    case 'exportDeferredTr':
      return envelopedValue(m.outMsg, opts);
    default:
      return zeroCurrencyCollection();
  }
}

// ---------------------------------------------------------------------------
// InMsgDescr / OutMsgDescr
// ---------------------------------------------------------------------------

/** _ (HashmapAugE 256 InMsg ImportFees) = InMsgDescr; keys are message hashes. */
export type InMsgDescr = AugDict<InMsg, ImportFees>;
/** _ (HashmapAugE 256 OutMsg CurrencyCollection) = OutMsgDescr; keys are message hashes. */
export type OutMsgDescr = AugDict<OutMsg, CurrencyCollection>;

export function inMsgDescrCodec(opts: MsgValueOptions = {}): AugDictCodec<InMsg, ImportFees> {
  return {
    loadValue: loadInMsg,
    storeValue: storeInMsg,
    loadExtra: loadImportFees,
    storeExtra: storeImportFees,
    combine: addImportFees,
    empty: zeroImportFees,
    leafExtra: (m) => inMsgImportFees(m, opts),
  };
}

export function outMsgDescrCodec(opts: MsgValueOptions = {}): AugDictCodec<OutMsg, CurrencyCollection> {
  return {
    loadValue: loadOutMsg,
    storeValue: storeOutMsg,
    ...currencyCollectionExtra,
    leafExtra: (m) => outMsgExportValue(m, opts),
  };
}

export const inMsgDescrAug = inMsgDescrCodec();
export const outMsgDescrAug = outMsgDescrCodec();

export function loadInMsgDescr(slice: Slice): InMsgDescr {
  return loadHashmapAugE(slice, 256, inMsgDescrAug);
}

/** Stores the entries' own extras where given, computing the missing ones and every fork. */
export function storeInMsgDescr(
  entries: AugEntriesInput<InMsg, ImportFees>,
  opts: MsgValueOptions = {},
): (builder: Builder) => void {
  return storeHashmapAugE(entries, 256, inMsgDescrCodec(opts));
}

export function loadOutMsgDescr(slice: Slice): OutMsgDescr {
  return loadHashmapAugE(slice, 256, outMsgDescrAug);
}

export function storeOutMsgDescr(
  entries: AugEntriesInput<OutMsg, CurrencyCollection>,
  opts: MsgValueOptions = {},
): (builder: Builder) => void {
  return storeHashmapAugE(entries, 256, outMsgDescrCodec(opts));
}
