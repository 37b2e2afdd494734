/**
 * @ton/core's Cell.toBoc, byte for byte, without its costs: it orders the cells by hex-string hashes,
 * writes every field through a BitBuilder a bit-field at a time and checks the result with a CRC32-C
 * computed a bit at a time. The indexer serializes every transaction and every message body and init
 * state it stores this way (transaction_bocs, message_contents): about a third of its parse worker's
 * time. This is the same function — the same cell order (lib/ton/boc.ts serializeBoc orders cells
 * like the node does, which gives other bytes), the same header, the same CRC — writing bytes into one
 * buffer. A test compares the bytes with @ton/core's on mainnet blocks. Installed like the other fast
 * paths (lib/ton/fast-core.ts): Cell.toBoc reads serializeBoc through its module's exports object at
 * every call, so replacing the export is enough; when that module is not reachable, nothing is patched.
 *
 * Installing it also points @ton/core's own crc32c (which Cell.fromBoc checks every BoC with) at the
 * table-driven one of lib/ton/boc.ts.
 */
import { createRequire } from 'node:module';
import { CellType, type Cell } from '@ton/core';
import { crc32c } from './boc';
import { writePaddedBits } from './fast-padded-bits';

let installed: boolean | undefined;

/** Bytes of the big-endian unsigned field that holds n (at least one): @ton/core's ceil(bitsForNumber(n, 'uint') / 8). */
const fieldBytes = (n: number) => Math.max(1, Math.ceil(n.toString(2).length / 8));

/**
 * @ton/core's topologicalSort: every distinct cell (by hash) once, each before the cells it references,
 * in the reverse post-order of a depth-first walk from the root that takes each cell's refs last first.
 */
function cellOrder(root: Cell): { cells: Cell[]; refs: number[][] } {
  const post: Cell[] = [];
  // Post-order position by hash (-1: on the walk's path); by object too, which spares most hash keys.
  const byHash = new Map<string, number>();
  const byCell = new Map<Cell, number>();
  const visit = (cell: Cell) => {
    const key = cell.hash().toString('latin1');
    if (byHash.has(key)) return void byCell.set(cell, byHash.get(key)!);
    byHash.set(key, -1);
    const refs = cell.refs;
    for (let i = refs.length - 1; i >= 0; i--) if (!byCell.has(refs[i]!)) visit(refs[i]!);
    byHash.set(key, post.length);
    byCell.set(cell, post.length);
    post.push(cell);
  };
  visit(root);
  const last = post.length - 1;
  const cells = post.reverse();
  return { cells, refs: cells.map((c) => c.refs.map((r) => last - byCell.get(r)!)) };
}

/** @ton/core's serializeBoc(root, { idx, crc32 }): the same bytes. */
export function tonCoreBoc(root: Cell, opts: { idx: boolean; crc32: boolean }): Buffer {
  const { cells, refs } = cellOrder(root);
  const count = cells.length;
  const sizeBytes = fieldBytes(count);
  let totalCellSize = 0;
  const ends: number[] = [];
  for (const c of cells) {
    totalCellSize += 2 + ((c.bits.length + 7) >> 3) + c.refs.length * sizeBytes;
    ends.push(totalCellSize);
  }
  const offsetBytes = fieldBytes(totalCellSize);
  const total = 4 + 1 + 1 + 3 * sizeBytes + offsetBytes + sizeBytes + (opts.idx ? count * offsetBytes : 0) + totalCellSize + (opts.crc32 ? 4 : 0);
  const out = Buffer.alloc(total);
  let p = 0;
  const put = (value: number, bytes: number) => {
    for (let i = bytes - 1; i >= 0; i--) {
      out[p + i] = value & 0xff;
      value = Math.floor(value / 256);
    }
    p += bytes;
  };
  put(0xb5ee9c72, 4);
  put((opts.idx ? 0x80 : 0) | (opts.crc32 ? 0x40 : 0) | sizeBytes, 1); // no cache bits, flags 0
  put(offsetBytes, 1);
  put(count, sizeBytes);
  put(1, sizeBytes); // roots
  put(0, sizeBytes); // absent
  put(totalCellSize, offsetBytes);
  put(0, sizeBytes); // the root is the first cell
  if (opts.idx) for (const end of ends) put(end, offsetBytes);
  for (let k = 0; k < count; k++) {
    const c = cells[k]!;
    const bits = c.bits.length;
    put(c.refs.length + (c.type !== CellType.Ordinary ? 8 : 0) + c.mask.value * 32, 1);
    put((bits >> 3) + ((bits + 7) >> 3), 1);
    writePaddedBits(c.bits, out, p);
    p += (bits + 7) >> 3;
    for (const r of refs[k]!) put(r, sizeBytes);
  }
  if (opts.crc32) {
    crc32c(out.subarray(0, p)).copy(out, p);
    p += 4;
  }
  if (p !== total) throw new Error('BoC: size mismatch');
  return out;
}

/** Installs tonCoreBoc and the table CRC32-C in @ton/core once; returns whether they are in effect. */
export function installFastBocWriter(): boolean {
  if (installed !== undefined) return installed;
  installed = false;
  try {
    const require = createRequire(import.meta.url);
    const serialization = require('@ton/core/dist/boc/cell/serialization') as { serializeBoc?: unknown };
    const crc = require('@ton/core/dist/utils/crc32c') as { crc32c?: unknown };
    if (typeof serialization.serializeBoc === 'function' && typeof crc.crc32c === 'function') {
      serialization.serializeBoc = tonCoreBoc;
      crc.crc32c = crc32c;
      installed = true;
    }
  } catch {
    // not reachable: @ton/core's own serializer stays
  }
  return installed;
}
