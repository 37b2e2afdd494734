/**
 * masterchain_block_extra#cca5 key_block:(## 1) shard_hashes:ShardHashes
 *   shard_fees:ShardFees
 *   ^[ prev_blk_signatures:(HashmapE 16 CryptoSignaturePair)
 *      recover_create_msg:(Maybe ^InMsg) mint_msg:(Maybe ^InMsg) ]
 *   config:key_block?ConfigParams = McBlockExtra;
 */
import { Builder, Cell, Dictionary, DictionaryValue, Slice, beginCell } from '@ton/core';
import { ConfigParams, loadConfigParams, storeConfigParams } from './config';
import { InMsg, loadInMsg, storeInMsg } from './msg-descr';
import { ShardFees, ShardHashes, loadShardFees, loadShardHashes, storeShardFees, storeShardHashes } from './shard-hashes';

/** ed25519_signature#5 R:bits256 s:bits256 = CryptoSignatureSimple; */
export interface CryptoSignatureSimple {
  r: Buffer;
  s: Buffer;
}

/**
 * _ CryptoSignatureSimple = CryptoSignature;
 * chained_signature#f signed_cert:^SignedCertificate temp_key_signature:CryptoSignatureSimple = CryptoSignature;
 */
export type CryptoSignature =
  | ({ kind: 'simple' } & CryptoSignatureSimple)
  | { kind: 'chained'; signedCert: Cell; tempKeySignature: CryptoSignatureSimple };

function loadSignatureSimpleBody(slice: Slice): CryptoSignatureSimple {
  return { r: slice.loadBuffer(32), s: slice.loadBuffer(32) };
}

export function loadCryptoSignature(slice: Slice): CryptoSignature {
  const tag = slice.loadUint(4);
  if (tag === 0x5) return { kind: 'simple', ...loadSignatureSimpleBody(slice) };
  if (tag === 0xf) {
    const signedCert = slice.loadRef();
    if (slice.loadUint(4) !== 0x5) throw new Error('CryptoSignature: bad temp_key_signature tag');
    return { kind: 'chained', signedCert, tempKeySignature: loadSignatureSimpleBody(slice) };
  }
  throw new Error(`CryptoSignature: bad tag 0x${tag.toString(16)}`);
}

export function storeCryptoSignature(sig: CryptoSignature): (builder: Builder) => void {
  return (b) => {
    if (sig.kind === 'simple') {
      b.storeUint(0x5, 4).storeBuffer(sig.r, 32).storeBuffer(sig.s, 32);
    } else {
      b.storeUint(0xf, 4).storeRef(sig.signedCert);
      b.storeUint(0x5, 4).storeBuffer(sig.tempKeySignature.r, 32).storeBuffer(sig.tempKeySignature.s, 32);
    }
  };
}

/** sig_pair$_ node_id_short:bits256 sign:CryptoSignature = CryptoSignaturePair; */
export interface CryptoSignaturePair {
  nodeIdShort: Buffer;
  sign: CryptoSignature;
}

export const cryptoSignaturePairValue: DictionaryValue<CryptoSignaturePair> = {
  parse: (s) => ({ nodeIdShort: s.loadBuffer(32), sign: loadCryptoSignature(s) }),
  serialize: (v, b) => {
    b.storeBuffer(v.nodeIdShort, 32).store(storeCryptoSignature(v.sign));
  },
};

export interface McBlockExtra {
  keyBlock: boolean;
  shardHashes: ShardHashes;
  shardFees: ShardFees;
  prevBlkSignatures: Dictionary<number, CryptoSignaturePair>;
  recoverCreateMsg?: InMsg;
  mintMsg?: InMsg;
  /** Present exactly in key blocks. */
  config?: ConfigParams;
}

export function loadMcBlockExtra(slice: Slice): McBlockExtra {
  const tag = slice.loadUint(16);
  if (tag !== 0xcca5) throw new Error(`McBlockExtra: bad tag 0x${tag.toString(16)}`);
  const keyBlock = slice.loadBit();
  const shardHashes = loadShardHashes(slice);
  const shardFees = loadShardFees(slice);
  const r = slice.loadRef().beginParse();
  const prevBlkSignatures = Dictionary.load(Dictionary.Keys.Uint(16), cryptoSignaturePairValue, r);
  const recover = r.loadMaybeRef();
  const mint = r.loadMaybeRef();
  const config = keyBlock ? loadConfigParams(slice) : undefined;
  return {
    keyBlock,
    shardHashes,
    shardFees,
    prevBlkSignatures,
    recoverCreateMsg: recover ? loadInMsg(recover.beginParse()) : undefined,
    mintMsg: mint ? loadInMsg(mint.beginParse()) : undefined,
    config,
  };
}

export function storeMcBlockExtra(x: McBlockExtra): (builder: Builder) => void {
  return (b) => {
    if (x.keyBlock !== (x.config !== undefined)) throw new Error('McBlockExtra: keyBlock disagrees with config');
    b.storeUint(0xcca5, 16);
    b.storeBit(x.keyBlock);
    b.store(storeShardHashes(x.shardHashes));
    b.store(storeShardFees(x.shardFees.entries));
    const r = beginCell();
    r.storeDict(x.prevBlkSignatures, Dictionary.Keys.Uint(16), cryptoSignaturePairValue);
    r.storeMaybeRef(x.recoverCreateMsg ? beginCell().store(storeInMsg(x.recoverCreateMsg)) : null);
    r.storeMaybeRef(x.mintMsg ? beginCell().store(storeInMsg(x.mintMsg)) : null);
    b.storeRef(r);
    if (x.config) b.store(storeConfigParams(x.config));
  };
}
