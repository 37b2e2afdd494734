/**
 * Bag-of-cells serialization with any number of roots (@ton/core writes one).
 * Cells are deduplicated by hash in a depth-first import and ordered with the
 * previsit/visit/allocate pass of the node's vm::BagOfCells
 * (crypto/vm/boc.cpp): roots first, every cell before the cells it
 * references, subtrees under special (exotic) cells placed in a pass of their
 * own; index entries, cache bits, size fields and CRC32-C follow the same
 * format.
 *
 * The mainnet fixture files hold the same cells (same count, sizes and hash)
 * in a different order, so their bytes are not reproduced: whatever wrote
 * them did not use this ordering, and readers do not depend on it.
 *
 * Reading returns the same cells as @ton/core's Cell.fromBoc (every root, index
 * and cache bits skipped, CRC32-C checked) with byte reads instead of its
 * bit-at-a-time reader: the indexer reads a block BoC of thousands of cells per
 * block, and that reader was a third of the time of loading one.
 */
import { BitString, Cell } from '@ton/core';

export interface BocWriteOptions {
  /** Write the cell offset index (mode bit 1). */
  idx?: boolean;
  /** Append a CRC32-C of the whole file (mode bit 2). Default true, like @ton/core. */
  crc32?: boolean;
  /** Mark cells referenced more than once in the index (mode bit 16); needs `idx`. */
  cacheBits?: boolean;
}

interface CellEntry {
  cell: Cell;
  refs: number[];
  special: boolean;
  shouldCache: boolean;
  /** -1 fresh, -2 previsited, -3 visited, >= 0 final position (allocation order). */
  newIdx: number;
}

function bytesFor(n: number): number {
  let k = 0;
  while (n >= 2 ** (8 * k)) k++;
  return k;
}

function paddedData(bits: BitString): Buffer {
  const len = bits.length;
  const full = len >> 3;
  const rem = len & 7;
  const out = Buffer.alloc(full + (rem ? 1 : 0));
  if (full > 0) bits.subbuffer(0, full * 8)!.copy(out, 0);
  if (rem) {
    let byte = 0;
    for (let i = 0; i < rem; i++) if (bits.at(full * 8 + i)) byte |= 0x80 >> i;
    byte |= 0x80 >> rem;
    out[full] = byte;
  }
  return out;
}

function orderCells(roots: Cell[]): { list: CellEntry[]; order: number[]; rootIdx: number[] } {
  const list: CellEntry[] = [];
  const byHash = new Map<string, number>();
  const importCell = (cell: Cell): number => {
    const key = cell.hash().toString('latin1');
    const found = byHash.get(key);
    if (found !== undefined) {
      list[found].shouldCache = true;
      return found;
    }
    const refs = cell.refs.map(importCell);
    const idx = list.length;
    list.push({ cell, refs, special: cell.isExotic, shouldCache: false, newIdx: -1 });
    byHash.set(key, idx);
    return idx;
  };
  const imported = roots.map(importCell);

  const order: number[] = [];
  const revisit = (i: number, force: 0 | 1 | 2): number => {
    const e = list[i];
    if (e.newIdx >= 0) return e.newIdx;
    if (force === 0) {
      if (e.newIdx !== -1) return e.newIdx;
      for (let j = e.refs.length - 1; j >= 0; j--) revisit(e.refs[j], list[e.refs[j]].special ? 1 : 0);
      return (e.newIdx = -2);
    }
    if (force === 2) {
      e.newIdx = order.length;
      order.push(i);
      return e.newIdx;
    }
    if (e.newIdx === -3) return -3;
    if (e.special) revisit(i, 0);
    for (let j = e.refs.length - 1; j >= 0; j--) revisit(e.refs[j], 1);
    // From here on refs hold final positions; a visited cell is never walked again.
    for (let j = e.refs.length - 1; j >= 0; j--) e.refs[j] = revisit(e.refs[j], 2);
    return (e.newIdx = -3);
  };
  for (const r of imported) {
    revisit(r, 0);
    revisit(r, 1);
  }
  for (const r of imported) revisit(r, 2);
  return { list, order, rootIdx: imported.map((r) => list[r].newIdx) };
}

/** Serializes `roots` (in order) into one bag of cells. */
export function serializeBoc(roots: Cell | Cell[], opts: BocWriteOptions = {}): Buffer {
  const rootList = Array.isArray(roots) ? roots : [roots];
  if (rootList.length === 0) throw new Error('BoC: no roots');
  const idx = opts.idx ?? false;
  const crc = opts.crc32 ?? true;
  const cacheBits = opts.cacheBits ?? false;
  if (cacheBits && !idx) throw new Error('BoC: cache bits need an index');

  const { list, order, rootIdx } = orderCells(rootList);
  const count = order.length;
  const rs = Math.max(1, bytesFor(count));
  // Cells in file order: the last allocated (the roots) come first.
  const cells = order.map((_, k) => list[order[count - 1 - k]]);
  const datas = cells.map((e) => paddedData(e.cell.bits));
  let dataSize = 0;
  for (let k = 0; k < count; k++) dataSize += 2 + datas[k].length + cells[k].refs.length * rs;
  const os = Math.max(1, bytesFor(cacheBits ? dataSize * 2 : dataSize));

  const total = 4 + 1 + 1 + 3 * rs + os + rootList.length * rs + (idx ? count * os : 0) + dataSize + (crc ? 4 : 0);
  const out = Buffer.alloc(total);
  let p = 0;
  const put = (value: number, bytes: number) => {
    for (let i = bytes - 1; i >= 0; i--) {
      out[p + i] = value % 256;
      value = Math.floor(value / 256);
    }
    p += bytes;
  };
  put(0xb5ee9c72, 4);
  put((idx ? 0x80 : 0) | (crc ? 0x40 : 0) | (cacheBits ? 0x20 : 0) | rs, 1);
  put(os, 1);
  put(count, rs);
  put(rootList.length, rs);
  put(0, rs);
  put(dataSize, os);
  for (const r of rootIdx) put(count - 1 - r, rs);
  if (idx) {
    let offs = 0;
    for (let k = 0; k < count; k++) {
      offs += 2 + datas[k].length + cells[k].refs.length * rs;
      put(cacheBits ? offs * 2 + (cells[k].shouldCache ? 1 : 0) : offs, os);
    }
  }
  for (let k = 0; k < count; k++) {
    const e = cells[k];
    const bits = e.cell.bits.length;
    put(e.refs.length + (e.special ? 8 : 0) + e.cell.mask.value * 32, 1);
    put((bits >> 3) + ((bits + 7) >> 3), 1);
    datas[k].copy(out, p);
    p += datas[k].length;
    for (const r of e.refs) put(count - 1 - r, rs);
  }
  if (crc) {
    crc32c(out.subarray(0, p)).copy(out, p);
    p += 4;
  }
  if (p !== total) throw new Error('BoC: size mismatch');
  return out;
}

const BOC_GENERIC = 0xb5ee9c72;

/** The one root of a base64 BoC (an error for none or several, as @ton/core's Cell.fromBase64), read by deserializeBoc. */
export function cellFromBase64(base64: string): Cell {
  const roots = deserializeBoc(Buffer.from(base64, 'base64'));
  if (roots.length !== 1) throw new Error(`expected one root cell, found ${roots.length}`);
  return roots[0]!;
}

/** The cells of a generic BoC as read, before any Cell is built: each cell's bits, whether exotic, its refs by index. */
export interface BocCells {
  bits: BitString[];
  exotic: boolean[];
  refs: number[][];
  roots: number[];
}

/** Reads a generic BoC's cells (refs checked to point forward, roots in range); null for another BoC format. */
export function readBocCells(boc: Buffer): BocCells | null {
  if (boc.length < 6 || boc.readUInt32BE(0) !== BOC_GENERIC) return null;
  const data = Buffer.from(boc); // the cells' bits point into it: a copy of our own, never the caller's
  const flags = data[4]!;
  const hasIdx = (flags & 0x80) !== 0;
  const hasCrc32c = (flags & 0x40) !== 0;
  const size = flags & 7; // bytes per cell reference
  const offBytes = data[5]!;
  let p = 6;
  const uint = (n: number) => {
    if (p + n > data.length) throw new Error('BoC: truncated');
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + data[p++]!;
    return v;
  };
  const cellCount = uint(size);
  const rootCount = uint(size);
  uint(size); // absent: always 0
  const totalCellSize = uint(offBytes);
  const roots = Array.from({ length: rootCount }, () => uint(size));
  if (hasIdx) p += cellCount * offBytes;
  const end = p + totalCellSize;
  if (end + (hasCrc32c ? 4 : 0) > data.length) throw new Error('BoC: truncated');
  if (hasCrc32c && !crc32c(data.subarray(0, data.length - 4)).equals(data.subarray(data.length - 4))) throw new Error('Invalid CRC32C');

  const bits: BitString[] = new Array<BitString>(cellCount);
  const exotic: boolean[] = new Array<boolean>(cellCount);
  const refs: number[][] = new Array<number[]>(cellCount);
  for (let i = 0; i < cellCount; i++) {
    const d1 = uint(1);
    const d2 = uint(1);
    const levelMask = d1 >> 5;
    if (d1 & 16) {
      // stored hashes and depths: one of each per level present, plus the representation's
      const n = ((levelMask & 1) + ((levelMask >> 1) & 1) + ((levelMask >> 2) & 1)) + 1;
      p += n * 34;
    }
    const bytes = Math.ceil(d2 / 2);
    if (p + bytes > end) throw new Error('BoC: truncated');
    let length = bytes * 8;
    if (d2 % 2 && bytes > 0) {
      // the last byte ends with the completion tag: a 1 bit, then zeros
      const last = data[p + bytes - 1]!;
      if (last === 0) throw new Error('BoC: no completion tag');
      length -= Math.log2(last & -last) + 1;
    }
    bits[i] = length === 0 ? BitString.EMPTY : new BitString(data, p * 8, length);
    p += bytes;
    exotic[i] = (d1 & 8) !== 0;
    const r: number[] = [];
    for (let k = d1 & 7; k > 0; k--) {
      const ref = uint(size);
      if (ref <= i || ref >= cellCount) throw new Error('Invalid BOC file'); // refs point forward, inside the bag
      r.push(ref);
    }
    refs[i] = r;
  }
  if (p !== end) throw new Error('BoC: cell data size mismatch');
  for (const r of roots) if (r >= cellCount) throw new Error('Invalid BOC file');
  return { bits, exotic, refs, roots };
}

/** All roots of a bag of cells (the generic format; the two older ones through @ton/core). */
export function deserializeBoc(boc: Buffer): Cell[] {
  const read = readBocCells(boc);
  if (!read) return Cell.fromBoc(boc);
  const { bits, exotic, refs, roots } = read;
  // References point forward: build from the last cell back.
  const cells = new Array<Cell>(bits.length);
  for (let i = bits.length - 1; i >= 0; i--) {
    cells[i] = new Cell({ bits: bits[i]!, refs: refs[i]!.map((r) => cells[r]!), exotic: exotic[i]! });
  }
  return roots.map((r) => cells[r]!);
}

export function bocRootData(boc: Buffer): Cell {
  if (boc.length < 6 || boc.readUInt32BE(0) !== BOC_GENERIC) return new Cell({ bits: deserializeBoc(boc)[0]!.bits });
  const flags = boc[4]!;
  const size = flags & 7;
  const offBytes = boc[5]!;
  let p = 6;
  const uint = (n: number) => {
    if (p + n > boc.length) throw new Error('BoC: truncated');
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + boc[p++]!;
    return v;
  };
  const cellCount = uint(size);
  const rootCount = uint(size);
  if (rootCount < 1) throw new Error('BoC: no root');
  uint(size);
  uint(offBytes);
  const root = uint(size);
  if (root >= cellCount) throw new Error('Invalid BOC file');
  p += (rootCount - 1) * size;
  if (flags & 0x80) p += cellCount * offBytes;
  for (let i = 0; ; i++) {
    const d1 = uint(1);
    const d2 = uint(1);
    if (d1 & 16) p += ((((d1 >> 5) & 1) + ((d1 >> 6) & 1) + ((d1 >> 7) & 1)) + 1) * 34;
    const bytes = Math.ceil(d2 / 2);
    if (p + bytes > boc.length) throw new Error('BoC: truncated');
    if (i === root) {
      if ((d1 & 8) !== 0) throw new Error('BoC: exotic root');
      let length = bytes * 8;
      if (d2 % 2 && bytes > 0) {
        const last = boc[p + bytes - 1]!;
        if (last === 0) throw new Error('BoC: no completion tag');
        length -= Math.log2(last & -last) + 1;
      }
      return new Cell({ bits: length === 0 ? BitString.EMPTY : new BitString(Buffer.from(boc.subarray(p, p + bytes)), 0, length) });
    }
    p += bytes + (d1 & 7) * size;
  }
}

const CRC32C_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** CRC32-C (Castagnoli), little-endian as BoCs store it; a table per byte, not a loop per bit. */
export function crc32c(src: Buffer): Buffer {
  let crc = -1;
  for (let i = 0; i < src.length; i++) crc = CRC32C_TABLE[(crc ^ src[i]!) & 0xff]! ^ (crc >>> 8);
  const out = Buffer.alloc(4);
  out.writeInt32LE(crc ^ -1);
  return out;
}
