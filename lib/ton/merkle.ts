/**
 * Merkle proofs and updates over arbitrary cell trees.
 *
 * @ton/core validates exotic cells and offers proofs for plain Dictionary
 * objects only; here a proof keeps any chosen set of cells of a tree and
 * replaces every other subtree by a pruned branch carrying its hash and
 * depth, so the proof hashes (at level 0) to the original root.
 *
 *   !merkle_proof#03 virtual_hash:bits256 depth:uint16 virtual_root:^X = MERKLE_PROOF X;
 *   !merkle_update#04 old_hash:bits256 new_hash:bits256 old_depth:uint16 new_depth:uint16
 *     old:^X new:^X = MERKLE_UPDATE X;
 */
import { Cell, beginCell, convertToMerkleProof } from '@ton/core';
import { dictKeyPath } from './hashmap-aug';

function hashKey(cell: Cell): string {
  return cell.hash().toString('latin1');
}

/**
 * A pruned branch standing for `cell` inside a Merkle proof or update (the
 * node's create_pruned_branch with new_level 1): level mask = cell's | 1,
 * carrying the cell's hashes and depths for every level below the new one.
 */
export function prunedBranch(cell: Cell): Cell {
  const mask = cell.mask.value | 1;
  const level = 32 - Math.clz32(mask);
  const levels: number[] = [];
  for (let i = 0; i < level; i++) {
    if (i === 0 || (mask >> (i - 1)) & 1) levels.push(i);
  }
  const b = beginCell().storeUint(1, 8).storeUint(mask, 8);
  for (const i of levels) b.storeBuffer(cell.hash(i), 32);
  for (const i of levels) b.storeUint(cell.depth(i), 16);
  return b.endCell({ exotic: true });
}

/** Which cells a proof keeps: `cells` are kept with their children pruned unless kept too; `subtrees` are kept whole. */
export interface ProofSelection {
  cells?: Iterable<Cell>;
  subtrees?: Iterable<Cell>;
}

function selectionSets(sel: ProofSelection): { cells: Set<string>; subtrees: Set<string> } {
  const cells = new Set<string>();
  const subtrees = new Set<string>();
  for (const c of sel.cells ?? []) cells.add(hashKey(c));
  for (const c of sel.subtrees ?? []) subtrees.add(hashKey(c));
  return { cells, subtrees };
}

/** The partial tree of a proof: kept cells rebuilt over pruned children. The root is always kept. */
export function pruneTree(root: Cell, selection: ProofSelection): Cell {
  const { cells, subtrees } = selectionSets(selection);
  const memo = new Map<string, Cell>();
  const walk = (cell: Cell, isRoot: boolean): Cell => {
    const key = hashKey(cell);
    if (subtrees.has(key)) return cell;
    if (!isRoot && !cells.has(key)) return prunedBranch(cell);
    const done = memo.get(key);
    if (done) return done;
    const refs = cell.refs.map((r) => walk(r, false));
    const rebuilt = refs.every((r, i) => r === cell.refs[i]) ? cell : new Cell({ exotic: cell.isExotic, bits: cell.bits, refs });
    memo.set(key, rebuilt);
    return rebuilt;
  };
  return walk(root, true);
}

/** Wraps a (partial) tree into a MERKLE_PROOF exotic cell (hash and depth taken at level 0). */
export function merkleProofCell(partial: Cell): Cell {
  return convertToMerkleProof(partial);
}

/** MERKLE_PROOF of `root` keeping the selected cells. */
export function createMerkleProof(root: Cell, selection: ProofSelection): Cell {
  return merkleProofCell(pruneTree(root, selection));
}

function collectHashes(root: Cell, into: Set<string>): void {
  const stack = [root];
  while (stack.length) {
    const c = stack.pop()!;
    const k = hashKey(c);
    if (into.has(k)) continue;
    into.add(k);
    for (const r of c.refs) stack.push(r);
  }
}

/**
 * MERKLE_UPDATE from `oldRoot` to `newRoot`. The old side keeps the cells
 * that do not survive into the new tree and prunes the ones that do; the new
 * side keeps its new cells and prunes only cells the old side exposes (kept
 * or pruned there), so every pruned branch of the new side resolves against
 * the old state.
 */
export function createMerkleUpdate(oldRoot: Cell, newRoot: Cell): Cell {
  const inNew = new Set<string>();
  collectHashes(newRoot, inNew);

  const exposed = new Set<string>();
  const oldMemo = new Map<string, Cell>();
  const walkOld = (cell: Cell): Cell => {
    const key = hashKey(cell);
    exposed.add(key);
    if (inNew.has(key)) return prunedBranch(cell);
    const done = oldMemo.get(key);
    if (done) return done;
    const refs = cell.refs.map(walkOld);
    const rebuilt = new Cell({ exotic: cell.isExotic, bits: cell.bits, refs });
    oldMemo.set(key, rebuilt);
    return rebuilt;
  };
  const newMemo = new Map<string, Cell>();
  const walkNew = (cell: Cell): Cell => {
    const key = hashKey(cell);
    if (exposed.has(key)) return prunedBranch(cell);
    const done = newMemo.get(key);
    if (done) return done;
    const refs = cell.refs.map(walkNew);
    const rebuilt = new Cell({ exotic: cell.isExotic, bits: cell.bits, refs });
    newMemo.set(key, rebuilt);
    return rebuilt;
  };
  return merkleUpdateCell(walkOld(oldRoot), walkNew(newRoot));
}

/** Wraps the pruned old and new trees into a MERKLE_UPDATE exotic cell (hashes and depths at level 0). */
export function merkleUpdateCell(oldPart: Cell, newPart: Cell): Cell {
  return beginCell()
    .storeUint(4, 8)
    .storeBuffer(oldPart.hash(0), 32)
    .storeBuffer(newPart.hash(0), 32)
    .storeUint(oldPart.depth(0), 16)
    .storeUint(newPart.depth(0), 16)
    .storeRef(oldPart)
    .storeRef(newPart)
    .endCell({ exotic: true });
}

// ---------------------------------------------------------------------------
// Shard state proofs for lite_api
// ---------------------------------------------------------------------------

/**
 * MERKLE_PROOF of a ShardStateUnsplit keeping the path to one account's
 * ShardAccount leaf (what liteServer.getAccountState returns as the state
 * proof). The Account cell itself is pruned unless `withAccount`.
 */
export function shardStateAccountProof(stateRoot: Cell, accountId: bigint, opts: { withAccount?: boolean } = {}): Cell {
  const accountsCell = stateRoot.refs[1];
  const dictRoot = accountsCell.beginParse().loadBit() ? accountsCell.refs[0] : null;
  const path = dictKeyPath(dictRoot, 256, accountId);
  if (path.length === 0) throw new Error('shardStateAccountProof: account is not in the state');
  const cells = [accountsCell, ...path];
  const subtrees = opts.withAccount ? [path[path.length - 1].refs[path[path.length - 1].refs.length - 1]] : [];
  return createMerkleProof(stateRoot, { cells, subtrees });
}

/**
 * MERKLE_PROOF of a masterchain ShardStateUnsplit keeping McStateExtra and
 * the whole configuration dictionary (liteServer.getConfigAll / getConfigParams).
 */
export function shardStateConfigProof(stateRoot: Cell): Cell {
  const s = stateRoot.beginParse();
  s.skip(32 + 32 + 104 + 32 + 32 + 32 + 64 + 32 + 1);
  s.loadRef();
  s.loadRef();
  s.loadRef();
  const custom = s.loadMaybeRef();
  if (!custom) throw new Error('shardStateConfigProof: not a masterchain state');
  const cs = custom.beginParse();
  cs.skip(16);
  const hasShardHashes = cs.loadBit();
  // McStateExtra refs: [shard_hashes root]?, config dict, ^[...]
  const configDict = custom.refs[hasShardHashes ? 1 : 0];
  return createMerkleProof(stateRoot, { cells: [custom], subtrees: [configDict] });
}
