/**
 * lite_api group: proof chains. getBlockProof builds the node's chains between masterchain blocks
 * (forward links signed by the devnet's validators, lib/devnet/validators.ts; backward links through
 * OldMcBlocksInfo), getShardBlockProof the masterchain block naming a shard block.
 */
import { serializeBoc } from '../../ton';
import type { BlockMeta, DevnetChain } from '../chain';
import { blockShardHashesProof, keyBlockConfigProof, prevBlockStateProof, zeroStateConfigProof } from '../proofs';
import { MASTERCHAIN } from '../state';
import { LiteErrorCodes, LiteServerError, type LiteMethods, type tonNode_blockIdExt } from '../../lite/tl/codec';
import { NOT_FOUND, tlId, type LiteContext } from './context';

/** Links of a getBlockProof answer (the node's limit); the client asks again from where it ended. */
const MAX_PROOF_LINKS = 16;

type Validators = NonNullable<DevnetChain['validators']>;

/** Key masterchain blocks (the zero state first), found once: prev(seqno) = the last at or before, next(seqno) = the first at or after. */
function keyBlockIndex(chain: DevnetChain) {
  const seqnos: number[] = [0];
  let scanned = 0;
  const refresh = () => {
    const list = chain.store.masterchain();
    for (; scanned < list.length; scanned++) if (list[scanned].keyBlock && list[scanned].seqno > 0) seqnos.push(list[scanned].seqno);
  };
  return {
    prev(seqno: number): BlockMeta {
      refresh();
      let k = 0;
      for (const s of seqnos) if (s <= seqno) k = s;
      return chain.block(MASTERCHAIN, k)!;
    },
    next(seqno: number): BlockMeta | undefined {
      refresh();
      const k = seqnos.find((s) => s >= seqno && s <= chain.lastSeqno);
      return k === undefined ? undefined : chain.block(MASTERCHAIN, k);
    },
  };
}

export function blockProofMethods(ctx: LiteContext) {
  const { chain } = ctx;
  const keyBlocks = keyBlockIndex(chain);

  /** The devnet's validators when they can sign (a devnet made before it had validators cannot). */
  const signingValidators = (): Validators => {
    const v = chain.validators;
    if (!v?.canSign) {
      throw new LiteServerError(
        LiteErrorCodes.failure,
        'this devnet was created before it had validators of its own (its configuration holds mainnet\'s set): its blocks carry no signatures; start a new devnet directory',
      );
    }
    return v;
  };

  const signaturesOf = (m: BlockMeta, validators: Validators) => {
    const key = `${m.seqno}`;
    return ctx.signatures.get(key) ?? ctx.signatures.set(key, validators.sign(m));
  };

  // A link's dest_proof: the header proof of a masterchain block, or nothing for the zero state.
  const forwardLink = (from: BlockMeta, to: BlockMeta, validators: Validators) => ({
    kind: 'liteServer.blockLinkForward' as const,
    toKeyBlock: to.keyBlock,
    from: tlId(from),
    to: tlId(to),
    destProof: ctx.headerProofBoc(to),
    configProof: serializeBoc(from.seqno === 0 ? zeroStateConfigProof(chain.state(MASTERCHAIN, 0)!) : keyBlockConfigProof(chain.store.root(from))),
    signatures: {
      kind: 'liteServer.signatureSet' as const,
      validatorSetHash: validators.mcListHashShort | 0,
      catchainSeqno: 0,
      signatures: signaturesOf(to, validators).map((s) => ({ kind: 'liteServer.signature' as const, nodeIdShort: s.nodeIdShort, signature: s.signature })),
    },
  });

  const backLink = (from: BlockMeta, to: BlockMeta) => ({
    kind: 'liteServer.blockLinkBack' as const,
    toKeyBlock: to.keyBlock,
    from: tlId(from),
    to: tlId(to),
    destProof: ctx.headerProofBoc(to),
    proof: serializeBoc(ctx.headerProof(from)!),
    stateProof: serializeBoc(prevBlockStateProof(ctx.stateOf(from), to.seqno)),
  });

  return {
    'liteServer.getBlockProof': (req: { mode: number; knownBlock: tonNode_blockIdExt; targetBlock?: tonNode_blockIdExt | null }) => {
      const validators = signingValidators();
      const from = ctx.resolveMc(req.knownBlock);
      const to = req.mode & 1 && req.targetBlock ? ctx.resolveMc(req.targetBlock) : ctx.ready();
      const steps = [];
      let cur = from;
      // The node's construct_proof_chain: back to the previous key block, forward from a key block to
      // the next key block (or the target), back when the target is behind; at most 16 links an answer.
      while (steps.length < MAX_PROOF_LINKS && cur.seqno !== to.seqno) {
        let next: BlockMeta;
        if (to.seqno < cur.seqno) next = to;
        else {
          const prevKey = keyBlocks.prev(cur.seqno);
          if (prevKey.seqno !== cur.seqno) next = prevKey;
          else {
            next = keyBlocks.next(cur.seqno + 1) ?? to;
            steps.push(forwardLink(cur, next, validators));
            cur = next;
            continue;
          }
        }
        steps.push(backLink(cur, next));
        cur = next;
      }
      return { kind: 'liteServer.partialBlockProof' as const, complete: cur.seqno === to.seqno, from: tlId(from), to: tlId(cur), steps };
    },
    'liteServer.getShardBlockProof': (req: { id: tonNode_blockIdExt }) => {
      const m = ctx.resolve(req.id);
      if (m.workchain === MASTERCHAIN) throw new LiteServerError(LiteErrorCodes.error, 'getShardBlockProof needs a shard block (a masterchain block is its own proof)');
      if (m.seqno === 0) throw new LiteServerError(NOT_FOUND, 'the zero state is not a block');
      // Lockstep: masterchain block k registers every basechain block of round k as its shard's top
      // block (the node uses the masterchain block that registered the target), so one link (the
      // masterchain block's shard hashes naming it) reaches the target, before or after a split or merge.
      const mc = chain.block(MASTERCHAIN, m.seqno)!;
      return {
        kind: 'liteServer.shardBlockProof' as const,
        masterchainId: tlId(mc),
        links: [{ kind: 'liteServer.shardBlockLink' as const, id: tlId(m), proof: serializeBoc(blockShardHashesProof(chain.store.root(mc))) }],
      };
    },
  } satisfies LiteMethods;
}
