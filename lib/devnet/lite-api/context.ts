/**
 * What every lite_api group of the devnet shares (lib/devnet/lite-handler.ts puts them together): the
 * chain, the caches of answers about blocks (block data never changes meaning, so they can be reused),
 * and the lookups each group starts from — a full block id to the block, a block to its state, an
 * account to the block and state holding it, and the proofs answers carry.
 */
import { Cell, type Dictionary } from '@ton/core';
import { SHARD_ALL, accountPrefix, isShardId, loadMcBlockExtra, loadShardStateUnsplitFull, serializeBoc, shardContains, type BlockSignature, type ShardHashes } from '../../ton';
import { RawShardAccounts } from '../accounts';
import type { BlockMeta, DevnetChain } from '../chain';
import { accountStateProof, blockHeaderProof, shardHashesProof } from '../proofs';
import { BASECHAIN, MASTERCHAIN, readMcStateExtra } from '../state';
import { LiteErrorCodes, LiteServerError, type liteServer_accountId, type tonNode_blockIdExt } from '../../lite/tl/codec';

export const NOT_FOUND = LiteErrorCodes.notready;

export const EMPTY: Buffer = Buffer.alloc(0);

/** A small LRU map: block data never changes meaning, so answers about a block can be reused. */
export class Lru<V> {
  readonly #map = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(key: string): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): V {
    this.#map.delete(key);
    this.#map.set(key, v);
    if (this.#map.size > this.size) this.#map.delete(this.#map.keys().next().value as string);
    return v;
  }
}

export const tlId = (m: BlockMeta): tonNode_blockIdExt => ({
  kind: 'tonNode.blockIdExt',
  workchain: m.workchain,
  shard: BigInt.asIntN(64, m.shard).toString(),
  seqno: m.seqno,
  rootHash: m.rootHash,
  fileHash: m.fileHash,
});

export const idStr = (id: { workchain: number; shard: string; seqno: number }) =>
  `(${id.workchain},${BigInt.asUintN(64, BigInt(id.shard)).toString(16)},${id.seqno})`;

export function bocOrEmpty(cells: Cell[]): Buffer {
  return cells.length > 0 ? serializeBoc(cells) : EMPTY;
}

export function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function unavailable(what: string): LiteServerError {
  return new LiteServerError(LiteErrorCodes.failure, `the devnet does not serve ${what}`);
}

/** A shard id of a workchain the devnet has (any valid id: lookups read it as an account prefix). */
export function checkShard(workchain: number, shard: string): bigint {
  if (workchain !== MASTERCHAIN && workchain !== BASECHAIN) {
    throw new LiteServerError(NOT_FOUND, `workchain ${workchain} does not exist on the devnet`);
  }
  const s = BigInt.asUintN(64, BigInt(shard));
  if (!isShardId(s)) throw new LiteServerError(LiteErrorCodes.protoviolation, `invalid shard id ${s.toString(16)}`);
  if (workchain === MASTERCHAIN && s !== SHARD_ALL) throw new LiteServerError(NOT_FOUND, 'the masterchain has only shard 8000000000000000');
  return s;
}

/** The parts of an account a get-method needs, decoded once per account cell. */
export interface AccountParts {
  state: string;
  code?: Cell;
  data?: Cell;
  balance: { coins: bigint; other?: Dictionary<number, bigint> | null };
}

/** The block and state holding an account as seen from a block (LiteContext.accountAt). */
export interface AccountAt {
  block: BlockMeta;
  shardBlock: BlockMeta;
  state: Cell;
  id256: bigint;
  sa: ReturnType<RawShardAccounts['get']>;
}

export class LiteContext {
  readonly headerProofs = new Lru<Cell>(1024);
  /** (block, account) → the proofs of a getAccountState answer. */
  readonly accountProofs = new Lru<{ proof: Buffer; shardProof: Buffer }>(4096);
  /** Account cell hash → its BoC, and the parts a get-method needs. */
  readonly accountBocs = new Lru<Buffer>(4096);
  readonly accountParts = new Lru<AccountParts>(4096);
  readonly shardProofs = new Lru<Buffer>(256);
  readonly signatures = new Lru<BlockSignature[]>(1024);

  constructor(readonly chain: DevnetChain) {}

  /** The newest masterchain block, once there is a zero state. */
  ready(): BlockMeta {
    const last = this.chain.lastBlock(MASTERCHAIN);
    if (!last) throw new LiteServerError(NOT_FOUND, 'the devnet is starting: no zero state yet');
    return last;
  }

  resolve(id: tonNode_blockIdExt): BlockMeta {
    // A full id names one block, shard included (as a real liteserver's block database keys it).
    const shard = checkShard(id.workchain, id.shard);
    const m = this.chain.block(id.workchain, id.seqno, shard);
    if (!m) throw new LiteServerError(NOT_FOUND, `block ${idStr(id)} not found`);
    if (!m.rootHash.equals(id.rootHash) || !m.fileHash.equals(id.fileHash)) {
      throw new LiteServerError(NOT_FOUND, `block ${idStr(id)} with root hash ${id.rootHash.toString('hex')} is not a block of this devnet`);
    }
    return m;
  }

  resolveMc(id: tonNode_blockIdExt): BlockMeta {
    if (id.workchain !== MASTERCHAIN) throw new LiteServerError(LiteErrorCodes.error, `block ${idStr(id)} is not a masterchain block`);
    const m = this.resolve(id);
    if (m.seqno > this.chain.lastSeqno) throw new LiteServerError(NOT_FOUND, `block ${idStr(id)} not found`);
    return m;
  }

  headerProof(m: BlockMeta): Cell | undefined {
    if (m.seqno === 0) return undefined;
    const key = `${m.workchain}:${m.shard}:${m.seqno}`;
    return this.headerProofs.get(key) ?? this.headerProofs.set(key, blockHeaderProof(this.chain.store.root(m)));
  }

  /** The header proof as an answer field: its BoC, or empty for the zero state. */
  headerProofBoc(m: BlockMeta): Buffer {
    const p = this.headerProof(m);
    return p ? serializeBoc(p) : EMPTY;
  }

  stateOf(m: BlockMeta): Cell {
    const s = this.chain.state(m.workchain, m.seqno, m.shard);
    if (!s) {
      throw new LiteServerError(
        NOT_FOUND,
        `state of block ${idStr(tlId(m))} is no longer kept: the devnet keeps the states of its last ${this.chain.stateWindow} blocks`,
      );
    }
    return s;
  }

  /** The block and state holding `account` as seen from block `id`. */
  accountAt(id: tonNode_blockIdExt, account: liteServer_accountId): AccountAt {
    const block = this.resolve(id);
    if (account.workchain !== MASTERCHAIN && account.workchain !== BASECHAIN) {
      throw new LiteServerError(NOT_FOUND, `workchain ${account.workchain} does not exist on the devnet`);
    }
    let shardBlock: BlockMeta;
    const prefix = accountPrefix(account.id);
    if (block.workchain === MASTERCHAIN) {
      // Masterchain block k registers every basechain shard's block k (the chains advance in lockstep).
      shardBlock = account.workchain === MASTERCHAIN ? block : this.chain.blockHolding(BASECHAIN, block.seqno, prefix)!;
    } else {
      if (account.workchain !== BASECHAIN || !shardContains(block.shard, prefix)) throw new LiteServerError(LiteErrorCodes.error, 'the account is not in the shard of this block');
      shardBlock = block;
    }
    const state = this.stateOf(shardBlock);
    const id256 = BigInt('0x' + account.id.toString('hex'));
    const accounts = RawShardAccounts.fromCell(state.refs[1]);
    return { block, shardBlock, state, id256, sa: accounts.get(id256) };
  }

  /** The proofs of an account answer: the shard block's header and account state, and how the masterchain block names it. */
  accountProofsOf(at: AccountAt): { proof: Buffer; shardProof: Buffer } {
    const key = `${at.block.workchain}:${at.block.shard}:${at.block.seqno}:${at.shardBlock.workchain}:${at.id256.toString(16)}`;
    const hit = this.accountProofs.get(key);
    if (hit) return hit;
    const header = this.headerProof(at.shardBlock);
    const stateProof = accountStateProof(at.state, at.id256);
    const proof = serializeBoc(header ? [header, stateProof] : [stateProof, stateProof]);
    const shardProof = at.block.workchain === MASTERCHAIN && at.shardBlock.workchain === BASECHAIN ? this.shardProofOf(at.block) : EMPTY;
    return this.accountProofs.set(key, { proof, shardProof });
  }

  /** The masterchain block's header and state with the shard hashes: how it names its basechain block. */
  shardProofOf(mc: BlockMeta): Buffer {
    const key = `${mc.seqno}`;
    const hit = this.shardProofs.get(key);
    if (hit) return hit;
    const mcState = this.chain.state(MASTERCHAIN, mc.seqno);
    const mcHeader = this.headerProof(mc);
    return this.shardProofs.set(key, mcState && mcHeader ? serializeBoc([mcHeader, shardHashesProof(mcState)]) : EMPTY);
  }

  shardHashesAt(mc: BlockMeta): ShardHashes {
    if (mc.seqno === 0) return readMcStateExtra(loadShardStateUnsplitFull(this.chain.state(MASTERCHAIN, 0)!.beginParse()).custom!).shardHashes;
    const custom = this.chain.store.root(mc).refs[3].refs[3];
    return loadMcBlockExtra(custom.beginParse()).shardHashes;
  }
}
