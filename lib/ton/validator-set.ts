/**
 * Validator sets and block signatures, as the node computes and checks them (crypto/block/mc-config.cpp
 * do_compute_validator_set, block.cpp compute_validator_set_hash, check-proof.cpp check_block_signatures).
 *
 *   validators_ext#12 utime_since:uint32 utime_until:uint32 total:(## 16) main:(## 16)
 *     total_weight:uint64 list:(HashmapE 16 ValidatorDescr) = ValidatorSet;          (ConfigParam 34)
 *   validator#53 public_key:SigPubKey weight:uint64 = ValidatorDescr;
 *   validator_addr#73 public_key:SigPubKey weight:uint64 adnl_addr:bits256 = ValidatorDescr;
 *   ed25519_pubkey#8e81278a pubkey:bits256 = SigPubKey;
 *   catchain_config_new#c2 flags:(## 7) shuffle_mc_validators:Bool mc_catchain_lifetime:uint32
 *     shard_catchain_lifetime:uint32 shard_validators_lifetime:uint32 shard_validators_num:uint32 = CatchainConfig;  (28)
 *
 * A masterchain block is signed by the masterchain subset of the current set (ConfigParam 34): the
 * first `main` validators, shuffled by a SHA-512 PRNG when shuffle_mc_validators is set. Each signs
 * the TL bytes of `ton.blockId root_cell_hash:int256 file_hash:int256` (constructor 0xc50b6e70, written
 * little-endian: 70 6e 0b c5); a signature set is valid when its validators hold more than 2/3 of the
 * subset's weight. The subset's hash (crc32c of a fixed layout) is the block's gen_validator_list_hash_short.
 */
import { createHash } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { Cell, Dictionary, beginCell, type Slice } from '@ton/core';
import { crc32c } from './boc';

export interface ValidatorDescr {
  publicKey: Buffer;
  weight: bigint;
  /** Zero bytes when the descriptor has no ADNL address (validator#53). */
  adnlAddr: Buffer;
}

export interface ValidatorSet {
  utimeSince: number;
  utimeUntil: number;
  total: number;
  main: number;
  totalWeight: bigint;
  list: ValidatorDescr[];
}

export interface CatchainConfig {
  shuffleMcValidators: boolean;
  shardValidatorsNum: number;
}

const ZERO32 = Buffer.alloc(32);

function loadValidatorDescr(s: Slice): ValidatorDescr {
  const tag = s.loadUint(8);
  if (tag !== 0x53 && tag !== 0x73) throw new Error(`ValidatorDescr: bad tag ${tag.toString(16)}`);
  if (s.loadUint(32) !== 0x8e81278a) throw new Error('ValidatorDescr: not an ed25519 public key');
  const publicKey = s.loadBuffer(32);
  const weight = s.loadUintBig(64);
  const adnlAddr = tag === 0x73 ? s.loadBuffer(32) : ZERO32;
  return { publicKey, weight, adnlAddr };
}

/** ConfigParam 34 (or 32, 36). The list is in key order (the order the node's unpack_validator_set uses). */
export function loadValidatorSet(cell: Cell): ValidatorSet {
  const s = cell.beginParse();
  const tag = s.loadUint(8);
  if (tag !== 0x11 && tag !== 0x12) throw new Error(`ValidatorSet: bad tag ${tag.toString(16)}`);
  const utimeSince = s.loadUint(32);
  const utimeUntil = s.loadUint(32);
  const total = s.loadUint(16);
  const main = s.loadUint(16);
  if (main < 1 || main > total) throw new Error('ValidatorSet: main must be in 1..total');
  let totalWeight = 0n;
  let entries: [number, ValidatorDescr][];
  if (tag === 0x12) {
    totalWeight = s.loadUintBig(64);
    const dict = s.loadDict(Dictionary.Keys.Uint(16), { serialize: () => undefined as never, parse: loadValidatorDescr });
    entries = [...dict];
  } else {
    const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(16), { serialize: () => undefined as never, parse: loadValidatorDescr }, s);
    entries = [...dict];
  }
  entries.sort((a, b) => a[0] - b[0]);
  if (entries.length !== total || entries.some(([k], i) => k !== i)) throw new Error('ValidatorSet: list keys must be 0..total-1');
  const list = entries.map(([, v]) => v);
  const sum = list.reduce((a, v) => a + v.weight, 0n);
  if (tag === 0x11) totalWeight = sum;
  else if (sum !== totalWeight) throw new Error('ValidatorSet: total_weight is not the sum of the weights');
  return { utimeSince, utimeUntil, total, main, totalWeight, list };
}

/** validators_ext with validator_addr descriptors (what mainnet's ConfigParam 34 holds). */
export function storeValidatorSet(v: Omit<ValidatorSet, 'total' | 'totalWeight'>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(16), {
    serialize: (d: ValidatorDescr, b) => {
      b.storeUint(0x73, 8).storeUint(0x8e81278a, 32).storeBuffer(d.publicKey, 32).storeUint(d.weight, 64).storeBuffer(d.adnlAddr, 32);
    },
    parse: loadValidatorDescr,
  });
  v.list.forEach((d, i) => dict.set(i, d));
  return beginCell()
    .storeUint(0x12, 8)
    .storeUint(v.utimeSince, 32)
    .storeUint(v.utimeUntil, 32)
    .storeUint(v.list.length, 16)
    .storeUint(v.main, 16)
    .storeUint(v.list.reduce((a, d) => a + d.weight, 0n), 64)
    .storeDict(dict)
    .endCell();
}

/** ConfigParam 28. */
export function loadCatchainConfig(cell: Cell): CatchainConfig {
  const s = cell.beginParse();
  const tag = s.loadUint(8);
  if (tag === 0xc1) {
    s.skip(96);
    return { shuffleMcValidators: false, shardValidatorsNum: s.loadUint(32) };
  }
  if (tag !== 0xc2) throw new Error(`CatchainConfig: bad tag ${tag.toString(16)}`);
  s.skip(7);
  const shuffleMcValidators = s.loadBit();
  s.skip(96);
  return { shuffleMcValidators, shardValidatorsNum: s.loadUint(32) };
}

/**
 * The node's ValidatorSetPRNG: SHA-512 of validator_set_descr { seed[32] (zero), shard:uint64,
 * workchain:int32, cc_seqno:uint32 } (all big-endian), read as big-endian uint64s; the seed is
 * incremented after each hash.
 */
class ValidatorSetPrng {
  readonly #descr: Buffer;
  #hash = Buffer.alloc(64);
  #pos = 0;
  #limit = 0;

  constructor(workchain: number, shard: bigint, ccSeqno: number) {
    this.#descr = Buffer.alloc(48);
    this.#descr.writeBigUInt64BE(BigInt.asUintN(64, shard), 32);
    this.#descr.writeInt32BE(workchain, 40);
    this.#descr.writeUInt32BE(ccSeqno >>> 0, 44);
  }

  nextU64(): bigint {
    if (this.#pos < this.#limit) return this.#hash.readBigUInt64BE(8 * this.#pos++);
    this.#hash = createHash('sha512').update(this.#descr).digest();
    for (let i = 31; i >= 0; i--) {
      this.#descr[i] = (this.#descr[i] + 1) & 0xff;
      if (this.#descr[i] !== 0) break;
    }
    this.#pos = 1;
    this.#limit = 8;
    return this.#hash.readBigUInt64BE(0);
  }

  /** A number in 0 .. range-1: the high 64 bits of range × next. */
  nextRanged(range: bigint): bigint {
    return (range * this.nextU64()) >> 64n;
  }
}

export const MASTERCHAIN_SHARD = 0x8000000000000000n;

/** The validators of one shard's catchain (do_compute_validator_set); for the masterchain, in signing order. */
export function computeValidatorSubset(
  vset: ValidatorSet,
  cc: CatchainConfig,
  shard: { workchain: number; shard: bigint },
  ccSeqno: number,
): ValidatorDescr[] {
  const isMc = shard.workchain === -1;
  const count = Math.min(isMc ? vset.main : cc.shardValidatorsNum, vset.total);
  if (count === 0) return [];
  const gen = new ValidatorSetPrng(shard.workchain, shard.shard, ccSeqno);
  if (isMc) {
    if (!cc.shuffleMcValidators) return vset.list.slice(0, count);
    const idx = new Array<number>(count).fill(0);
    for (let i = 0; i < count; i++) {
      const j = Number(gen.nextRanged(BigInt(i + 1)));
      idx[i] = idx[j];
      idx[j] = i;
    }
    return idx.map((i) => vset.list[i]);
  }
  // Shard subsets: `count` distinct validators drawn by weight, each with weight 1.
  const cum: bigint[] = [];
  let acc = 0n;
  for (const v of vset.list) {
    cum.push(acc);
    acc += v.weight;
  }
  const holes: [bigint, bigint][] = [];
  let totalWt = vset.totalWeight;
  const nodes: ValidatorDescr[] = [];
  for (let i = 0; i < count; i++) {
    let p = gen.nextRanged(totalWt);
    for (const [start, w] of holes) {
      if (p < start) break;
      p += w;
    }
    let k = cum.length - 1;
    while (cum[k] > p) k--;
    const entry = vset.list[k];
    nodes.push({ ...entry, weight: 1n });
    totalWt -= entry.weight;
    holes.push([cum[k], entry.weight]);
    holes.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
  return nodes;
}

/** compute_validator_set_hash: crc32c of magic, cc_seqno, count, then key ‖ weight ‖ adnl_addr per node (little-endian). */
export function validatorSetHashShort(ccSeqno: number, nodes: readonly ValidatorDescr[]): number {
  const b = Buffer.alloc(12 + nodes.length * 72);
  b.writeInt32LE(-1877581587, 0); // magic inherited from test0.validatorSet
  b.writeUInt32LE(ccSeqno >>> 0, 4);
  b.writeUInt32LE(nodes.length, 8);
  nodes.forEach((n, i) => {
    const at = 12 + i * 72;
    n.publicKey.copy(b, at);
    b.writeBigUInt64LE(n.weight, at + 32);
    n.adnlAddr.copy(b, at + 40);
  });
  return crc32c(b).readUInt32LE(0);
}

/** node_id_short: sha256 of the TL pub.ed25519 (constructor 0x4813b4c6, little-endian) ‖ key. */
export function nodeIdShort(publicKey: Buffer): Buffer {
  return createHash('sha256').update(Buffer.from([0xc6, 0xb4, 0x13, 0x48])).update(publicKey).digest();
}

/** The 68 bytes validators sign for a block: TL `ton.blockId root_cell_hash file_hash`. */
export function blockSignedBytes(rootHash: Buffer, fileHash: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0x70, 0x6e, 0x0b, 0xc5]), rootHash, fileHash]);
}

export interface BlockSignature {
  nodeIdShort: Buffer;
  signature: Buffer;
}

/**
 * check_block_signatures: every signature from a distinct validator of `nodes`, valid for the block,
 * and together more than 2/3 of the total weight. Throws with the reason otherwise.
 */
export function checkBlockSignatures(nodes: readonly ValidatorDescr[], signatures: readonly BlockSignature[], block: { rootHash: Buffer; fileHash: Buffer }): void {
  if (nodes.length === 0) throw new Error('empty validator set');
  if (signatures.length === 0) throw new Error('empty signature set');
  const message = blockSignedBytes(block.rootHash, block.fileHash);
  let total = 0n;
  const byId = new Map<string, ValidatorDescr>();
  for (const n of nodes) {
    total += n.weight;
    byId.set(nodeIdShort(n.publicKey).toString('hex'), n);
  }
  let signed = 0n;
  const seen = new Set<string>();
  for (const s of signatures) {
    const id = s.nodeIdShort.toString('hex');
    const node = byId.get(id);
    if (!node) throw new Error(`signature from unknown validator ${id}`);
    if (seen.has(id)) throw new Error(`duplicate signature of validator ${id}`);
    seen.add(id);
    if (s.signature.length !== 64 || !ed25519.verify(s.signature, message, node.publicKey)) throw new Error(`bad signature of validator ${id}`);
    signed += node.weight;
  }
  if (3n * signed <= 2n * total) throw new Error(`insufficient signature weight: ${signed} of ${total}`);
}
