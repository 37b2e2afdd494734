/**
 * HashmapAug / HashmapAugE (block.tlb):
 *
 *   ahm_edge#_ label:(HmLabel ~l n) node:(HashmapAugNode m X Y) = HashmapAug n X Y;
 *   ahmn_leaf#_ extra:Y value:X = HashmapAugNode 0 X Y;
 *   ahmn_fork#_ left:^(HashmapAug n X Y) right:^(HashmapAug n X Y) extra:Y = HashmapAugNode (n + 1) X Y;
 *   ahme_empty$0 extra:Y = HashmapAugE n X Y;
 *   ahme_root$1 root:^(HashmapAug n X Y) extra:Y = HashmapAugE n X Y;
 *
 * Keys are unsigned n-bit big-endian integers (bigint). Two writers share the
 * node's cell layout: a full build from a list of entries and an incremental
 * set/delete that rewrites only the cells on the path to the key, so that a
 * large dictionary (the ShardAccounts of a state) can follow every change
 * without being rebuilt.
 */
import { Builder, Cell, Slice, beginCell } from '@ton/core';

/** How values and extras of one augmented dictionary type are (de)serialized and combined. */
export interface AugDictCodec<V, E> {
  loadValue(slice: Slice): V;
  storeValue(value: V): (builder: Builder) => void;
  loadExtra(slice: Slice): E;
  storeExtra(extra: E): (builder: Builder) => void;
  /** Extra of a fork from the extras of its two children (the node's eval_fork). */
  combine(left: E, right: E): E;
  /** Extra of an empty HashmapAugE (the node's eval_empty). */
  empty(): E;
  /** Extra of a leaf computed from its value (the node's eval_leaf), when the type defines one. */
  leafExtra?(value: V): E;
}

export interface AugEntry<V, E> {
  value: V;
  extra: E;
}

/** Input entry of the writers; a missing extra is computed with `codec.leafExtra`. */
export interface AugEntryInput<V, E> {
  value: V;
  extra?: E;
}

/** A parsed HashmapAug(E): entries in ascending key order and the extra of the whole dictionary. */
export interface AugDict<V, E> {
  entries: Map<bigint, AugEntry<V, E>>;
  extra: E;
}

export type AugEntriesInput<V, E> =
  | Map<bigint, AugEntryInput<V, E>>
  | Iterable<readonly [bigint, AugEntryInput<V, E>]>;

// ---------------------------------------------------------------------------
// Labels (HmLabel)
// ---------------------------------------------------------------------------

/** Number of bits of the length field of hml_long / hml_same for a label of at most `maxLen` bits. */
function lenBits(maxLen: number): number {
  return maxLen === 0 ? 0 : 32 - Math.clz32(maxLen);
}

function mask(bits: number): bigint {
  return (1n << BigInt(bits)) - 1n;
}

function bigBitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

export interface HmLabel {
  /** Label length in bits. */
  len: number;
  /** Label bits as an unsigned integer of `len` bits. */
  bits: bigint;
}

export function loadHmLabel(slice: Slice, maxLen: number): HmLabel {
  if (!slice.loadBit()) {
    let len = 0;
    while (slice.loadBit()) len++;
    if (len > maxLen) throw new Error(`HmLabel: short label of ${len} bits exceeds ${maxLen}`);
    return { len, bits: len > 0 ? slice.loadUintBig(len) : 0n };
  }
  const k = lenBits(maxLen);
  if (!slice.loadBit()) {
    const len = k > 0 ? slice.loadUint(k) : 0;
    if (len > maxLen) throw new Error(`HmLabel: long label of ${len} bits exceeds ${maxLen}`);
    return { len, bits: len > 0 ? slice.loadUintBig(len) : 0n };
  }
  const one = slice.loadBit();
  const len = k > 0 ? slice.loadUint(k) : 0;
  if (len > maxLen) throw new Error(`HmLabel: same label of ${len} bits exceeds ${maxLen}`);
  return { len, bits: one ? mask(len) : 0n };
}

/**
 * Writes a label the way the node's append_dict_label does, so that rebuilt
 * dictionaries hash like the chain's: hml_same only when strictly shorter than
 * both alternatives, otherwise hml_long only when strictly shorter than
 * hml_short. (@ton/core's serializer breaks ties the same way.)
 */
export function storeHmLabel(builder: Builder, len: number, bits: bigint, maxLen: number): void {
  if (len > maxLen) throw new Error(`HmLabel: ${len} bits exceed ${maxLen}`);
  const k = lenBits(maxLen);
  if (len > 1 && k < 2 * len - 1 && (bits === 0n || bits === mask(len))) {
    builder.storeUint(bits === 0n ? 0b110 : 0b111, 3);
    builder.storeUint(len, k);
    return;
  }
  if (k < len) {
    builder.storeUint(0b10, 2);
    builder.storeUint(len, k);
    builder.storeUint(bits, len);
    return;
  }
  builder.storeBit(0);
  // Unary length: `len` ones and a terminating zero.
  builder.storeUint(mask(len) << 1n, len + 1);
  if (len > 0) builder.storeUint(bits, len);
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

function readEdge<V, E>(
  slice: Slice,
  m: number,
  prefix: bigint,
  codec: AugDictCodec<V, E>,
  out: Map<bigint, AugEntry<V, E>>,
): E {
  const label = loadHmLabel(slice, m);
  const key = (prefix << BigInt(label.len)) | label.bits;
  const rest = m - label.len;
  if (rest === 0) {
    const extra = codec.loadExtra(slice);
    const value = codec.loadValue(slice);
    out.set(key, { value, extra });
    return extra;
  }
  const left = slice.loadRef();
  const right = slice.loadRef();
  readEdge(left.beginParse(), rest - 1, key << 1n, codec, out);
  readEdge(right.beginParse(), rest - 1, (key << 1n) | 1n, codec, out);
  return codec.loadExtra(slice);
}

/** Reads a non-empty HashmapAug stored inline in `slice` (as in AccountBlock.transactions). */
export function loadHashmapAug<V, E>(slice: Slice, keyBits: number, codec: AugDictCodec<V, E>): AugDict<V, E> {
  const entries = new Map<bigint, AugEntry<V, E>>();
  const extra = readEdge(slice, keyBits, 0n, codec, entries);
  return { entries, extra };
}

/** Reads a HashmapAugE: presence bit, root reference, extra of the whole dictionary. */
export function loadHashmapAugE<V, E>(slice: Slice, keyBits: number, codec: AugDictCodec<V, E>): AugDict<V, E> {
  const entries = new Map<bigint, AugEntry<V, E>>();
  if (slice.loadBit()) {
    readEdge(slice.loadRef().beginParse(), keyBits, 0n, codec, entries);
  }
  return { entries, extra: codec.loadExtra(slice) };
}

/** Reads the entries of a dictionary given its root cell (the HashmapAug, not the HashmapAugE). */
export function loadAugDictRoot<V, E>(root: Cell | null, keyBits: number, codec: AugDictCodec<V, E>): AugDict<V, E> {
  if (!root) return { entries: new Map(), extra: codec.empty() };
  return loadHashmapAug(root.beginParse(), keyBits, codec);
}

/**
 * Reads a plain `Hashmap n X` from its root cell: the same tree as a HashmapAug with an extra of no
 * bits. Values come as `loadValue` reads them (e.g. `(s) => s.loadRef()` for ^X, the cells as stored,
 * where @ton/core's loadDict rebuilds and hashes a cell for every value), by ascending key.
 */
export function loadHashmapRoot<V>(root: Cell, keyBits: number, loadValue: (slice: Slice) => V): Map<bigint, V> {
  const codec: AugDictCodec<V, null> = {
    loadValue,
    storeValue: () => () => {},
    loadExtra: () => null,
    storeExtra: () => () => {},
    combine: () => null,
    empty: () => null,
  };
  const entries = loadHashmapAug(root.beginParse(), keyBits, codec).entries;
  return new Map([...entries].map(([k, e]) => [k, e.value]));
}

// ---------------------------------------------------------------------------
// Full build
// ---------------------------------------------------------------------------

function normalizeEntries<V, E>(input: AugEntriesInput<V, E>): { keys: bigint[]; vals: AugEntryInput<V, E>[] } {
  const pairs = Array.from(input as Iterable<readonly [bigint, AugEntryInput<V, E>]>);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const keys: bigint[] = [];
  const vals: AugEntryInput<V, E>[] = [];
  for (let i = 0; i < pairs.length; i++) {
    if (i > 0 && pairs[i][0] === pairs[i - 1][0]) throw new Error(`HashmapAug: duplicate key ${pairs[i][0]}`);
    keys.push(pairs[i][0]);
    vals.push(pairs[i][1]);
  }
  return { keys, vals };
}

function leafExtraOf<V, E>(entry: AugEntryInput<V, E>, codec: AugDictCodec<V, E>): E {
  if (entry.extra !== undefined) return entry.extra;
  if (!codec.leafExtra) throw new Error('HashmapAug: entry has no extra and the codec cannot compute one');
  return codec.leafExtra(entry.value);
}

/** Writes the edge covering keys[lo, hi) with `m` key bits left into `builder`; returns the node's extra. */
function writeEdge<V, E>(
  builder: Builder,
  keys: bigint[],
  vals: AugEntryInput<V, E>[],
  lo: number,
  hi: number,
  m: number,
  codec: AugDictCodec<V, E>,
): E {
  // Keys below are the m-bit remainders: the caller already consumed the prefix.
  const first = keys[lo] & mask(m);
  let len: number;
  if (hi - lo === 1) {
    len = m;
  } else {
    const diff = first ^ (keys[hi - 1] & mask(m));
    len = m - bigBitLength(diff);
  }
  storeHmLabel(builder, len, first >> BigInt(m - len), m);
  if (len === m) {
    const extra = leafExtraOf(vals[lo], codec);
    builder.store(codec.storeExtra(extra));
    builder.store(codec.storeValue(vals[lo].value));
    return extra;
  }
  const rest = m - len - 1;
  const splitBit = 1n << BigInt(rest);
  // Sorted keys sharing the label: the ones with a 0 at the split bit come first.
  let a = lo;
  let b = hi;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (keys[mid] & splitBit) b = mid;
    else a = mid + 1;
  }
  const leftB = beginCell();
  const leftExtra = writeEdge(leftB, keys, vals, lo, a, rest, codec);
  const rightB = beginCell();
  const rightExtra = writeEdge(rightB, keys, vals, a, hi, rest, codec);
  builder.storeRef(leftB.endCell());
  builder.storeRef(rightB.endCell());
  const extra = codec.combine(leftExtra, rightExtra);
  builder.store(codec.storeExtra(extra));
  return extra;
}

function checkKeys(keys: bigint[], keyBits: number): void {
  const limit = 1n << BigInt(keyBits);
  for (const k of keys) {
    if (k < 0n || k >= limit) throw new Error(`HashmapAug: key ${k} does not fit ${keyBits} bits`);
  }
}

/** Builds the root cell (HashmapAug) of a dictionary; null for no entries. */
export function buildAugDictRoot<V, E>(
  entries: AugEntriesInput<V, E>,
  keyBits: number,
  codec: AugDictCodec<V, E>,
): { root: Cell | null; extra: E } {
  const { keys, vals } = normalizeEntries(entries);
  if (keys.length === 0) return { root: null, extra: codec.empty() };
  checkKeys(keys, keyBits);
  const b = beginCell();
  const extra = writeEdge(b, keys, vals, 0, keys.length, keyBits, codec);
  return { root: b.endCell(), extra };
}

/** Writes a non-empty HashmapAug inline (as in AccountBlock.transactions). */
export function storeHashmapAug<V, E>(
  entries: AugEntriesInput<V, E>,
  keyBits: number,
  codec: AugDictCodec<V, E>,
): (builder: Builder) => void {
  return (builder) => {
    const { keys, vals } = normalizeEntries(entries);
    if (keys.length === 0) throw new Error('HashmapAug: cannot store an empty (non-E) dictionary');
    checkKeys(keys, keyBits);
    writeEdge(builder, keys, vals, 0, keys.length, keyBits, codec);
  };
}

/** Writes a HashmapAugE, computing every fork extra and the dictionary's extra. */
export function storeHashmapAugE<V, E>(
  entries: AugEntriesInput<V, E>,
  keyBits: number,
  codec: AugDictCodec<V, E>,
): (builder: Builder) => void {
  return (builder) => {
    const { root, extra } = buildAugDictRoot(entries, keyBits, codec);
    builder.storeMaybeRef(root);
    builder.store(codec.storeExtra(extra));
  };
}

// ---------------------------------------------------------------------------
// Incremental update on cells
// ---------------------------------------------------------------------------

/** Extra of the node an edge cell leads to: it always follows the label directly. */
function edgeExtra<V, E>(cell: Cell, m: number, codec: AugDictCodec<V, E>): E {
  const s = cell.beginParse();
  loadHmLabel(s, m);
  return codec.loadExtra(s);
}

/** Extra of a whole dictionary given its root cell (what HashmapAugE stores after the root). */
export function augDictRootExtra<V, E>(root: Cell | null, keyBits: number, codec: AugDictCodec<V, E>): E {
  return root ? edgeExtra(root, keyBits, codec) : codec.empty();
}

/** Writes a HashmapAugE from a root cell kept by the incremental API. */
export function storeAugDictRootE<V, E>(
  root: Cell | null,
  keyBits: number,
  codec: AugDictCodec<V, E>,
): (builder: Builder) => void {
  return (builder) => {
    builder.storeMaybeRef(root);
    builder.store(codec.storeExtra(augDictRootExtra(root, keyBits, codec)));
  };
}

/** Root cell of a HashmapAugE slice (null when empty); the slice is left after the extra. */
export function loadAugDictRootE<V, E>(slice: Slice, codec: AugDictCodec<V, E>): Cell | null {
  const root = slice.loadBit() ? slice.loadRef() : null;
  codec.loadExtra(slice);
  return root;
}

function leafCell<V, E>(m: number, labelLen: number, labelBits: bigint, entry: AugEntryInput<V, E>, codec: AugDictCodec<V, E>): Cell {
  const b = beginCell();
  storeHmLabel(b, labelLen, labelBits, m);
  b.store(codec.storeExtra(leafExtraOf(entry, codec)));
  b.store(codec.storeValue(entry.value));
  return b.endCell();
}

function forkCell<V, E>(
  m: number,
  labelLen: number,
  labelBits: bigint,
  left: Cell,
  right: Cell,
  codec: AugDictCodec<V, E>,
): Cell {
  const rest = m - labelLen - 1;
  const extra = codec.combine(edgeExtra(left, rest, codec), edgeExtra(right, rest, codec));
  const b = beginCell();
  storeHmLabel(b, labelLen, labelBits, m);
  b.storeRef(left);
  b.storeRef(right);
  b.store(codec.storeExtra(extra));
  return b.endCell();
}

/** Re-labels an edge (same node payload) with a label of `len` bits out of `m`. */
function relabel(node: Slice, m: number, len: number, bits: bigint): Cell {
  const b = beginCell();
  storeHmLabel(b, len, bits, m);
  b.storeSlice(node);
  return b.endCell();
}

function setEdge<V, E>(cell: Cell, m: number, key: bigint, entry: AugEntryInput<V, E>, codec: AugDictCodec<V, E>): Cell {
  const s = cell.beginParse();
  const label = loadHmLabel(s, m);
  const keyTop = key >> BigInt(m - label.len);
  if (keyTop === label.bits) {
    if (label.len === m) return leafCell(m, m, key, entry, codec);
    const rest = m - label.len - 1;
    let left = s.loadRef();
    let right = s.loadRef();
    const sub = key & mask(rest);
    if ((key >> BigInt(rest)) & 1n) right = setEdge(right, rest, sub, entry, codec);
    else left = setEdge(left, rest, sub, entry, codec);
    return forkCell(m, label.len, label.bits, left, right, codec);
  }
  // The key leaves the label after `common` bits: split the edge with a new fork there.
  const common = label.len - bigBitLength(keyTop ^ label.bits);
  const rest = m - common - 1;
  const oldTail = label.len - common - 1;
  const oldChild = relabel(s, rest, oldTail, label.bits & mask(oldTail));
  const newChild = leafCell(rest, rest, key & mask(rest), entry, codec);
  const goesRight = ((key >> BigInt(rest)) & 1n) === 1n;
  return forkCell(
    m,
    common,
    label.bits >> BigInt(label.len - common),
    goesRight ? oldChild : newChild,
    goesRight ? newChild : oldChild,
    codec,
  );
}

/** Returns the new edge, null when the edge disappears, or the same cell when the key is absent. */
function deleteEdge<V, E>(cell: Cell, m: number, key: bigint, codec: AugDictCodec<V, E>): Cell | null {
  const s = cell.beginParse();
  const label = loadHmLabel(s, m);
  if (key >> BigInt(m - label.len) !== label.bits) return cell;
  if (label.len === m) return null;
  const rest = m - label.len - 1;
  const left = s.loadRef();
  const right = s.loadRef();
  const bit = (key >> BigInt(rest)) & 1n;
  const target = bit ? right : left;
  const changed = deleteEdge(target, rest, key & mask(rest), codec);
  if (changed === target) return cell;
  if (changed !== null) {
    return bit ? forkCell(m, label.len, label.bits, left, changed, codec) : forkCell(m, label.len, label.bits, changed, right, codec);
  }
  // One child left: its edge absorbs this label and the branch bit.
  const sibling = (bit ? left : right).beginParse();
  const sl = loadHmLabel(sibling, rest);
  const len = label.len + 1 + sl.len;
  const bits = (((label.bits << 1n) | (bit ^ 1n)) << BigInt(sl.len)) | sl.bits;
  return relabel(sibling, m, len, bits);
}

function checkKey(key: bigint, keyBits: number): void {
  if (key < 0n || key >= 1n << BigInt(keyBits)) throw new Error(`HashmapAug: key ${key} does not fit ${keyBits} bits`);
}

/**
 * Sets `key` to `value` in the dictionary rooted at `root` (null = empty) and
 * returns the new root. Only the cells on the path to the key are rebuilt;
 * the result is cell-for-cell what a full build of the new entry set gives.
 */
export function augDictSet<V, E>(
  root: Cell | null,
  keyBits: number,
  key: bigint,
  value: V,
  codec: AugDictCodec<V, E>,
  extra?: E,
): Cell {
  checkKey(key, keyBits);
  const entry: AugEntryInput<V, E> = { value, extra };
  if (!root) return leafCell(keyBits, keyBits, key, entry, codec);
  return setEdge(root, keyBits, key, entry, codec);
}

/** Removes `key`; returns the new root (null when the dictionary becomes empty). */
export function augDictDelete<V, E>(root: Cell | null, keyBits: number, key: bigint, codec: AugDictCodec<V, E>): Cell | null {
  checkKey(key, keyBits);
  if (!root) return null;
  return deleteEdge(root, keyBits, key, codec);
}

/**
 * Cells from the root towards `key`: down to its leaf (with the slice positioned at its extra) or
 * to the cell where the key leaves the tree (no slice). The key is not range-checked here.
 */
function walkTowards(root: Cell | null, keyBits: number, key: bigint): { cells: Cell[]; slice?: Slice } {
  const cells: Cell[] = [];
  let cell = root;
  let m = keyBits;
  let k = key;
  while (cell) {
    cells.push(cell);
    const s = cell.beginParse();
    const label = loadHmLabel(s, m);
    if (k >> BigInt(m - label.len) !== label.bits) return { cells };
    if (label.len === m) return { cells, slice: s };
    const rest = m - label.len - 1;
    const bit = (k >> BigInt(rest)) & 1n;
    cell = s.loadRef();
    if (bit) cell = s.loadRef();
    k &= mask(rest);
    m = rest;
  }
  return { cells };
}

/** The leaf cell for `key` and the slice positioned at its extra, or undefined. */
function findLeaf(root: Cell | null, keyBits: number, key: bigint): { cells: Cell[]; slice: Slice } | undefined {
  const { cells, slice } = walkTowards(root, keyBits, key);
  return slice ? { cells, slice } : undefined;
}

/**
 * Cells from a dictionary root towards `key`, down to its leaf or to where the key leaves the tree
 * (a proof of absence keeps these). Unlike dictKeyPath the key is not range-checked.
 */
export function dictPathTowards(root: Cell | null, keyBits: number, key: bigint): Cell[] {
  return walkTowards(root, keyBits, key).cells;
}

export function augDictGet<V, E>(
  root: Cell | null,
  keyBits: number,
  key: bigint,
  codec: AugDictCodec<V, E>,
): AugEntry<V, E> | undefined {
  checkKey(key, keyBits);
  const found = findLeaf(root, keyBits, key);
  if (!found) return undefined;
  const extra = codec.loadExtra(found.slice);
  return { value: codec.loadValue(found.slice), extra };
}

/**
 * Cells from the root down to the leaf of `key` (empty when absent). Labels
 * are laid out the same in plain and augmented dictionaries, so this serves
 * both; Merkle proofs of one entry keep exactly these cells.
 */
export function dictKeyPath(root: Cell | null, keyBits: number, key: bigint): Cell[] {
  checkKey(key, keyBits);
  return findLeaf(root, keyBits, key)?.cells ?? [];
}

/**
 * The leaf slice of `key` after its label (an augmented dictionary's extra, then the value), or
 * undefined when the key is absent. Walking a Merkle proof, a pruned cell on the way throws.
 */
export function dictLeafSlice(root: Cell | null, keyBits: number, key: bigint): Slice | undefined {
  checkKey(key, keyBits);
  return findLeaf(root, keyBits, key)?.slice;
}

// ---------------------------------------------------------------------------
// Splitting and joining at a key prefix (shard splits and merges of ShardAccounts)
// ---------------------------------------------------------------------------

/**
 * The sub-dictionary of the keys that start with `prefixLen` bits `prefix` (the node's
 * cut_prefix_subdict): the subtree where the prefix ends, its edge relabelled with the whole path
 * from the root. O(prefix length); the result is cell for cell what a full build of those keys gives.
 */
export function augDictCutPrefix(root: Cell | null, keyBits: number, prefix: bigint, prefixLen: number): Cell | null {
  if (prefixLen < 0 || prefixLen > keyBits) throw new Error(`HashmapAug: prefix of ${prefixLen} bits for ${keyBits}-bit keys`);
  let cell = root;
  let m = keyBits;
  let consumed = 0;
  let path = 0n;
  while (cell) {
    const s = cell.beginParse();
    const label = loadHmLabel(s, m);
    const want = prefixLen - consumed;
    if (label.len >= want) {
      // The prefix ends inside this label (or at its end): keep the node if the label agrees with it.
      if (label.bits >> BigInt(label.len - want) !== (prefix & mask(want))) return null;
      return relabel(s, keyBits, consumed + label.len, (path << BigInt(label.len)) | label.bits);
    }
    const labelPrefix = (prefix >> BigInt(prefixLen - consumed - label.len)) & mask(label.len);
    if (label.bits !== labelPrefix) return null;
    const bit = (prefix >> BigInt(prefixLen - consumed - label.len - 1)) & 1n;
    const left = s.loadRef();
    const right = s.loadRef();
    cell = bit ? right : left;
    path = (((path << BigInt(label.len)) | label.bits) << 1n) | bit;
    consumed += label.len + 1;
    m -= label.len + 1;
  }
  return null;
}

/**
 * The union of two dictionaries whose keys start with the `parentLen`-bit `parentPrefix` followed by
 * 0 (`left`) and by 1 (`right`): a fork at the parent prefix (the inverse of cutting both halves).
 */
export function augDictJoinSiblings<V, E>(
  left: Cell | null,
  right: Cell | null,
  keyBits: number,
  parentPrefix: bigint,
  parentLen: number,
  codec: AugDictCodec<V, E>,
): Cell | null {
  if (!left || !right) return left ?? right;
  const rest = keyBits - parentLen - 1;
  const tail = (cell: Cell, branch: bigint) => {
    const s = cell.beginParse();
    const label = loadHmLabel(s, keyBits);
    const expected = (parentPrefix << 1n) | branch;
    if (label.len <= parentLen || label.bits >> BigInt(label.len - parentLen - 1) !== expected) {
      throw new Error('HashmapAug: the halves do not lie under the given prefix');
    }
    const len = label.len - parentLen - 1;
    return relabel(s, rest, len, label.bits & mask(len));
  };
  return forkCell(keyBits, parentLen, parentPrefix, tail(left, 0n), tail(right, 1n), codec);
}
