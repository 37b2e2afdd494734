/**
 * LITE_VERIFY=on: a LiteEngine that checks the proofs of what lite servers answer before anyone reads
 * it (it sits under the cache, so only checked answers are cached). What is checked, with the node's
 * rules (lib/ton/proof-check.ts):
 *
 * - Masterchain blocks: every masterchain block id an answer names (getMasterchainInfo[Ext]'s `last`,
 *   the `id` of account states, headers, lookups, blocks) must be reached by a getBlockProof chain from
 *   the trust anchor: forward links signed by more than 2/3 of the validators that the previous key
 *   block's configuration names, backward links through OldMcBlocksInfo. The anchor is the zero state
 *   (the devnet's, or `validator.zero_state` of a global config) or a global config's `init_block`; the
 *   newest key block reached becomes the start of later chains. getMasterchainInfo's state root hash
 *   must be the one the last block's header commits to, and getMasterchainInfoExt's last_utime its gen_utime
 *   (the rest of Ext, the server's clock and version, is the server's word).
 * - Shard blocks: named by a checked masterchain block through getShardBlockProof links.
 * - getBlockHeader / lookupBlock: the header proof is the block's (a lookup: a block whose shard holds the
 *   shard asked for, read as an account prefix, and by seqno of that workchain and seqno; the zero state,
 *   which has no header, only as the anchor itself); getBlock: the data hashes to the id.
 * - getAccountState[Prunned]: the shard proof (masterchain header + state's shard hashes naming the
 *   shard block) and the account proof (shard block header → state hash → ShardAccounts → the Account
 *   cell's hash), so a changed balance, code or data is refused; absence is proven too.
 *
 * Not checked: transactions (getTransactions carries no proofs), get-method results (runSmcMethod's
 * result is computed by the server), configuration and library answers, sendMessage. Those pass through.
 * A failed check is a LiteVerificationError (v2: 502), never the data.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Cell } from '@ton/core';
import type { LiteEngine } from 'ton-lite-client';
import type { TLFunction } from 'ton-tl';
import { checkAccountState, checkBlockHeader, checkBlockLink, checkShardBlockLink, merkleProofRoot, ProofError, shardContains, type BlockLink, type FullBlockId } from '../ton';
import { LiteVerificationError } from './errors';
import { Functions, type liteServer_BlockLink, type tonNode_blockIdExt } from './tl/codec';
import { LiteFn, encodeLiteCall } from './wire';

/** A trusted masterchain block: the zero state or a key block (global config `init_block`). */
export interface TrustAnchor {
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

const MC_SHARD = 0x8000000000000000n;
/** Rounds of getBlockProof one check may take (16 links each): far more than any chain of key blocks needs between two reads. */
const MAX_PROOF_ROUNDS = 64;
const MAX_TRUSTED = 4096;

type Args = { timeout?: number; awaitSeqno?: number };

/** The functions whose answers #check checks (keep in step with its switch); the rest pass through unchecked. */
const CHECKED = new Set<number>([
  LiteFn.getMasterchainInfo,
  LiteFn.getMasterchainInfoExt,
  LiteFn.getAccountState,
  LiteFn.getAccountStatePrunned,
  LiteFn.getBlockHeader,
  LiteFn.lookupBlock,
  LiteFn.getBlock,
]);

/** What a checked masterchain block's header commits to (absent for blocks known only by id, and for the zero state). */
type Committed = { stateHash?: Buffer; genUtime?: number };
type Req = { kind: string } & Record<string, unknown>;

/** A TL block id as lib/ton's proof checks take it (shard unsigned). */
export const fullBlockId = (id: tonNode_blockIdExt): FullBlockId => ({
  workchain: id.workchain,
  shard: BigInt.asUintN(64, BigInt(id.shard)),
  seqno: id.seqno,
  rootHash: id.rootHash,
  fileHash: id.fileHash,
});
const tl = (id: FullBlockId): tonNode_blockIdExt => ({
  kind: 'tonNode.blockIdExt',
  workchain: id.workchain,
  shard: BigInt.asIntN(64, id.shard).toString(),
  seqno: id.seqno,
  rootHash: id.rootHash,
  fileHash: id.fileHash,
});
const sameId = (a: FullBlockId, b: FullBlockId) =>
  a.workchain === b.workchain && a.shard === b.shard && a.seqno === b.seqno && a.rootHash.equals(b.rootHash) && a.fileHash.equals(b.fileHash);
const idKey = (id: FullBlockId) => `${id.workchain}:${id.shard.toString(16)}:${id.seqno}:${id.rootHash.toString('hex')}:${id.fileHash.toString('hex')}`;
const idText = (id: FullBlockId) => `(${id.workchain},${id.shard.toString(16)},${id.seqno})`;

/** A TL proof chain step as lib/ton's checkBlockLink takes it. */
export function blockLinkOf(step: liteServer_BlockLink): BlockLink {
  return step.kind === 'liteServer.blockLinkForward'
    ? {
        forward: true,
        toKeyBlock: step.toKeyBlock,
        from: fullBlockId(step.from),
        to: fullBlockId(step.to),
        destProof: step.destProof,
        configProof: step.configProof,
        validatorSetHash: step.signatures.validatorSetHash,
        catchainSeqno: step.signatures.catchainSeqno,
        signatures: step.signatures.signatures.map((s) => ({ nodeIdShort: s.nodeIdShort, signature: s.signature })),
      }
    : { forward: false, toKeyBlock: step.toKeyBlock, from: fullBlockId(step.from), to: fullBlockId(step.to), destProof: step.destProof, proof: step.proof, stateProof: step.stateProof };
}

export class VerifyingLiteEngine extends EventEmitter implements LiteEngine {
  readonly inner: LiteEngine;
  /** Checked blocks (masterchain and shard), with what a masterchain block's header commits to when known. */
  readonly #trusted = new Map<string, Committed>();
  /** Where proof chains start: the newest key block reached (first the anchor). */
  #keyBlock: FullBlockId;
  /** The trust anchor: the zero state (seqno 0) or a global config's init block. */
  readonly #anchor: FullBlockId;
  /** One chain check at a time per target: concurrent readers of a new head share it. */
  readonly #pending = new Map<string, Promise<void>>();

  constructor(inner: LiteEngine, anchor: TrustAnchor) {
    super();
    this.inner = inner;
    this.#anchor = { workchain: -1, shard: MC_SHARD, ...anchor };
    this.#keyBlock = this.#anchor;
    this.#remember(this.#keyBlock, {});
    inner.on('connect', () => this.emit('connect'));
    inner.on('ready', () => this.emit('ready'));
    inner.on('close', () => this.emit('close'));
  }

  /** Whether answers of the lite_api function with this id are checked (lib/lite/provenance.ts counts on it). */
  checks(fnId: number): boolean {
    return CHECKED.has(fnId);
  }

  /** The pool's per-server status, when the inner engine is a pool (health diagnostics read it through here). */
  status(): unknown {
    return (this.inner as { status?: () => unknown }).status?.();
  }

  /** The pool's probe of every server's head, passed through like status(). */
  probe(): Promise<void> | undefined {
    return (this.inner as { probe?: () => Promise<void> }).probe?.();
  }

  isClosed(): boolean {
    return this.inner.isClosed();
  }

  isReady(): boolean {
    return this.inner.isReady();
  }

  close(): void {
    this.inner.close();
  }

  async query<REQ, RES>(f: TLFunction<REQ, RES>, req: REQ, args?: Args): Promise<RES> {
    const res = await this.inner.query(f, req, args);
    try {
      await this.#check(f, req, res as Record<string, unknown>, args);
    } catch (e) {
      if (e instanceof ProofError || e instanceof LiteVerificationError) {
        throw new LiteVerificationError(`lite server answer did not verify: ${e.message}`, { cause: e });
      }
      throw e;
    }
    return res;
  }

  async #check<REQ, RES>(f: TLFunction<REQ, RES>, reqIn: REQ, res: Record<string, unknown>, args: Args | undefined): Promise<void> {
    // By the function's id on the wire: the request's `kind` is not reliable (ton-lite-client sends
    // getMasterchainInfo with kind 'liteServer.masterchainInfo').
    const fn = encodeLiteCall(f, reqIn).readUInt32LE(0);
    const req = reqIn as Req;
    switch (fn) {
      case LiteFn.getMasterchainInfo:
      case LiteFn.getMasterchainInfoExt: {
        const last = fullBlockId(res.last as tonNode_blockIdExt);
        const entry = await this.#trustMc(last, args);
        if (!entry.stateHash?.equals(res.stateRootHash as Buffer)) throw new ProofError(`the state root hash is not the one block ${idText(last)} commits to`);
        // (tonlib's sync_utime: v2 answers it next to the account states read at that block)
        if (fn === LiteFn.getMasterchainInfoExt && last.seqno > 0 && res.lastUtime !== entry.genUtime) {
          throw new ProofError(`last_utime ${String(res.lastUtime)} is not the gen_utime ${String(entry.genUtime)} of block ${idText(last)}`);
        }
        return;
      }
      case LiteFn.getAccountState:
      case LiteFn.getAccountStatePrunned: {
        const id = fullBlockId(res.id as tonNode_blockIdExt);
        if (!sameId(id, fullBlockId(req.id as tonNode_blockIdExt))) throw new ProofError(`answer is for block ${idText(id)}, not the one asked for`);
        const shardBlock = fullBlockId(res.shardblk as tonNode_blockIdExt);
        await this.#trustBlock(id, args);
        const account = req.account as { workchain: number; id: Buffer };
        const state = res.state as Buffer;
        checkAccountState({
          mc: id,
          shardBlock,
          account,
          shardProof: res.shardProof as Buffer,
          proof: res.proof as Buffer,
          stateHash: state.length > 0 ? Cell.fromBoc(state)[0].hash(0) : undefined,
        });
        return;
      }
      case LiteFn.getBlockHeader:
      case LiteFn.lookupBlock: {
        const id = fullBlockId(res.id as tonNode_blockIdExt);
        if (fn === LiteFn.getBlockHeader && !sameId(id, fullBlockId(req.id as tonNode_blockIdExt))) throw new ProofError(`answer is for block ${idText(id)}`);
        if (fn === LiteFn.lookupBlock) {
          // A lookup reads the shard asked for as an account prefix: the answer's shard must hold it (a
          // block of another shard is no answer), and by seqno it is the block of that workchain and height.
          const asked = req.id as { workchain: number; shard: string; seqno: number };
          if (id.workchain !== asked.workchain || !shardContains(id.shard, BigInt.asUintN(64, BigInt(asked.shard)))) {
            throw new ProofError(`answer is for block ${idText(id)}, whose shard does not hold ${asked.workchain}:${BigInt.asUintN(64, BigInt(asked.shard)).toString(16)}`);
          }
          if (((req.mode as number) & 1) !== 0 && id.seqno !== asked.seqno) throw new ProofError(`answer is for block ${idText(id)}, not seqno ${asked.seqno} of workchain ${asked.workchain}`);
        }
        if (id.workchain === -1 && id.seqno === 0) {
          // The zero state is no block: it has no header to prove, and is trusted as the anchor or not at all.
          if (!sameId(id, this.#anchor)) throw new ProofError(`${idText(id)} is not the trusted zero state`);
          return;
        }
        checkBlockHeader(merkleProofRoot(res.headerProof as Buffer), id);
        await this.#trustBlock(id, args);
        return;
      }
      case LiteFn.getBlock: {
        const id = fullBlockId(res.id as tonNode_blockIdExt);
        const data = res.data as Buffer;
        if (!sameId(id, fullBlockId(req.id as tonNode_blockIdExt))) throw new ProofError(`answer is for block ${idText(id)}`);
        if (!createHash('sha256').update(data).digest().equals(id.fileHash)) throw new ProofError(`block data of ${idText(id)} does not hash to its file hash`);
        if (!Cell.fromBoc(data)[0].hash(0).equals(id.rootHash)) throw new ProofError(`block data of ${idText(id)} does not hash to its root hash`);
        await this.#trustBlock(id, args);
        return;
      }
      default:
        return;
    }
  }

  #remember(id: FullBlockId, entry: Committed): Committed {
    const key = idKey(id);
    const had = this.#trusted.get(key);
    const merged = { stateHash: entry.stateHash ?? had?.stateHash, genUtime: entry.genUtime ?? had?.genUtime };
    this.#trusted.delete(key);
    this.#trusted.set(key, merged);
    if (this.#trusted.size > MAX_TRUSTED) this.#trusted.delete(this.#trusted.keys().next().value as string);
    return merged;
  }

  async #trustBlock(id: FullBlockId, args: Args | undefined): Promise<void> {
    if (id.workchain === -1) await this.#trustMc(id, args);
    else await this.#trustShard(id, args);
  }

  /** Checks a masterchain block through a proof chain from the newest trusted key block; returns what its header commits to. */
  async #trustMc(id: FullBlockId, args: Args | undefined): Promise<Committed> {
    const key = idKey(id);
    const known = this.#trusted.get(key);
    if (known && (known.stateHash || id.seqno === 0)) return known;
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = this.#proveMc(id, args).finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    await pending;
    return this.#trusted.get(key) ?? {};
  }

  async #proveMc(target: FullBlockId, args: Args | undefined): Promise<void> {
    let cur = this.#keyBlock;
    let lastHeader: Committed = {};
    for (let round = 0; round < MAX_PROOF_ROUNDS; round++) {
      if (sameId(cur, target) && (lastHeader.stateHash || target.seqno === 0)) break;
      const res = await this.inner.query(
        Functions.liteServer_getBlockProof,
        { kind: 'liteServer.getBlockProof', mode: 1, knownBlock: tl(cur), targetBlock: tl(target) },
        { timeout: args?.timeout },
      );
      if (!sameId(fullBlockId(res.from), cur)) throw new ProofError(`block proof starts at ${idText(fullBlockId(res.from))}, not at the trusted ${idText(cur)}`);
      if (res.steps.length === 0) {
        if (sameId(cur, target)) {
          // The target is the chain's start: its header (state hash) comes from a link that reaches it.
          throw new ProofError(`no proof of the state of ${idText(target)}`);
        }
        throw new ProofError(`block proof from ${idText(cur)} to ${idText(target)} has no links`);
      }
      for (const step of res.steps) {
        const link = blockLinkOf(step);
        if (!sameId(link.from, cur)) throw new ProofError(`proof link starts at ${idText(link.from)}, the chain is at ${idText(cur)}`);
        const out = checkBlockLink(link);
        lastHeader = { stateHash: out.header?.stateHash, genUtime: out.header?.info.genUtime };
        this.#remember(link.to, lastHeader);
        if (link.toKeyBlock && link.to.seqno > this.#keyBlock.seqno) this.#keyBlock = link.to;
        cur = link.to;
      }
      if (!sameId(fullBlockId(res.to), cur)) throw new ProofError(`block proof says it ends at ${idText(fullBlockId(res.to))}, its links end at ${idText(cur)}`);
      if (res.complete && !sameId(cur, target)) throw new ProofError(`block proof ends at ${idText(cur)}, not at ${idText(target)}`);
      if (sameId(cur, target)) return;
    }
    if (!sameId(cur, target)) throw new ProofError(`block proof to ${idText(target)} did not complete`);
  }

  async #trustShard(id: FullBlockId, args: Args | undefined): Promise<void> {
    if (this.#trusted.has(idKey(id))) return;
    const res = await this.inner.query(Functions.liteServer_getShardBlockProof, { kind: 'liteServer.getShardBlockProof', id: tl(id) }, { timeout: args?.timeout });
    let cur = fullBlockId(res.masterchainId);
    if (cur.workchain !== -1) throw new ProofError('shard block proof does not start at a masterchain block');
    await this.#trustMc(cur, args);
    for (const link of res.links) {
      const next = fullBlockId(link.id);
      checkShardBlockLink(cur, next, link.proof);
      cur = next;
    }
    if (!sameId(cur, id)) throw new ProofError(`shard block proof ends at ${idText(cur)}, not at ${idText(id)}`);
    this.#remember(id, {});
  }
}
