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
 * Reading needs nothing new: @ton/core's Cell.fromBoc already returns every
 * root, skips the index and cache bits and checks the CRC32-C.
 */
import { BitString, Cell, crc32c } from '@ton/core';

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

/** All roots of a bag of cells (any of the standard formats). */
export function deserializeBoc(data: Buffer): Cell[] {
  return Cell.fromBoc(data);
}
