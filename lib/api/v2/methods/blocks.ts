// Block routes (api-v2.md §2.3, §3.9): masterchain head, block lookups, headers, shards, proofs and
// signatures, read live through the lite client; lookups, headers and shards of blocks the lite servers
// pruned are answered from the index when it holds them (history.ts), in the same JSON.
import { Cell } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema';
import { z } from 'zod';
import { Functions as FullFunctions } from '../../../lite/tl/codec';
import { listShards, loadBlockInfo, loadShardHashes, shardChild, shardIdOf, shardParent, type BlkPrevInfo, type ExtBlkRef } from '../../../ton';
import { isHistoryGone, LiteServerError, normalizeLiteError } from '../../../lite/errors';
import { blockIdJson, blockParams, MASTER_SHARD, masterchainBlock, oneMasterchainShard, positiveSeqno, resolveBlock, shardString, type BlockIdLike } from '../block-json';
import { indexedBlockByLt, indexedBlockBySeqno, indexedBlockByUtime, indexedBlockOf, indexedShards, withHistory, type IndexedBlock, type V2HeaderField } from '../history';
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
    // ton-lite-client leaves a zero utime out of the query (an invalid TL request); no block is
    // generated at time 0 or 1, so asking for 1 finds what 0 would.
    const utime = Math.max(p.unixtime ?? 1, 1);
    const live = async () =>
      blockIdJson(
        (
          p.seqno !== undefined
            ? await client.lookupBlockByID({ ...where, seqno: p.seqno })
            : p.lt !== undefined
              ? await client.lookupBlockByLt({ ...where, lt: p.lt })
              : await client.lookupBlockByUtime({ ...where, utime })
        ).id,
      );
    return withHistory(await ctx.db?.(), live, async (db) => {
      const block =
        p.seqno !== undefined
          ? await indexedBlockBySeqno(db, p.workchain, p.shard, p.seqno)
          : p.lt !== undefined
            ? await indexedBlockByLt(db, p.workchain, p.shard, p.lt)
            : await indexedBlockByUtime(db, p.workchain, p.shard, utime);
      return block && blockIdJson(block);
    });
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
      const json = (shards: BlockIdLike[]) => ({ '@type': 'blocks.shards', shards: shards.map(blockIdJson) });
      const live = async () => {
        const mc = await masterchainBlock(client, seqno);
        const res = await client.engine.query(Functions.liteServer_getAllShardsInfo, { kind: 'liteServer.getAllShardsInfo', id: mc });
        const shards = listShards(loadShardHashes(Cell.fromBoc(res.data)[0]!.beginParse()));
        return json(shards.map((s) => ({ workchain: s.workchain, shard: s.shard, seqno: s.descr.seqno, rootHash: s.descr.rootHash, fileHash: s.descr.fileHash })));
      };
      return withHistory(await ctx.db?.(), live, async (db) => {
        const shards = await indexedShards(db, seqno);
        return shards && json(shards);
      });
    },
  });

export const getShards = shardsMethod('getShards');
export const shards = shardsMethod('shards');

/** The blocks before one: its shard's previous block, the parent's after a split, both children's after a merge. */
function prevBlocks(workchain: number, shard: bigint, prev: BlkPrevInfo, afterSplit: boolean) {
  const u = BigInt.asUintN(64, shard);
  const id = (ref: ExtBlkRef, s: bigint) => blockIdJson({ workchain, shard: s, seqno: ref.seqno, rootHash: ref.rootHash, fileHash: ref.fileHash });
  if (prev.kind === 'merged') return [id(prev.prev1, shardChild(u, false)), id(prev.prev2, shardChild(u, true))];
  return [id(prev.prev, afterSplit ? shardParent(u) : u)];
}

export const getBlockHeader = defineMethod({
  name: 'getBlockHeader',
  verbs: 'read',
  summary: "A block's header fields",
  params: z.object(blockParams).superRefine(oneMasterchainShard),
  async run(p, ctx) {
    const client = await ctx.lite();
    return withHistory(await ctx.db?.(), () => liveHeader(client, p), async (db) => {
      const block = await indexedBlockOf(db, p);
      return block && headerJson(block, indexedHeader(block));
    });
  },
});

/** The header fields v2 shows, read from a header proof (live) or the index's row. */
interface HeaderFields extends Pick<IndexedBlock, V2HeaderField | 'genUtime'> {
  validatorListHashShort: number;
  catchainSeqno: number;
  prevBlocks: ReturnType<typeof blockIdJson>[];
}

function headerJson(id: BlockIdLike, h: HeaderFields) {
  return {
    '@type': 'blocks.header',
    id: blockIdJson(id),
    global_id: h.globalId,
    version: h.version,
    after_merge: h.afterMerge,
    after_split: h.afterSplit,
    before_split: h.beforeSplit,
    want_merge: h.wantMerge,
    want_split: h.wantSplit,
    validator_list_hash_short: h.validatorListHashShort,
    catchain_seqno: h.catchainSeqno,
    min_ref_mc_seqno: h.minRefMcSeqno,
    is_key_block: h.keyBlock,
    prev_key_block_seqno: h.prevKeyBlockSeqno,
    start_lt: h.startLt.toString(),
    end_lt: h.endLt.toString(),
    gen_utime: h.genUtime,
    prev_blocks: h.prevBlocks,
  };
}

function indexedHeader(b: IndexedBlock): HeaderFields {
  return {
    ...b,
    // int32 in tonlib's JSON, uint32 in the block and the index
    validatorListHashShort: Number(b.validatorListHashShort) | 0,
    catchainSeqno: b.genCatchainSeqno,
    prevBlocks: b.prevBlocks.map((x) =>
      blockIdJson({ workchain: x.workchain, shard: x.shard, seqno: x.seqno, rootHash: Buffer.from(x.root_hash, 'base64'), fileHash: Buffer.from(x.file_hash, 'base64') }),
    ),
  };
}

async function liveHeader(client: LiteClient, p: { workchain: number; shard: bigint; seqno: number; root_hash?: Buffer; file_hash?: Buffer }) {
  const id = await resolveBlock(client, p);
  const given = p.root_hash && p.file_hash;
  const named = `block (${p.workchain},${shardString(p.shard)},${p.seqno}) with root_hash ${id.rootHash.toString('hex')} and file_hash ${id.fileHash.toString('hex')}`;
  const res = await client.getBlockHeader(id).catch((err: unknown) => {
    // Hashes the liteserver knows no block by are the request's mistake (not a block it pruned).
    if (given && normalizeLiteError(err, 0) instanceof LiteServerError && !isHistoryGone(err)) throw invalidRequest(`${named} does not exist`);
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
  return headerJson(res.id, {
    ...info,
    globalId,
    validatorListHashShort: info.genValidatorListHashShort | 0,
    catchainSeqno: info.genCatchainSeqno,
    prevBlocks: prevBlocks(res.id.workchain, shardIdOf(info.shard), info.prevRef, info.afterSplit),
  });
}

/** toncenter names this method both ways: the C++ service getOutMsgQueueSize, its public docs getOutMsgQueueSizes. */
const outMsgQueueSizesMethod = (name: string) =>
  defineMethod({
    name,
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

export const getOutMsgQueueSize = outMsgQueueSizesMethod('getOutMsgQueueSize');
export const getOutMsgQueueSizes = outMsgQueueSizesMethod('getOutMsgQueueSizes');

