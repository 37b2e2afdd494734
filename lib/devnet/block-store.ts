/**
 * The devnet's blocks on disk and their lookups.
 *
 * Two append-only files under the devnet directory:
 *   blocks.pack  the block BoCs, one after another;
 *   blocks.idx   one fixed-size record per block (id, lt range, gen_utime, key flag, position in
 *                blocks.pack), written after its BoC.
 * Blocks come in rounds: the basechain blocks of round k (one per shard, all of seqno k: the devnet's
 * shards advance in lockstep with the masterchain), then masterchain block k. A round becomes visible
 * only once its masterchain record is written, so a crash leaves at most a partial round at the end;
 * open() drops it (nobody has seen it) and cuts both files back to the last whole round.
 *
 * Record formats: 1 (devnets made before shards: no shard field, every block of shard
 * 8000000000000000) and 2 (the shard id after the workchain). chain.json says which a devnet has.
 *
 * In memory: the index (≈100 bytes per block) and an LRU of recent blocks (BoC, root cell and the
 * block's transactions sorted by account and lt for listBlockTransactions).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Cell } from '@ton/core';
import { SHARD_ALL, loadShardAccountBlocks, shardContains, shardHex } from '../ton';
import { BASECHAIN, MASTERCHAIN } from './state';

export interface BlockMeta {
  workchain: number;
  /** Shard id (unsigned, with its tag bit): 0x8000000000000000 for the masterchain and a whole workchain. */
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
  startLt: bigint;
  endLt: bigint;
  genUtime: number;
  keyBlock: boolean;
}

export interface BlockTx {
  account: bigint;
  lt: bigint;
  hash: Buffer;
  cell: Cell;
}

interface Location {
  offset: number;
  length: number;
}

/** Record layout of blocks.idx: 1 = without the shard (all 8000000000000000), 2 = with it. */
export type BlockStoreFormat = 1 | 2;

const recordSize = (format: BlockStoreFormat) => 4 + (format === 2 ? 8 : 0) + 4 + 32 + 32 + 8 + 8 + 4 + 4 + 8 + 4;

function encodeRecord(m: BlockMeta, loc: Location, format: BlockStoreFormat): Buffer {
  const b = Buffer.alloc(recordSize(format));
  let p = 0;
  b.writeInt32BE(m.workchain, p);
  p += 4;
  if (format === 2) {
    b.writeBigUInt64BE(m.shard, p);
    p += 8;
  } else if (m.shard !== SHARD_ALL) throw new Error('block store: a format 1 index holds whole-workchain blocks only');
  b.writeUInt32BE(m.seqno, p);
  m.rootHash.copy(b, (p += 4));
  m.fileHash.copy(b, (p += 32));
  b.writeBigUInt64BE(m.startLt, (p += 32));
  b.writeBigUInt64BE(m.endLt, (p += 8));
  b.writeUInt32BE(m.genUtime, (p += 8));
  b.writeUInt32BE(m.keyBlock ? 1 : 0, (p += 4));
  b.writeBigUInt64BE(BigInt(loc.offset), (p += 4));
  b.writeUInt32BE(loc.length, (p += 8));
  return b;
}

function decodeRecord(b: Buffer, at: number, format: BlockStoreFormat): { meta: BlockMeta; loc: Location } {
  let p = at;
  const workchain = b.readInt32BE(p);
  p += 4;
  let shard = SHARD_ALL;
  if (format === 2) {
    shard = b.readBigUInt64BE(p);
    p += 8;
  }
  const seqno = b.readUInt32BE(p);
  const rootHash = Buffer.from(b.subarray((p += 4), p + 32));
  const fileHash = Buffer.from(b.subarray((p += 32), p + 32));
  const startLt = b.readBigUInt64BE((p += 32));
  const endLt = b.readBigUInt64BE((p += 8));
  const genUtime = b.readUInt32BE((p += 8));
  const keyBlock = (b.readUInt32BE((p += 4)) & 1) === 1;
  const offset = Number(b.readBigUInt64BE((p += 4)));
  const length = b.readUInt32BE((p += 8));
  return { meta: { workchain, shard, seqno, rootHash, fileHash, startLt, endLt, genUtime, keyBlock }, loc: { offset, length } };
}

/** Cache and location key of a block. */
const blockKey = (m: { workchain: number; shard: bigint; seqno: number }) => `${m.workchain}:${shardHex(m.shard)}:${m.seqno}`;

interface Cached {
  boc: Buffer;
  root?: Cell;
  txs?: BlockTx[];
}

/** Transactions of a block, sorted by (account, lt): parsed from its ShardAccountBlocks. */
export function blockTransactions(root: Cell): BlockTx[] {
  const extra = root.refs[3];
  const accountBlocks = loadShardAccountBlocks(extra.refs[2].beginParse());
  const out: BlockTx[] = [];
  for (const [account, ab] of accountBlocks.entries) {
    for (const [lt, t] of ab.value.transactions.entries) out.push({ account, lt, hash: t.value.hash(), cell: t.value });
  }
  return sortTxs(out);
}

export function sortTxs(txs: BlockTx[]): BlockTx[] {
  return txs.sort((a, b) => (a.account !== b.account ? (a.account < b.account ? -1 : 1) : a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
}

export class BlockStore {
  readonly #dir: string;
  readonly #packFd: number;
  readonly #idxFd: number;
  readonly #format: BlockStoreFormat;
  #packSize: number;
  #records = 0;
  /** Masterchain block k at index k - 1. */
  readonly #mc: BlockMeta[] = [];
  /** The basechain blocks of round k (one per shard, shards in ascending order) at index k - 1. */
  readonly #rounds: BlockMeta[][] = [];
  readonly #locs = new Map<string, Location>();
  readonly #cache = new Map<string, Cached>();
  readonly #cacheSize: number;
  #closed = false;

  private constructor(dir: string, packFd: number, idxFd: number, packSize: number, cacheSize: number, format: BlockStoreFormat) {
    this.#dir = dir;
    this.#packFd = packFd;
    this.#idxFd = idxFd;
    this.#packSize = packSize;
    this.#cacheSize = cacheSize;
    this.#format = format;
  }

  /** Opens (creating when absent) the block files of `dir`. `reset` empties them first. */
  static open(dir: string, opts: { reset?: boolean; cacheSize?: number; format?: BlockStoreFormat } = {}): BlockStore {
    fs.mkdirSync(dir, { recursive: true });
    const packPath = path.join(dir, 'blocks.pack');
    const idxPath = path.join(dir, 'blocks.idx');
    const flags = opts.reset ? 'w+' : fs.existsSync(packPath) && fs.existsSync(idxPath) ? 'r+' : 'w+';
    const packFd = fs.openSync(packPath, flags);
    const idxFd = fs.openSync(idxPath, flags);
    const packSize = fs.fstatSync(packFd).size;
    const store = new BlockStore(dir, packFd, idxFd, packSize, opts.cacheSize ?? 256, opts.format ?? 2);
    store.#load();
    return store;
  }

  #load(): void {
    const idx = fs.readFileSync(path.join(this.#dir, 'blocks.idx'));
    const size = recordSize(this.#format);
    const records = Math.floor(idx.length / size);
    let good = 0;
    let packEnd = 0;
    let round: { meta: BlockMeta; loc: Location }[] = [];
    // Whole rounds only: basechain blocks of seqno k, then masterchain block k, for k = 1, 2, ...
    for (let r = 0; r < records; r++) {
      const rec = decodeRecord(idx, r * size, this.#format);
      const k = this.#mc.length + 1;
      if (rec.meta.seqno !== k || rec.loc.offset + rec.loc.length > this.#packSize) break;
      if (rec.meta.workchain === BASECHAIN) {
        round.push(rec);
        continue;
      }
      if (rec.meta.workchain !== MASTERCHAIN || round.length === 0) break;
      this.#commit([...round, rec]);
      for (const x of [...round, rec]) packEnd = Math.max(packEnd, x.loc.offset + x.loc.length);
      good = r + 1;
      round = [];
    }
    this.#records = good;
    if (good * size !== idx.length) fs.ftruncateSync(this.#idxFd, good * size);
    if (packEnd !== this.#packSize) {
      fs.ftruncateSync(this.#packFd, packEnd);
      this.#packSize = packEnd;
    }
  }

  #commit(blocks: { meta: BlockMeta; loc: Location }[]): void {
    const shards = blocks.filter((b) => b.meta.workchain === BASECHAIN).map((b) => b.meta).sort((a, b) => (a.shard < b.shard ? -1 : 1));
    this.#rounds.push(shards);
    this.#mc.push(blocks[blocks.length - 1].meta);
    for (const b of blocks) this.#locs.set(blockKey(b.meta), b.loc);
  }

  /** Number of whole rounds stored (= the last masterchain seqno). */
  get rounds(): number {
    return this.#mc.length;
  }

  get format(): BlockStoreFormat {
    return this.#format;
  }

  /** Persists one round (its basechain blocks, then its masterchain block); they become visible only after this returns. */
  appendRound(blocks: { meta: BlockMeta; boc: Buffer; root?: Cell; txs?: BlockTx[] }[]): void {
    if (this.#closed) throw new Error('block store is closed');
    const k = this.#mc.length + 1;
    const last = blocks[blocks.length - 1]?.meta;
    if (!last || last.workchain !== MASTERCHAIN || blocks.slice(0, -1).some((b) => b.meta.workchain !== BASECHAIN) || blocks.length < 2) {
      throw new Error('block store: a round is its basechain blocks, then its masterchain block');
    }
    const written: { meta: BlockMeta; loc: Location }[] = [];
    const records: Buffer[] = [];
    for (const b of blocks) {
      if (b.meta.seqno !== k) throw new Error(`block store: expected seqno ${k}, got ${b.meta.seqno}`);
      fs.writeSync(this.#packFd, b.boc, 0, b.boc.length, this.#packSize);
      const loc = { offset: this.#packSize, length: b.boc.length };
      this.#packSize += b.boc.length;
      written.push({ meta: b.meta, loc });
      records.push(encodeRecord(b.meta, loc, this.#format));
    }
    const rec = Buffer.concat(records);
    fs.writeSync(this.#idxFd, rec, 0, rec.length, this.#records * recordSize(this.#format));
    this.#records += blocks.length;
    this.#commit(written);
    for (const b of blocks) this.#remember(blockKey(b.meta), { boc: b.boc, root: b.root, txs: b.txs });
  }

  /** The block with this exact id (shard defaults to the whole workchain: a one-shard devnet's basechain). */
  get(workchain: number, seqno: number, shard: bigint = SHARD_ALL): BlockMeta | undefined {
    if (workchain === MASTERCHAIN) return shard === SHARD_ALL ? this.#mc[seqno - 1] : undefined;
    return workchain === BASECHAIN ? this.#rounds[seqno - 1]?.find((m) => m.shard === shard) : undefined;
  }

  /** The basechain block of round `seqno` whose shard holds an account prefix (or a shard id used as one). */
  containing(workchain: number, seqno: number, prefix: bigint): BlockMeta | undefined {
    if (workchain === MASTERCHAIN) return this.#mc[seqno - 1];
    return workchain === BASECHAIN ? this.#rounds[seqno - 1]?.find((m) => shardContains(m.shard, prefix)) : undefined;
  }

  /** The basechain blocks of round `seqno`, shards in ascending order. */
  round(seqno: number): readonly BlockMeta[] {
    return this.#rounds[seqno - 1] ?? [];
  }

  /** The masterchain blocks in seqno order (read-only view). */
  masterchain(): readonly BlockMeta[] {
    return this.#mc;
  }

  /** The node's lookup by lt: the first block whose end_lt is at least `lt`, among the blocks holding `prefix`. */
  byLt(workchain: number, lt: bigint, prefix: bigint = SHARD_ALL): BlockMeta | undefined {
    return this.#first(workchain, prefix, (m) => m.endLt >= lt);
  }

  /** The node's lookup by time: the first block generated at or after `utime`, among the blocks holding `prefix`. */
  byUtime(workchain: number, utime: number, prefix: bigint = SHARD_ALL): BlockMeta | undefined {
    return this.#first(workchain, prefix, (m) => m.genUtime >= utime);
  }

  #first(workchain: number, prefix: bigint, pred: (m: BlockMeta) => boolean): BlockMeta | undefined {
    const at = (k: number) => this.containing(workchain, k + 1, prefix);
    if (workchain !== MASTERCHAIN && workchain !== BASECHAIN) return undefined;
    // Every round has a block holding any prefix, and a prefix's blocks grow in lt and time round after round.
    let lo = 0;
    let hi = this.#mc.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pred(at(mid)!)) hi = mid;
      else lo = mid + 1;
    }
    return lo < this.#mc.length ? at(lo) : undefined;
  }

  #remember(key: string, c: Cached): Cached {
    this.#cache.delete(key);
    this.#cache.set(key, c);
    while (this.#cache.size > this.#cacheSize) {
      const oldest = this.#cache.keys().next().value as string;
      this.#cache.delete(oldest);
    }
    return c;
  }

  #entry(meta: BlockMeta): Cached {
    const key = blockKey(meta);
    const hit = this.#cache.get(key);
    if (hit) return this.#remember(key, hit);
    const loc = this.#locs.get(key);
    if (!loc) throw new Error(`block ${key} is not stored`);
    const boc = Buffer.alloc(loc.length);
    fs.readSync(this.#packFd, boc, 0, loc.length, loc.offset);
    return this.#remember(key, { boc });
  }

  boc(meta: BlockMeta): Buffer {
    return this.#entry(meta).boc;
  }

  root(meta: BlockMeta): Cell {
    const e = this.#entry(meta);
    e.root ??= Cell.fromBoc(e.boc)[0];
    return e.root;
  }

  transactions(meta: BlockMeta): BlockTx[] {
    const e = this.#entry(meta);
    if (!e.txs) {
      e.root ??= Cell.fromBoc(e.boc)[0];
      e.txs = blockTransactions(e.root);
    }
    return e.txs;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    fs.closeSync(this.#packFd);
    fs.closeSync(this.#idxFd);
  }
}
