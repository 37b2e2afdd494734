/**
 * A bag of cells read without hashing it: each cell's hashes, depths and level (and, for an exotic
 * cell, the checks of its kind) are worked out the first time something asks for them, from its refs'
 * up. The indexer reads a block this way: a block's hash is not needed once its bytes are known to be
 * the block's (their SHA-256 is the file hash the block id names), and most of a block's cells — the
 * state update's Merkle trees, the message descriptors, the value flow — are never read, while
 * hashing every cell as it was built was two fifths of parsing one. Cells read later (a transaction and
 * everything under it, to hash and serialize it) get exactly what @ton/core's eager Cell would have
 * computed: the same wonderCalculator and resolveExotic run, only later.
 *
 * The cells are @ton/core Cells (instanceof Cell; toBoc, asSlice, toString, isExotic from its
 * prototype); hash, depth, level, equals and beginParse are methods of this prototype, not per-cell
 * closures, so they must be called on the cell (`cell.hash()`, never a detached `cell.hash`).
 */
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import { BitReader, Cell, CellType, Slice, type BitString } from '@ton/core';
import { readBocCells } from './boc';

interface Wonders {
  mask: { level: number; value: number };
  hashes: Buffer[];
  depths: number[];
}
type WonderCalculator = (type: CellType, bits: BitString, refs: Cell[]) => Wonders;

// Read through the modules' exports at each call, as @ton/core's Cell does: fast-hash.ts may have
// replaced wonderCalculator with its native-hash version.
const require = createRequire(import.meta.url);
const wonderModule = require('@ton/core/dist/boc/cell/wonderCalculator') as { wonderCalculator: WonderCalculator };
const exoticModule = require('@ton/core/dist/boc/cell/resolveExotic') as { resolveExotic: (bits: BitString, refs: Cell[]) => { type: CellType } };

const EXOTIC_TYPES = new Set<number>([CellType.PrunedBranch, CellType.Library, CellType.MerkleProof, CellType.MerkleUpdate]);

class LazyCell {
  declare readonly type: CellType;
  declare readonly bits: BitString;
  declare readonly refs: readonly Cell[];
  private w: Wonders | undefined;

  constructor(type: CellType, bits: BitString, refs: Cell[]) {
    this.type = type;
    this.bits = bits;
    this.refs = Object.freeze(refs);
    this.w = undefined;
  }

  get mask() {
    return this.wonders().mask;
  }
  get _hashes() {
    return this.wonders().hashes;
  }
  get _depths() {
    return this.wonders().depths;
  }

  hash(level = 3): Buffer {
    const h = this.wonders().hashes;
    return h[Math.min(h.length - 1, level)]!;
  }
  depth(level = 3): number {
    const d = this.wonders().depths;
    return d[Math.min(d.length - 1, level)]!;
  }
  level(): number {
    return this.wonders().mask.level;
  }
  equals(other: Cell): boolean {
    return this.hash().equals(other.hash());
  }
  beginParse(allowExotic = false): Slice {
    if (this.type !== CellType.Ordinary && !allowExotic) throw new Error('Exotic cells cannot be parsed');
    return new Slice(new BitReader(this.bits), this.refs as Cell[]);
  }
  [inspect.custom]() {
    return (this as unknown as Cell).toString();
  }

  private wonders(): Wonders {
    if (!this.w) computeUnder(this);
    return this.w!;
  }

  /** Works out this cell's wonders, its refs' being known (computeUnder's order). */
  resolve(): void {
    const refs = this.refs as Cell[];
    if (this.type !== CellType.Ordinary) {
      const resolved = exoticModule.resolveExotic(this.bits, refs);
      if (resolved.type !== this.type) throw new Error(`exotic cell type ${resolved.type} read as ${this.type}`);
    }
    this.w = wonderModule.wonderCalculator(this.type, this.bits, refs);
  }

  get known(): boolean {
    return this.w !== undefined;
  }
}
Object.setPrototypeOf(LazyCell.prototype, Cell.prototype);

/**
 * The wonders of `root` and of every lazy cell under it not yet worked out, children first, with a stack
 * of our own: a chain of cells as deep as a block's can be would overflow the call stack by recursion.
 */
function computeUnder(root: LazyCell): void {
  const stack: LazyCell[] = [root];
  while (stack.length > 0) {
    const c = stack[stack.length - 1]!;
    if (c.known) {
      stack.pop();
      continue;
    }
    let waiting = false;
    for (const ref of c.refs) {
      const r = ref as unknown;
      if (r instanceof LazyCell && !r.known) {
        stack.push(r);
        waiting = true;
      }
    }
    if (waiting) continue;
    stack.pop();
    c.resolve();
  }
}

function lazyCell(bits: BitString, refs: Cell[], exotic: boolean): Cell {
  if (exotic) {
    // The kind is the first byte; resolveExotic checks the rest when the cell's wonders are asked for.
    const type = bits.length >= 8 ? new BitReader(bits).preloadUint(8) : 0;
    if (!EXOTIC_TYPES.has(type)) throw new Error('Invalid exotic cell type');
    return new LazyCell(type as CellType, bits, refs) as unknown as Cell;
  }
  if (refs.length > 4) throw new Error('Invalid number of references');
  if (bits.length > 1023) throw new Error(`Bits overflow: ${bits.length} > 1023`);
  return new LazyCell(CellType.Ordinary, bits, refs) as unknown as Cell;
}

/** The roots of a generic BoC, read as cells whose hashes are worked out when asked for (another format: @ton/core's eager cells). */
export function deserializeBocLazy(boc: Buffer): Cell[] {
  const read = readBocCells(boc);
  if (!read) return Cell.fromBoc(boc);
  const { bits, exotic, refs, roots } = read;
  const cells = new Array<Cell>(bits.length);
  for (let i = bits.length - 1; i >= 0; i--) cells[i] = lazyCell(bits[i]!, refs[i]!.map((r) => cells[r]!), exotic[i]!);
  return roots.map((r) => cells[r]!);
}
