/**
 * MERKLE_UPDATE between two states in time proportional to what changed, and its inverse
 * (applying an update to the old state), which is how a restarted devnet replays its blocks.
 *
 * lib/ton's createMerkleUpdate hashes every cell of the new tree to decide what is shared: ~0.4 s
 * per block at 10k accounts. Here both trees are walked top-down together, ordered by cell depth:
 * a cell present in both trees has the same depth in both, so when every cell of depth d that
 * either walk has reached is on the table, a cell reached by both walks is shared (pruned, not
 * descended) and any other one is expanded. Only changed cells and their direct children are
 * visited. A shared cell reached by only one walk (say a code cell under an account that was
 * created, while the old tree holds it under an untouched account) is expanded needlessly: the
 * update gets larger, never invalid, because the new side prunes only cells that the old side
 * exposes (both walks reached them, so the old side keeps or prunes them at a visible spot).
 */
import { Cell, CellType } from '@ton/core';
import { merkleUpdateCell, prunedBranch } from '../ton';

const keyOf = (c: Cell): string => c.hash().toString('latin1');

/** MERKLE_UPDATE from `oldRoot` to `newRoot` (same layout as lib/ton's createMerkleUpdate). */
export function diffMerkleUpdate(oldRoot: Cell, newRoot: Cell): Cell {
  return diffMerkleUpdateStats(oldRoot, newRoot).update;
}

/** The update and how many cells of the new tree are not in the old one (what keeping the new state costs). */
export function diffMerkleUpdateStats(oldRoot: Cell, newRoot: Cell): { update: Cell; newCells: number } {
  const oldBuckets = new Map<number, Map<string, Cell>>();
  const newBuckets = new Map<number, Map<string, Cell>>();
  const push = (buckets: Map<number, Map<string, Cell>>, c: Cell) => {
    const d = c.depth();
    let b = buckets.get(d);
    if (!b) buckets.set(d, (b = new Map()));
    b.set(keyOf(c), c);
  };
  push(oldBuckets, oldRoot);
  push(newBuckets, newRoot);
  const oldExpanded = new Set<string>();
  const newExpanded = new Set<string>();
  for (let d = Math.max(oldRoot.depth(), newRoot.depth()); d >= 0; d--) {
    const ob = oldBuckets.get(d);
    const nb = newBuckets.get(d);
    if (ob) {
      for (const [k, c] of ob) {
        if (nb?.has(k)) continue;
        oldExpanded.add(k);
        for (const r of c.refs) push(oldBuckets, r);
      }
    }
    if (nb) {
      for (const [k, c] of nb) {
        if (ob?.has(k)) continue;
        newExpanded.add(k);
        for (const r of c.refs) push(newBuckets, r);
      }
    }
    oldBuckets.delete(d);
    newBuckets.delete(d);
  }
  const side = (root: Cell, expanded: Set<string>): Cell => {
    const memo = new Map<string, Cell>();
    const walk = (c: Cell): Cell => {
      const k = keyOf(c);
      if (!expanded.has(k)) return prunedBranch(c);
      const done = memo.get(k);
      if (done) return done;
      const rebuilt = new Cell({ exotic: c.isExotic, bits: c.bits, refs: c.refs.map(walk) });
      memo.set(k, rebuilt);
      return rebuilt;
    };
    return walk(root);
  };
  const update = merkleUpdateCell(side(oldRoot, oldExpanded), side(newRoot, newExpanded));
  return { update, newCells: newExpanded.size };
}

function isPruned(c: Cell): boolean {
  return c.type === CellType.PrunedBranch;
}

/**
 * The new state: `update`'s new side with every pruned branch resolved against `oldRoot`.
 * Throws when `oldRoot` is not the update's old state or a pruned cell cannot be resolved.
 */
export function applyMerkleUpdate(oldRoot: Cell, update: Cell): Cell {
  if (update.type !== CellType.MerkleUpdate) throw new Error('applyMerkleUpdate: not a MERKLE_UPDATE cell');
  const s = update.beginParse(true);
  s.skip(8);
  const oldHash = s.loadBuffer(32);
  const newHash = s.loadBuffer(32);
  if (!oldRoot.hash().equals(oldHash)) {
    throw new Error(`applyMerkleUpdate: state ${oldRoot.hash().toString('hex')} is not the update's old state ${oldHash.toString('hex')}`);
  }
  const known = new Map<string, Cell>();
  const seen = new Set<string>();
  const visit = (part: Cell, real: Cell) => {
    const k = keyOf(real);
    known.set(k, real);
    if (isPruned(part) || seen.has(k)) return;
    seen.add(k);
    if (part.refs.length !== real.refs.length) throw new Error('applyMerkleUpdate: old side does not match the state');
    for (let i = 0; i < part.refs.length; i++) visit(part.refs[i], real.refs[i]);
  };
  visit(update.refs[0], oldRoot);
  const memo = new Map<string, Cell>();
  const build = (part: Cell): Cell => {
    if (part.level() === 0) return part; // no pruned cell below: the real cell
    const k = part.hash(0).toString('latin1');
    if (isPruned(part)) {
      const real = known.get(k);
      if (!real) throw new Error(`applyMerkleUpdate: pruned cell ${part.hash(0).toString('hex')} is not in the old state`);
      return real;
    }
    const done = memo.get(k);
    if (done) return done;
    const rebuilt = new Cell({ exotic: part.isExotic, bits: part.bits, refs: part.refs.map(build) });
    memo.set(k, rebuilt);
    return rebuilt;
  };
  const result = build(update.refs[1]);
  if (!result.hash().equals(newHash)) throw new Error('applyMerkleUpdate: result does not hash to the new state');
  return result;
}
