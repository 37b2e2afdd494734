/**
 * A devnet's states after a restart: the newest snapshot (or the zero states), then every later
 * round replayed by applying its blocks' MERKLE_UPDATEs, each checked against the state it says it
 * starts from. A basechain block continues its shard's state, its parent's after a split (the
 * update starts from the parent's whole state), or split_state(left, right) after a merge.
 */
import type { Cell } from '@ton/core';
import { SHARD_ALL, loadBlockInfo, loadShardStateUnsplitFull, merkleUpdateHashes, shardChildren, shardIdOf, shardParent, splitStateCell } from '../ton';
import type { BlockMeta, BlockStore } from './block-store';
import { readSnapshot, readZeroStates, type ChainIdentity } from './chain-files';
import { applyMerkleUpdate } from './merkle-update';

/** The states after one round: the masterchain's and those of the round's basechain blocks, by shard. */
export interface StatesAt {
  mc: Cell;
  shards: Map<bigint, Cell>;
  /** Cells this round's states added (estimate of what keeping them costs). */
  cells: number;
}

export interface RestoredStates {
  zero: { mc: Cell; basechain: Cell };
  mc: Cell;
  /** The newest state of every basechain shard. */
  shards: Map<bigint, Cell>;
  states: Map<number, StatesAt>;
}

/** Logger the restore reports to (a ChainLogger). */
interface Log {
  warn(obj: object, msg?: string): void;
}

export class RestoreError extends Error {}

const updateOf = (store: BlockStore, meta: BlockMeta) => store.root(meta).refs[2];

/** The shard of a state (read from its ShardIdent). */
export function stateShard(state: Cell): bigint {
  return BigInt.asUintN(64, shardIdOf(loadShardStateUnsplitFull(state.beginParse()).shardId));
}

/** The snapshot's states if they are those the blocks of its round end with. */
function usableSnapshot(dir: string, store: BlockStore, log: Log): { seqno: number; mc: Cell; shards: Map<bigint, Cell> } | undefined {
  const snap = readSnapshot(dir);
  if (!snap || snap.seqno > store.rounds) return undefined;
  const shards = new Map(snap.basechain.map((s) => [stateShard(s), s]));
  const mcOk = merkleUpdateHashes(updateOf(store, store.get(-1, snap.seqno)!)).newHash.equals(snap.mc.hash());
  const round = store.round(snap.seqno);
  const bcOk = round.length === shards.size && round.every((m) => shards.get(m.shard) && merkleUpdateHashes(updateOf(store, m)).newHash.equals(shards.get(m.shard)!.hash()));
  if (mcOk && bcOk) return { seqno: snap.seqno, mc: snap.mc, shards };
  log.warn({ seqno: snap.seqno }, 'state snapshot does not match the blocks; replaying from the zero state');
  return undefined;
}

/** Applies one basechain block to the shard states it follows. */
function replayShardBlock(store: BlockStore, meta: BlockMeta, shards: Map<bigint, Cell>): Cell {
  const info = loadBlockInfo(store.root(meta).refs[0].beginParse());
  const state = (s: bigint) => shards.get(s) ?? fail(`no state of shard ${s.toString(16)} before block ${meta.seqno}`);
  let old: Cell;
  const prev: bigint[] = info.afterMerge ? shardChildren(meta.shard) : info.afterSplit ? [shardParent(meta.shard)] : [meta.shard];
  if (info.afterMerge) old = splitStateCell(state(prev[0]), state(prev[1]));
  else old = state(prev[0]);
  const next = applyMerkleUpdate(old, updateOf(store, meta));
  return next;
}

function fail(message: string): never {
  throw new Error(message);
}

export function restoreStates(dir: string, identity: ChainIdentity, store: BlockStore, window: number, log: Log): RestoredStates {
  const zero = readZeroStates(dir);
  if (!zero.mc.hash().equals(identity.zeroState.masterchain.rootHash) || !zero.basechain.hash().equals(identity.zeroState.basechain.rootHash)) {
    throw new RestoreError(`${dir}: zerostate.boc does not match chain.json; the devnet directory is damaged`);
  }
  const rounds = store.rounds;
  if (rounds === 0) throw new RestoreError(`${dir}: chain.json is present but no blocks are; the devnet directory is damaged`);
  const snap = usableSnapshot(dir, store, log);
  let from = snap?.seqno ?? 0;
  let mc = snap?.mc ?? zero.mc;
  let shards = snap?.shards ?? new Map([[SHARD_ALL, zero.basechain]]);
  const states = new Map<number, StatesAt>();
  if (snap) states.set(from, { mc, shards: new Map(shards), cells: 0 });
  for (let k = from + 1; k <= rounds; k++) {
    const round = new Map<bigint, Cell>();
    try {
      for (const meta of store.round(k)) round.set(meta.shard, replayShardBlock(store, meta, shards));
      mc = applyMerkleUpdate(mc, updateOf(store, store.get(-1, k)!));
    } catch (e) {
      throw new RestoreError(`${dir}: block ${k} does not continue the stored chain (${e instanceof Error ? e.message : String(e)})`);
    }
    shards = round;
    if (k > rounds - window) states.set(k, { mc, shards: round, cells: 0 });
    from = k;
  }
  return { zero, mc, shards, states };
}
