/**
 * Constructors the mainnet fixtures do not contain, built by hand: each must
 * read back equal and re-serialize to the same cell.
 */
import { Address, Builder, Cell, Dictionary, Slice, beginCell, storeMessage } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { BlockInfo, loadBlockInfo, storeBlockInfo } from './block-info';
import { CryptoSignature, cryptoSignaturePairValue, loadCryptoSignature, storeCryptoSignature } from './mc-block-extra';
import {
  InMsg,
  MsgEnvelope,
  OutMsg,
  inMsgImportFees,
  loadInMsg,
  loadMsgEnvelope,
  loadOutMsg,
  outMsgExportValue,
  storeInMsg,
  storeMsgEnvelope,
  storeOutMsg,
} from './msg-descr';
import { ShardDescr, loadShardDescr, storeShardDescr } from './shard-hashes';
import { fixtureRoot } from '../testing/fixtures';
import { loadBlock } from './block';

/** Addresses and cells compared by value (Address instances cache derived fields). */
function norm(x: unknown): unknown {
  if (x instanceof Address) return `addr:${x.toRawString()}`;
  if (x instanceof Cell) return `cell:${x.hash().toString('hex')}`;
  if (Buffer.isBuffer(x)) return `buf:${x.toString('hex')}`;
  if (Array.isArray(x)) return x.map(norm);
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, norm(v)]));
  return x;
}

function roundTrip<T>(value: T, store: (v: T) => (b: Builder) => void, load: (s: Slice) => T): Cell {
  const cell = beginCell().store(store(value)).endCell();
  const s = cell.beginParse();
  const back = load(s);
  expect(s.remainingBits).toBe(0);
  expect(s.remainingRefs).toBe(0);
  expect(norm(back)).toEqual(norm(value));
  expect(beginCell().store(store(back)).endCell().hash()).toEqual(cell.hash());
  return cell;
}

const src = new Address(0, Buffer.alloc(32, 1));
const dest = new Address(-1, Buffer.alloc(32, 2));
const internalMsg = beginCell()
  .store(
    storeMessage({
      info: {
        type: 'internal',
        ihrDisabled: true,
        bounce: true,
        bounced: false,
        src,
        dest,
        value: { coins: 5_000_000_000n },
        ihrFee: 7n,
        forwardFee: 1000n,
        createdLt: 123n,
        createdAt: 1_700_000_000,
      },
      body: beginCell().storeUint(0, 32).endCell(),
    }),
  )
  .endCell();
const tx = beginCell().storeUint(0xfeed, 16).endCell(); // stand-in: descriptors keep transaction refs opaque
const proof = beginCell().storeUint(0xbeef, 16).endCell();

const envV1: MsgEnvelope = {
  version: 1,
  curAddr: { kind: 'regular', useDestBits: 0 },
  nextAddr: { kind: 'simple', workchainId: -1, addrPfx: 0x8000000000000000n },
  fwdFeeRemaining: 666n,
  msg: internalMsg,
};
const envV2: MsgEnvelope = {
  version: 2,
  curAddr: { kind: 'ext', workchainId: 123456, addrPfx: 0xffffffffffffffffn },
  nextAddr: { kind: 'regular', useDestBits: 96 },
  fwdFeeRemaining: 10n ** 18n,
  msg: internalMsg,
  emittedLt: 0xfffffffffffffff0n,
  metadata: { depth: 3, initiatorAddr: src, initiatorLt: 2n ** 63n + 5n },
};
const envV2Bare: MsgEnvelope = { ...envV1, version: 2 };

describe('MsgEnvelope', () => {
  it('round-trips v1, v2 with emitted_lt and metadata, and v2 without them', () => {
    roundTrip(envV1, storeMsgEnvelope, loadMsgEnvelope);
    roundTrip(envV2, storeMsgEnvelope, loadMsgEnvelope);
    roundTrip(envV2Bare, storeMsgEnvelope, loadMsgEnvelope);
    expect(() => beginCell().store(storeMsgEnvelope({ ...envV1, emittedLt: 1n }))).toThrow(/v2/);
  });

  it('mainnet deferred deliveries carry v2 envelopes with metadata', () => {
    const block = loadBlock(fixtureRoot('block_0_8000000000000000_71398501.boc').beginParse());
    const envs = [...block.extra.inMsgDescr.entries.values()]
      .map((e) => e.value)
      .filter((m): m is Extract<InMsg, { type: 'importDeferredFin' }> => m.type === 'importDeferredFin')
      .map((m) => m.inMsg);
    expect(envs.length).toBe(200);
    for (const env of envs) {
      expect(env.version).toBe(2);
      expect(env.metadata).toBeDefined();
      expect(env.emittedLt).toBeDefined();
    }
  });
});

describe('InMsg and OutMsg constructors', () => {
  const inMsgs: InMsg[] = [
    { type: 'importExt', msg: internalMsg, transaction: tx },
    { type: 'importIhr', msg: internalMsg, transaction: tx, ihrFee: 7n, proofCreated: proof },
    { type: 'importImm', inMsg: envV1, transaction: tx, fwdFee: 666n },
    { type: 'importFin', inMsg: envV2, transaction: tx, fwdFee: 10n ** 18n },
    { type: 'importTr', inMsg: envV1, outMsg: envV2, transitFee: 600n },
    { type: 'discardFin', inMsg: envV1, transactionId: 2n ** 64n - 1n, fwdFee: 5n },
    { type: 'discardTr', inMsg: envV1, transactionId: 77n, fwdFee: 5n, proofDelivered: proof },
    { type: 'importDeferredFin', inMsg: envV2, transaction: tx, fwdFee: 10n ** 18n },
    { type: 'importDeferredTr', inMsg: envV2, outMsg: envV1 },
  ];

  it('round-trips every InMsg constructor', () => {
    for (const m of inMsgs) roundTrip(m, storeInMsg, loadInMsg);
  });

  it('round-trips every OutMsg constructor', () => {
    const outs: OutMsg[] = [
      { type: 'exportExt', msg: internalMsg, transaction: tx },
      { type: 'exportImm', outMsg: envV1, transaction: tx, reimport: inMsgs[2] },
      { type: 'exportNew', outMsg: envV2, transaction: tx },
      { type: 'exportTr', outMsg: envV1, imported: inMsgs[4] },
      { type: 'exportDeq', outMsg: envV1, importBlockLt: 2n ** 63n - 1n },
      { type: 'exportDeqShort', msgEnvHash: Buffer.alloc(32, 9), nextWorkchain: -1, nextAddrPfx: 2n ** 64n - 1n, importBlockLt: 2n ** 64n - 2n },
      { type: 'exportTrReq', outMsg: envV1, imported: inMsgs[4] },
      { type: 'exportDeqImm', outMsg: envV1, reimport: inMsgs[2] },
      { type: 'exportNewDefer', outMsg: envV2, transaction: tx },
      { type: 'exportDeferredTr', outMsg: envV2, imported: inMsgs[8] },
    ];
    for (const m of outs) roundTrip(m, storeOutMsg, loadOutMsg);
    // Exported value: message value + fwd_fee_remaining for queued messages, zero otherwise.
    expect(outMsgExportValue(outs[2])).toEqual({ coins: 5_000_000_000n + 10n ** 18n });
    expect(outMsgExportValue(outs[3], { globalVersion: 11 })).toEqual({ coins: 5_000_000_000n + 7n + 666n });
    for (const i of [0, 1, 4, 5, 7]) expect(outMsgExportValue(outs[i])).toEqual({ coins: 0n });
  });

  it('computes ImportFees per constructor like the node', () => {
    const v = 5_000_000_000n;
    expect(inMsgImportFees(inMsgs[0])).toEqual({ feesCollected: 0n, valueImported: { coins: 0n } });
    expect(inMsgImportFees(inMsgs[1])).toEqual({ feesCollected: 7n, valueImported: { coins: v + 7n } });
    expect(inMsgImportFees(inMsgs[2])).toEqual({ feesCollected: 666n, valueImported: { coins: 0n } });
    expect(inMsgImportFees(inMsgs[3])).toEqual({ feesCollected: 10n ** 18n, valueImported: { coins: v + 10n ** 18n } });
    // Before global version 12 the ihr_fee of the message counts as imported value.
    expect(inMsgImportFees(inMsgs[4], { globalVersion: 9 })).toEqual({ feesCollected: 600n, valueImported: { coins: v + 7n + 666n } });
    expect(inMsgImportFees(inMsgs[5])).toEqual({ feesCollected: 5n, valueImported: { coins: 5n } });
    expect(inMsgImportFees(inMsgs[8])).toEqual({ feesCollected: 0n, valueImported: { coins: v + 10n ** 18n } });
  });
});

describe('BlockInfo variants', () => {
  const ref = (seqno: number) => ({ endLt: BigInt(seqno) * 10n, seqno, rootHash: Buffer.alloc(32, seqno), fileHash: Buffer.alloc(32, seqno + 1) });
  const base: BlockInfo = {
    version: 0,
    notMaster: true,
    afterMerge: true,
    beforeSplit: true,
    afterSplit: false,
    wantSplit: true,
    wantMerge: false,
    keyBlock: false,
    vertSeqnoIncr: true,
    flags: 0,
    seqno: 100,
    vertSeqno: 2,
    shard: { shardPrefixBits: 3, workchainId: 0, shardPrefix: 0xa000000000000000n },
    genUtime: 1_700_000_000,
    startLt: 2n ** 63n,
    endLt: 2n ** 64n - 1n,
    genValidatorListHashShort: 1,
    genCatchainSeqno: 2,
    minRefMcSeqno: 3,
    prevKeyBlockSeqno: 4,
    masterRef: ref(7),
    prevRef: { kind: 'merged', prev1: ref(98), prev2: ref(99) },
    prevVertRef: { kind: 'single', prev: ref(50) },
  };

  it('round-trips after_merge (prev_blks_info), vert_seqno_incr and no gen_software', () => {
    const cell = roundTrip(base, storeBlockInfo, loadBlockInfo);
    expect(cell.refs.length).toBe(3);
    expect(cell.refs[1].refs.length).toBe(2);
  });

  it('refuses inconsistent presence flags', () => {
    const store = (x: BlockInfo) => () => beginCell().store(storeBlockInfo(x));
    expect(store({ ...base, afterMerge: false })).toThrow(/afterMerge/);
    expect(store({ ...base, masterRef: undefined })).toThrow(/notMaster/);
    expect(store({ ...base, flags: 1 })).toThrow(/genSoftware/);
    expect(store({ ...base, vertSeqnoIncr: false })).toThrow(/vertSeqnoIncr/);
  });
});

describe('ShardDescr and signatures', () => {
  const descr: ShardDescr = {
    tag: 0xb,
    seqno: 1,
    regMcSeqno: 2,
    startLt: 3n,
    endLt: 2n ** 64n - 1n,
    rootHash: Buffer.alloc(32, 4),
    fileHash: Buffer.alloc(32, 5),
    beforeSplit: true,
    beforeMerge: false,
    wantSplit: true,
    wantMerge: false,
    nxCcUpdated: true,
    flags: 0,
    nextCatchainSeqno: 6,
    nextValidatorShard: 0xc000000000000000n,
    minRefMcSeqno: 7,
    genUtime: 8,
    splitMergeAt: { kind: 'split', splitUtime: 9, interval: 10 },
    feesCollected: { coins: 11n },
    fundsCreated: { coins: 12n },
  };

  it('round-trips shard_descr#b (fees inline) and #a (fees in a ref) with every FutureSplitMerge', () => {
    const b = roundTrip(descr, storeShardDescr, loadShardDescr);
    expect(b.refs.length).toBe(0);
    const a = roundTrip({ ...descr, tag: 0xa, splitMergeAt: { kind: 'merge', mergeUtime: 1, interval: 2 } }, storeShardDescr, loadShardDescr);
    expect(a.refs.length).toBe(1);
    roundTrip({ ...descr, splitMergeAt: { kind: 'none' } }, storeShardDescr, loadShardDescr);
  });

  it('round-trips simple and chained CryptoSignature and signature pairs', () => {
    const simple: CryptoSignature = { kind: 'simple', r: Buffer.alloc(32, 1), s: Buffer.alloc(32, 2) };
    const chained: CryptoSignature = { kind: 'chained', signedCert: proof, tempKeySignature: { r: Buffer.alloc(32, 3), s: Buffer.alloc(32, 4) } };
    roundTrip(simple, storeCryptoSignature, loadCryptoSignature);
    roundTrip(chained, storeCryptoSignature, loadCryptoSignature);
    const d = Dictionary.empty(Dictionary.Keys.Uint(16), cryptoSignaturePairValue);
    d.set(3, { nodeIdShort: Buffer.alloc(32, 7), sign: simple });
    d.set(9, { nodeIdShort: Buffer.alloc(32, 8), sign: chained });
    const cell = beginCell().storeDict(d).endCell();
    const back = cell.beginParse().loadDict(Dictionary.Keys.Uint(16), cryptoSignaturePairValue);
    expect(back.get(9)).toEqual({ nodeIdShort: Buffer.alloc(32, 8), sign: chained });
  });
});
