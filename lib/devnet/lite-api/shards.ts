/** lite_api group: the basechain's shards as a masterchain block registers them, and out message queues. */
import { beginCell } from '@ton/core';
import {
  MASTER_SHARD,
  listShards,
  loadOutMsgQueueInfo,
  loadShardStateUnsplitFull,
  outMsgQueueEntries,
  serializeBoc,
  shardContains,
  shardsIntersect,
  storeShardDescr,
  storeShardHashes,
} from '../../ton';
import { LiteErrorCodes, LiteServerError, type LiteMethods, type tonNode_blockIdExt } from '../../lite/tl/codec';
import { MASTERCHAIN } from '../state';
import { NOT_FOUND, checkShard, tlId, unavailable, type LiteContext } from './context';

export function shardMethods(ctx: LiteContext) {
  const { chain } = ctx;
  return {
    'liteServer.getShardInfo': (req: { id: tonNode_blockIdExt; workchain: number; shard: string; exact: boolean }) => {
      const mc = ctx.resolve(req.id);
      if (mc.workchain !== MASTERCHAIN) throw new LiteServerError(LiteErrorCodes.error, 'getShardInfo needs a masterchain block');
      const want = checkShard(req.workchain, req.shard);
      if (req.workchain === MASTERCHAIN) throw new LiteServerError(NOT_FOUND, 'the masterchain is not a shard of itself');
      // exact: that very shard; otherwise the shard holding it (the node walks the BinTree along its prefix).
      const info = listShards(ctx.shardHashesAt(mc)).find((s) => s.workchain === req.workchain && (req.exact ? s.shard === want : shardContains(s.shard, want)));
      if (!info) throw new LiteServerError(NOT_FOUND, `shard ${req.workchain}:${want.toString(16)} not found`);
      const d = info.descr;
      return {
        kind: 'liteServer.shardInfo' as const,
        id: tlId(mc),
        shardblk: { kind: 'tonNode.blockIdExt' as const, workchain: req.workchain, shard: BigInt.asIntN(64, info.shard).toString(), seqno: d.seqno, rootHash: d.rootHash, fileHash: d.fileHash },
        shardProof: ctx.shardProofOf(mc),
        shardDescr: serializeBoc(beginCell().store(storeShardDescr(d)).endCell()),
      };
    },
    'liteServer.getAllShardsInfo': (req: { id: tonNode_blockIdExt }) => {
      const mc = ctx.resolve(req.id);
      if (mc.workchain !== MASTERCHAIN) throw new LiteServerError(LiteErrorCodes.error, 'getAllShardsInfo needs a masterchain block');
      return {
        kind: 'liteServer.allShardsInfo' as const,
        id: tlId(mc),
        proof: ctx.headerProofBoc(mc),
        data: serializeBoc(beginCell().store(storeShardHashes(ctx.shardHashesAt(mc))).endCell()),
      };
    },
    'liteServer.getOutMsgQueueSizes': (req: { mode: number; wc?: number | null; shard?: string | null }) => {
      // The masterchain's queue stays empty (its messages are delivered in their round); each basechain shard's holds what it sent to other shards.
      const all = [{ meta: ctx.ready(), size: 0 }, ...chain.queueSizes()];
      const want = req.mode & 1 ? { wc: req.wc, shard: BigInt.asUintN(64, BigInt(req.shard ?? MASTER_SHARD)) } : undefined;
      const shards = all
        .filter(({ meta }) => !want || (meta.workchain === want.wc && shardsIntersect(meta.shard, want.shard)))
        .map(({ meta, size }) => ({ kind: 'liteServer.outMsgQueueSize' as const, id: tlId(meta), size }));
      return { kind: 'liteServer.outMsgQueueSizes' as const, shards, extMsgQueueSizeLimit: 0 };
    },
    'liteServer.getBlockOutMsgQueueSize': (req: { mode: number; id: tonNode_blockIdExt; wantProof?: boolean | null }) => {
      const m = ctx.resolve(req.id);
      if (req.wantProof) throw unavailable('out message queue proofs');
      const size = m.workchain === MASTERCHAIN ? 0 : outMsgQueueEntries(loadOutMsgQueueInfo(loadShardStateUnsplitFull(ctx.stateOf(m).beginParse()).outMsgQueueInfo).queue).size;
      return { kind: 'liteServer.blockOutMsgQueueSize' as const, mode: 0, id: tlId(m), size: String(size) };
    },
  } satisfies LiteMethods;
}
