/**
 * The devnet's blocks on disk and their lookups.
 *
 * Two append-only files under the devnet directory:
 *   blocks.pack  the block BoCs, one after another;
 *   blocks.idx   one fixed-size record per block (id, lt range, gen_utime, key flag, position in
 *                blocks.pack), written after its BoC.
 * Blocks come in rounds (basechain block k, then masterchain block k) and a round becomes visible
 * only once both records are written, so a crash leaves at most a partial round at the end; open()
 * drops it (nobody has seen it) and cuts both files back to the last whole round.
 *
 * In memory: the index (≈100 bytes per block) and an LRU of recent blocks (BoC, root cell and the
 * block's transactions sorted by account and lt for listBlockTransactions).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Cell } from '@ton/core';
import { loadShardAccountBlocks } from '../ton';
import { BASECHAIN, MASTERCHAIN } from './state';

export interface BlockMeta {
  workchain: number;
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

const RECORD_SIZE = 4 + 4 + 32 + 32 + 8 + 8 + 4 + 4 + 8 + 4;

function encodeRecord(m: BlockMeta, loc: Location): Buffer {
  const b = Buffer.alloc(RECORD_SIZE);
  let p = 0;
  b.writeInt32BE(m.workchain, p);
  b.writeUInt32BE(m.seqno, (p += 4));
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

function decodeRecord(b: Buffer, at: number): { meta: BlockMeta; loc: Location } {
  let p = at;
  const workchain = b.readInt32BE(p);
  const seqno = b.readUInt32BE((p += 4));
  const rootHash = Buffer.from(b.subarray((p += 4), p + 32));
  const fileHash = Buffer.from(b.subarray((p += 32), p + 32));
  const startLt = b.readBigUInt64BE((p += 32));
  const endLt = b.readBigUInt64BE((p += 8));
  const genUtime = b.readUInt32BE((p += 8));
  const keyBlock = (b.readUInt32BE((p += 4)) & 1) === 1;
  const offset = Number(b.readBigUInt64BE((p += 4)));
  const length = b.readUInt32BE((p += 8));
  return { meta: { workchain, seqno, rootHash, fileHash, startLt, endLt, genUtime, keyBlock }, loc: { offset, length } };
}

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
  #packSize: number;
  /** Per workchain, index i holds seqno i + 1. */
  readonly #metas = new Map<number, BlockMeta[]>([
    [MASTERCHAIN, []],
    [BASECHAIN, []],
  ]);
  readonly #locs = new Map<number, Location[]>([
    [MASTERCHAIN, []],
    [BASECHAIN, []],
  ]);
  readonly #cache = new Map<string, Cached>();
  readonly #cacheSize: number;
  #closed = false;

  private constructor(dir: string, packFd: number, idxFd: number, packSize: number, cacheSize: number) {
    this.#dir = dir;
    this.#packFd = packFd;
    this.#idxFd = idxFd;
    this.#packSize = packSize;
    this.#cacheSize = cacheSize;
  }

  /** Opens (creating when absent) the block files of `dir`. `reset` empties them first. */
  static open(dir: string, opts: { reset?: boolean; cacheSize?: number } = {}): BlockStore {
    fs.mkdirSync(dir, { recursive: true });
    const packPath = path.join(dir, 'blocks.pack');
    const idxPath = path.join(dir, 'blocks.idx');
    const flags = opts.reset ? 'w+' : fs.existsSync(packPath) && fs.existsSync(idxPath) ? 'r+' : 'w+';
    const packFd = fs.openSync(packPath, flags);
    const idxFd = fs.openSync(idxPath, flags);
    const packSize = fs.fstatSync(packFd).size;
    const store = new BlockStore(dir, packFd, idxFd, packSize, opts.cacheSize ?? 256);
    store.#load();
    return store;
  }

  #load(): void {
    const idx = fs.readFileSync(path.join(this.#dir, 'blocks.idx'));
    const records = Math.floor(idx.length / RECORD_SIZE);
    let good = 0;
    let packEnd = 0;
    // Whole rounds only: (basechain k, masterchain k) for k = 1, 2, ...
    for (let r = 0; r + 1 < records; r += 2) {
      const a = decodeRecord(idx, r * RECORD_SIZE);
      const b = decodeRecord(idx, (r + 1) * RECORD_SIZE);
      const k = r / 2 + 1;
      const ok =
        a.meta.workchain === BASECHAIN &&
        b.meta.workchain === MASTERCHAIN &&
        a.meta.seqno === k &&
        b.meta.seqno === k &&
        a.loc.offset + a.loc.length <= this.#packSize &&
        b.loc.offset + b.loc.length <= this.#packSize;
      if (!ok) break;
      this.#metas.get(BASECHAIN)!.push(a.meta);
      this.#locs.get(BASECHAIN)!.push(a.loc);
      this.#metas.get(MASTERCHAIN)!.push(b.meta);
      this.#locs.get(MASTERCHAIN)!.push(b.loc);
      packEnd = Math.max(packEnd, a.loc.offset + a.loc.length, b.loc.offset + b.loc.length);
      good = r + 2;
    }
    if (good * RECORD_SIZE !== idx.length) fs.ftruncateSync(this.#idxFd, good * RECORD_SIZE);
    if (packEnd !== this.#packSize) {
      fs.ftruncateSync(this.#packFd, packEnd);
      this.#packSize = packEnd;
    }
  }

  /** Number of whole rounds stored (= the last masterchain seqno). */
  get rounds(): number {
    return this.#metas.get(MASTERCHAIN)!.length;
  }

  /** Persists one round; both blocks become visible only after this returns. */
  appendRound(blocks: { meta: BlockMeta; boc: Buffer; root?: Cell; txs?: BlockTx[] }[]): void {
    if (this.#closed) throw new Error('block store is closed');
    const records: Buffer[] = [];
    const locs: Location[] = [];
    for (const b of blocks) {
      const list = this.#metas.get(b.meta.workchain);
      if (!list) throw new Error(`block store: unknown workchain ${b.meta.workchain}`);
      if (b.meta.seqno !== list.length + 1) throw new Error(`block store: expected seqno ${list.length + 1}, got ${b.meta.seqno}`);
      fs.writeSync(this.#packFd, b.boc, 0, b.boc.length, this.#packSize);
      const loc = { offset: this.#packSize, length: b.boc.length };
      this.#packSize += b.boc.length;
      locs.push(loc);
      records.push(encodeRecord(b.meta, loc));
    }
    const rec = Buffer.concat(records);
    fs.writeSync(this.#idxFd, rec, 0, rec.length, (this.#metas.get(BASECHAIN)!.length + this.#metas.get(MASTERCHAIN)!.length) * RECORD_SIZE);
    blocks.forEach((b, i) => {
      this.#metas.get(b.meta.workchain)!.push(b.meta);
      this.#locs.get(b.meta.workchain)!.push(locs[i]);
      this.#remember(`${b.meta.workchain}:${b.meta.seqno}`, { boc: b.boc, root: b.root, txs: b.txs });
    });
  }

  get(workchain: number, seqno: number): BlockMeta | undefined {
    return this.#metas.get(workchain)?.[seqno - 1];
  }

  last(workchain: number): BlockMeta | undefined {
    const list = this.#metas.get(workchain);
    return list && list.length > 0 ? list[list.length - 1] : undefined;
  }

  /** All blocks of a workchain in seqno order (read-only view). */
  list(workchain: number): readonly BlockMeta[] {
    return this.#metas.get(workchain) ?? [];
  }

  /** The node's lookup by lt: the first block whose end_lt is at least `lt`. */
  byLt(workchain: number, lt: bigint): BlockMeta | undefined {
    return this.#first(workchain, (m) => m.endLt >= lt);
  }

  /** The node's lookup by time: the first block generated at or after `utime`. */
  byUtime(workchain: number, utime: number): BlockMeta | undefined {
    return this.#first(workchain, (m) => m.genUtime >= utime);
  }

  #first(workchain: number, pred: (m: BlockMeta) => boolean): BlockMeta | undefined {
    const list = this.#metas.get(workchain) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pred(list[mid])) hi = mid;
      else lo = mid + 1;
    }
    return list[lo];
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
    const key = `${meta.workchain}:${meta.seqno}`;
    const hit = this.#cache.get(key);
    if (hit) return this.#remember(key, hit);
    const loc = this.#locs.get(meta.workchain)?.[meta.seqno - 1];
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
