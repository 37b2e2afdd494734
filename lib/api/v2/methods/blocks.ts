// Block routes (api-v2.md §2.3, §3.9): masterchain head, block lookups, headers, shards, proofs and
// signatures, all read live through the lite client.
import { Cell } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema';
import { z } from 'zod';
import { Functions as FullFunctions } from '../../../lite/tl/codec';
import { listShards, loadBlockInfo, loadShardHashes, shardIdOf, type BlkPrevInfo, type ExtBlkRef } from '../../../ton';
import { LiteServerError, normalizeLiteError } from '../../../lite/errors';
import { blockIdJson, blockParams, MASTER_SHARD, masterchainBlock, oneMasterchainShard, positiveSeqno, resolveBlock, shardString } from '../block-json';
import { invalidRequest, V2Error } from '../errors';
import { defineMethod } from '../method';
import { int32, int64 } from '../params';

/** A target block given both ways: mode bit 0 of getBlockProof says the target is present. */
const PROOF_TO_TARGET = 1;

export const getMasterchainInfo = defineMethod({
  name: 'getMasterchainInfo',
  verbs: 'read',
  summary: 'The last masterchain block, its state root hash and the zero state',
  params: z.object({}),
  async run(_, ctx) {
    const info = await (await ctx.lite()).getMasterchainInfo();
    return {
      '@type': 'blocks.masterchainInfo',
      last: blockIdJson(info.last),
      state_root_hash: info.stateRootHash.toString('base64'),
      init: blockIdJson({ ...info.init, shard: MASTER_SHARD, seqno: 0 }),
    };
  },
});

/** Follows getBlockProof from `known` until it reaches `target` (a proof may come in several parts). */
async function blockProofSteps(client: LiteClient, known: tonNode_blockIdExt, target: tonNode_blockIdExt) {
  const steps = [];
  let from = known;
  for (let i = 0; i < 64; i++) {
    const part = await client.engine.query(Functions.liteServer_getBlockProof, {
      kind: 'liteServer.getBlockProof',
      mode: PROOF_TO_TARGET,
      knownBlock: from,
      targetBlock: target,
    });
    steps.push(...part.steps);
    if (part.complete || part.steps.length === 0) return steps;
    from = part.to;
  }
  throw new V2Error(500, `block proof from ${known.seqno} to ${target.seqno} did not complete`);
}

export const getMasterchainBlockSignatures = defineMethod({
  name: 'getMasterchainBlockSignatures',
  verbs: 'read',
  summary: "Validators' signatures of a masterchain block",
  params: z.object({ seqno: positiveSeqno() }),
  async run({ seqno }, ctx) {
    const client = await ctx.lite();
    const id = await masterchainBlock(client, seqno);
    const prev = await masterchainBlock(client, seqno - 1);
    // The forward link from the previous block to this one carries the signatures that commit to it.
    const steps = await blockProofSteps(client, prev, id);
    const link = steps.find((s) => s.kind === 'liteServer.blockLinkForward' && s.to.seqno === seqno);
    if (!link || link.kind !== 'liteServer.blockLinkForward') throw new V2Error(500, `the liteserver gave no signatures for masterchain block ${seqno}`);
    return {
      '@type': 'blocks.blockSignatures',
      id: blockIdJson(id),
      signatures: link.signatures.signatures.map((s) => ({
        '@type': 'blocks.signature',
        node_id_short: s.nodeIdShort.toString('base64'),
        signature: s.signature.toString('base64'),
      })),
    };
  },
});

export const getShardBlockProof = defineMethod({
  name: 'getShardBlockProof',
  verbs: 'read',
  summary: 'Proof that a block is committed to by the masterchain, back from a trusted masterchain block',
  params: z.object({
    workchain: blockParams.workchain,
    shard: blockParams.shard,
    seqno: blockParams.seqno,
    from_seqno: int32('a masterchain seqno', 0n).optional(),
  }).superRefine(oneMasterchainShard),
  async run(p, ctx) {
    const client = await ctx.lite();
    const target = await resolveBlock(client, p);
    const from = p.from_seqno ? await masterchainBlock(client, p.from_seqno) : (await client.getMasterchainInfo()).last;
    let mcId = target;
    let links: { '@type': string; id: ReturnType<typeof blockIdJson>; proof: string }[] = [];
    if (target.workchain !== -1) {
      const proof = await client.engine.query(Functions.liteServer_getShardBlockProof, { kind: 'liteServer.getShardBlockProof', id: target });
      mcId = proof.masterchainId;
      links = proof.links.map((l) => ({ '@type': 'blocks.shardBlockLink', id: blockIdJson(l.id), proof: l.proof.toString('base64') }));
    }
    const back = from.seqno === mcId.seqno ? [] : await blockProofSteps(client, from, mcId);
    return {
      '@type': 'blocks.shardBlockProof',
      from: blockIdJson(from),
      mc_id: blockIdJson(mcId),
      links,
      mc_proof: back.flatMap((s) =>
        s.kind === 'liteServer.blockLinkBack'
          ? [
              {
                '@type': 'blocks.blockLinkBack',
                to_key_block: s.toKeyBlock,
                from: blockIdJson(s.from),
                to: blockIdJson(s.to),
                dest_proof: s.destProof.toString('base64'),
                proof: s.proof.toString('base64'),
                state_proof: s.stateProof.toString('base64'),
              },
            ]
          : [],
      ),
    };
  },
});

export const getConsensusBlock = defineMethod({
  name: 'getConsensusBlock',
  verbs: 'read',
  summary: 'The highest masterchain seqno the liteservers agree on',
  params: z.object({}),
  async run(_, ctx) {
    const info = await (await ctx.lite()).getMasterchainInfo();
    return { '@type': 'ext.blocks.consensusBlock', consensus_block: info.last.seqno, timestamp: Math.floor(Date.now() / 1000) };
  },
});

export const lookupBlock = defineMethod({
  name: 'lookupBlock',
  verbs: 'read',
  summary: 'A block id by seqno, by logical time or by generation time (exactly one)',
  params: z.object({
    workchain: blockParams.workchain,
    shard: blockParams.shard,
    seqno: positiveSeqno().optional(),
    lt: int64('a non-negative lt', 0n).optional(),
    unixtime: int32('a non-negative unix time', 0n).optional(),
  }).superRefine(oneMasterchainShard),
  async run(p, ctx) {
    const given = [p.seqno, p.lt, p.unixtime].filter((x) => x !== undefined).length;
    if (given !== 1) throw invalidRequest('failed to validate request: exactly one of seqno, lt and unixtime is required');
    const client = await ctx.lite();
    const where = { workchain: p.workchain, shard: p.shard.toString() };
    const header =
      p.seqno !== undefined
        ? await client.lookupBlockByID({ ...where, seqno: p.seqno })
        : p.lt !== undefined
          ? await client.lookupBlockByLt({ ...where, lt: p.lt })
          : // ton-lite-client leaves a zero utime out of the query (an invalid TL request); no block is
            // generated at time 0 or 1, so asking for 1 finds what 0 would.
            await client.lookupBlockByUtime({ ...where, utime: Math.max(p.unixtime!, 1) });
    return blockIdJson(header.id);
  },
});

const shardsMethod = (name: string) =>
  defineMethod({
    name,
    verbs: 'read',
    summary: 'The top shard blocks a masterchain block refers to',
    params: z.object({ seqno: positiveSeqno() }),
    async run({ seqno }, ctx) {
      const client = await ctx.lite();
      const mc = await masterchainBlock(client, seqno);
      const res = await client.engine.query(Functions.liteServer_getAllShardsInfo, { kind: 'liteServer.getAllShardsInfo', id: mc });
      const shards = listShards(loadShardHashes(Cell.fromBoc(res.data)[0]!.beginParse()));
      return {
        '@type': 'blocks.shards',
        shards: shards.map((s) => blockIdJson({ workchain: s.workchain, shard: s.shard, seqno: s.descr.seqno, rootHash: s.descr.rootHash, fileHash: s.descr.fileHash })),
      };
    },
  });

export const getShards = shardsMethod('getShards');
export const shards = shardsMethod('shards');

const U64 = 2n ** 64n;

/** The blocks before one: its shard's previous block, the parent's after a split, both children's after a merge. */
function prevBlocks(workchain: number, shard: bigint, prev: BlkPrevInfo, afterSplit: boolean) {
  const u = BigInt.asUintN(64, shard);
  const low = u & (U64 - u); // lowest set bit: the shard's tag
  const id = (ref: ExtBlkRef, s: bigint) => blockIdJson({ workchain, shard: s, seqno: ref.seqno, rootHash: ref.rootHash, fileHash: ref.fileHash });
  if (prev.kind === 'merged') return [id(prev.prev1, u - (low >> 1n)), id(prev.prev2, u + (low >> 1n))];
  const parent = afterSplit ? ((u - low) | (low << 1n)) % U64 : u;
  return [id(prev.prev, parent)];
}

export const getBlockHeader = defineMethod({
  name: 'getBlockHeader',
  verbs: 'read',
  summary: "A block's header fields",
  params: z.object(blockParams).superRefine(oneMasterchainShard),
  async run(p, ctx) {
    const client = await ctx.lite();
    const id = await resolveBlock(client, p);
    const given = p.root_hash && p.file_hash;
    const named = `block (${p.workchain},${shardString(p.shard)},${p.seqno}) with root_hash ${id.rootHash.toString('hex')} and file_hash ${id.fileHash.toString('hex')}`;
    const res = await client.getBlockHeader(id).catch((err: unknown) => {
      // Hashes the liteserver knows no block by are the request's mistake.
      if (given && normalizeLiteError(err, 0) instanceof LiteServerError) throw invalidRequest(`${named} does not exist`);
      throw err;
    });
    // A liteserver may find a block by its root hash alone: the answer must be the block asked for.
    if (!res.id.rootHash.equals(id.rootHash) || !res.id.fileHash.equals(id.fileHash) || res.id.seqno !== id.seqno || res.id.workchain !== id.workchain) {
      throw invalidRequest(`${named} does not exist (the liteserver has ${blockIdJson(res.id).root_hash} / ${blockIdJson(res.id).file_hash})`);
    }
    // header_proof is a Merkle proof of the block: its root keeps the tag, global_id and the BlockInfo ref.
    const root = Cell.fromBoc(res.headerProof)[0]!.refs[0]!;
    if (!root.hash(0).equals(res.id.rootHash)) throw new V2Error(500, `the liteserver's header proof is not of block ${res.id.seqno}`);
    const s = root.beginParse();
    s.loadUint(32);
    const globalId = s.loadInt(32);
    const info = loadBlockInfo(root.refs[0]!.beginParse());
    return {
      '@type': 'blocks.header',
      id: blockIdJson(res.id),
      global_id: globalId,
      version: info.version,
      after_merge: info.afterMerge,
      after_split: info.afterSplit,
      before_split: info.beforeSplit,
      want_merge: info.wantMerge,
      want_split: info.wantSplit,
      validator_list_hash_short: info.genValidatorListHashShort | 0,
      catchain_seqno: info.genCatchainSeqno,
      min_ref_mc_seqno: info.minRefMcSeqno,
      is_key_block: info.keyBlock,
      prev_key_block_seqno: info.prevKeyBlockSeqno,
      start_lt: info.startLt.toString(),
      end_lt: info.endLt.toString(),
      gen_utime: info.genUtime,
      prev_blocks: prevBlocks(res.id.workchain, shardIdOf(info.shard), info.prevRef, info.afterSplit),
    };
  },
});

export const getOutMsgQueueSize = defineMethod({
  name: 'getOutMsgQueueSize',
  verbs: 'read',
  summary: 'Outbound message queue sizes of the current top blocks',
  params: z.object({}),
  async run(_, ctx) {
    const client = await ctx.lite();
    const res = await client.engine.query(FullFunctions.liteServer_getOutMsgQueueSizes, { kind: 'liteServer.getOutMsgQueueSizes', mode: 0, wc: null, shard: null });
    return {
      '@type': 'blocks.outMsgQueueSizes',
      shards: res.shards.map((s) => ({ '@type': 'blocks.outMsgQueueSize', id: blockIdJson(s.id), size: s.size })),
      ext_msg_queue_size_limit: res.extMsgQueueSizeLimit,
    };
  },
});

