/**
 * The Merkle proofs the devnet's lite server attaches to its answers. They are real proofs (each
 * hashes to the block or state it proves) built from cells the devnet holds; what it cannot give
 * is the validator signatures that would anchor them, so clients that verify a chain of trust up
 * to a key block get liteServer.error from getBlockProof instead.
 */
import { Cell, beginCell } from '@ton/core';
import { createMerkleProof, dictPathTowards, merkleProofCell, prunedBranch } from '../ton';
import { configParamCell } from '../ton/config-proof';

/**
 * A pruned branch of level `level`: it carries the cell's hashes and depths for every level below.
 * Under a Merkle cell (one level deeper) a child must be pruned at level 2, since the Merkle cell's
 * own hash uses its children's level-1 hashes; lib/ton's prunedBranch prunes at level 1.
 */
export function prunedBranchAt(cell: Cell, level: number): Cell {
  const mask = cell.mask.value | (1 << (level - 1));
  const levels: number[] = [];
  for (let i = 0; i < level; i++) if (i === 0 || (mask >> (i - 1)) & 1) levels.push(i);
  const b = beginCell().storeUint(1, 8).storeUint(mask, 8);
  for (const i of levels) b.storeBuffer(cell.hash(i), 32);
  for (const i of levels) b.storeUint(cell.depth(i), 16);
  return b.endCell({ exotic: true });
}

/**
 * Block header proof: the block root with BlockInfo (and the blocks it references) and the
 * state_update cell, whose old/new hashes tie the block to its states (its two sides pruned);
 * value flow and extra pruned.
 */
export function blockHeaderProof(blockRoot: Cell): Cell {
  const [info, valueFlow, stateUpdate, extra] = blockRoot.refs;
  const update = new Cell({
    exotic: true,
    bits: stateUpdate.bits,
    refs: stateUpdate.refs.map((r) => prunedBranchAt(r, 2)),
  });
  const root = new Cell({ bits: blockRoot.bits, refs: [info, prunedBranch(valueFlow), update, prunedBranch(extra)] });
  return merkleProofCell(root);
}

/**
 * State proof of one account: the ShardStateUnsplit with the accounts dictionary's path to the
 * account's leaf (or to the fork where its key would be: a proof of absence). The Account cell
 * itself is pruned (the answer carries it separately).
 */
export function accountStateProof(stateRoot: Cell, accountId: bigint): Cell {
  const accountsCell = stateRoot.refs[1];
  const dictRoot = accountsCell.beginParse().loadBit() ? accountsCell.refs[0] : null;
  return createMerkleProof(stateRoot, { cells: [accountsCell, ...dictPathTowards(dictRoot, 256, accountId)] });
}

/** The masterchain state with McStateExtra's shard_hashes kept (which shard blocks it knows). */
export function shardHashesProof(mcStateRoot: Cell): Cell {
  const custom = mcStateRoot.refs[mcStateRoot.refs.length - 1];
  const hasShardHashes = custom.beginParse().skip(16).loadBit();
  return createMerkleProof(mcStateRoot, { cells: [custom], subtrees: hasShardHashes ? [custom.refs[0]] : [] });
}

/** The block with the account blocks' path to one account kept, and that account's block when `present` (getOneTransaction). */
export function blockAccountProof(blockRoot: Cell, accountId: bigint, present: boolean): Cell {
  const extra = blockRoot.refs[3];
  const accountBlocksCell = extra.refs[2];
  const dictRoot = accountBlocksCell.beginParse().loadBit() ? accountBlocksCell.refs[0] : null;
  const path = dictPathTowards(dictRoot, 256, accountId);
  const leaf = path[path.length - 1];
  return createMerkleProof(blockRoot, { cells: [extra, accountBlocksCell, ...path], subtrees: present && leaf ? [leaf] : [] });
}

/** The block with all its account blocks kept (listBlockTransactions with want_proof). */
export function blockTransactionsProof(blockRoot: Cell): Cell {
  const extra = blockRoot.refs[3];
  return createMerkleProof(blockRoot, { cells: [extra], subtrees: [extra.refs[2], blockRoot.refs[0]] });
}

/** ConfigParams a block proof's verifier reads: 28 (catchain config), 34 (current validators), 35 (the temporary set it looks up first). */
const VALIDATOR_CONFIG_PARAMS = [28, 34, 35];

/** The config dictionary's cells on the paths to the validator parameters (proofs of absence for missing ones), and the values whole. */
function validatorConfigSelection(configRoot: Cell): { cells: Cell[]; subtrees: Cell[] } {
  const cells: Cell[] = [];
  const subtrees: Cell[] = [];
  for (const id of VALIDATOR_CONFIG_PARAMS) {
    cells.push(...dictPathTowards(configRoot, 32, BigInt(id)));
    const value = configParamCell(configRoot, id);
    if (value) subtrees.push(value);
  }
  return { cells, subtrees };
}

/**
 * Source proof of a forward block link from a key block: the block with its header and the
 * McBlockExtra's configuration (the last reference of a key block's McBlockExtra) down to the
 * validator parameters.
 */
export function keyBlockConfigProof(blockRoot: Cell): Cell {
  const info = blockRoot.refs[0];
  const extra = blockRoot.refs[3];
  const custom = extra.refs[3];
  if (!custom) throw new Error('keyBlockConfigProof: not a masterchain block');
  const configRoot = custom.refs[custom.refs.length - 1];
  const sel = validatorConfigSelection(configRoot);
  return createMerkleProof(blockRoot, { cells: [extra, custom, configRoot, ...sel.cells], subtrees: [info, ...sel.subtrees] });
}

/** Source proof of a forward block link from the zero state: the state with McStateExtra's configuration down to the validator parameters. */
export function zeroStateConfigProof(stateRoot: Cell): Cell {
  const custom = stateRoot.refs[stateRoot.refs.length - 1];
  const hasShardHashes = custom.beginParse().skip(16).loadBit();
  const configRoot = custom.refs[hasShardHashes ? 1 : 0];
  const sel = validatorConfigSelection(configRoot);
  return createMerkleProof(stateRoot, { cells: [custom, configRoot, ...sel.cells], subtrees: sel.subtrees });
}

/**
 * State proof of a backward block link: the masterchain state with OldMcBlocksInfo (McStateExtra's
 * ^[ … prev_blocks … ]) kept down to the entry of masterchain block `seqno`.
 */
export function prevBlockStateProof(mcStateRoot: Cell, seqno: number): Cell {
  const custom = mcStateRoot.refs[mcStateRoot.refs.length - 1];
  const hasShardHashes = custom.beginParse().skip(16).loadBit();
  const more = custom.refs[hasShardHashes ? 2 : 1];
  const prevBlocks = more.refs[0] ?? null;
  const path = dictPathTowards(prevBlocks, 32, BigInt(seqno));
  return createMerkleProof(mcStateRoot, { cells: [custom, more, ...path], subtrees: path.length > 0 ? [path[path.length - 1]] : [] });
}

/** A masterchain block with McBlockExtra's shard_hashes kept: how it names its shards' top blocks (getShardBlockProof, getAllShardsInfo). */
export function blockShardHashesProof(mcBlockRoot: Cell): Cell {
  const extra = mcBlockRoot.refs[3];
  const custom = extra.refs[3];
  const hasShardHashes = custom.beginParse().skip(16 + 1).loadBit();
  return createMerkleProof(mcBlockRoot, { cells: [extra, custom], subtrees: hasShardHashes ? [custom.refs[0]] : [] });
}
