/** lite_api group: blocks and states by id, block headers, and looking blocks up by seqno, lt or utime. */
import { createHash } from 'node:crypto';
import { serializeBoc } from '../../ton';
import type { BlockMeta } from '../chain';
import { LiteErrorCodes, LiteServerError, type LiteMethods, type tonNode_blockIdExt } from '../../lite/tl/codec';
import { MASTERCHAIN } from '../state';
import { EMPTY, NOT_FOUND, checkShard, tlId, type LiteContext } from './context';

type ShortBlockId = { workchain: number; shard: string; seqno: number };

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

export function blockMethods(ctx: LiteContext) {
  const { chain } = ctx;

  // The node looks blocks up by account prefix: the shard id given is read as one, so any shard (or an
  // ancestor or descendant of one) finds the block of the shard holding that prefix at the time.
  const lookup = (mode: number, id: ShortBlockId, lt?: string | null, utime?: number | null): BlockMeta => {
    const prefix = checkShard(id.workchain, id.shard);
    let m: BlockMeta | undefined;
    if (mode & 1) m = chain.blockHolding(id.workchain, id.seqno, prefix);
    else if (mode & 2) {
      if (lt === undefined || lt === null) throw new LiteServerError(LiteErrorCodes.protoviolation, 'lookupBlock: mode 2 needs lt');
      m = chain.store.byLt(id.workchain, BigInt(lt), prefix);
    } else if (mode & 4) {
      if (utime === undefined || utime === null) throw new LiteServerError(LiteErrorCodes.protoviolation, 'lookupBlock: mode 4 needs utime');
      m = chain.store.byUtime(id.workchain, utime, prefix);
    } else {
      throw new LiteServerError(LiteErrorCodes.protoviolation, 'lookupBlock: mode must have bit 0 (seqno), 1 (lt) or 2 (utime)');
    }
    if (!m || m.seqno > chain.lastSeqno) throw new LiteServerError(NOT_FOUND, 'ltdb: block not found');
    return m;
  };

  return {
    'liteServer.getBlock': (req: { id: tonNode_blockIdExt }) => {
      const m = ctx.resolve(req.id);
      if (m.seqno === 0) throw new LiteServerError(NOT_FOUND, 'the zero state is not a block (use liteServer.getState)');
      return { kind: 'liteServer.blockData' as const, id: tlId(m), data: chain.store.boc(m) };
    },
    'liteServer.getState': (req: { id: tonNode_blockIdExt }) => {
      const m = ctx.resolve(req.id);
      const state = ctx.stateOf(m);
      const data = serializeBoc(state);
      return {
        kind: 'liteServer.blockState' as const,
        id: tlId(m),
        rootHash: state.hash(),
        fileHash: m.seqno === 0 ? m.fileHash : sha256(data),
        data,
      };
    },
    'liteServer.getBlockHeader': (req: { id: tonNode_blockIdExt; mode: number }) => {
      const m = ctx.resolve(req.id);
      return { kind: 'liteServer.blockHeader' as const, id: tlId(m), mode: req.mode, headerProof: ctx.headerProofBoc(m) };
    },
    'liteServer.lookupBlock': (req: { mode: number; id: ShortBlockId; lt?: string | null; utime?: number | null }) => {
      const m = lookup(req.mode, req.id, req.lt, req.utime);
      return { kind: 'liteServer.blockHeader' as const, id: tlId(m), mode: req.mode, headerProof: ctx.headerProofBoc(m) };
    },
    'liteServer.lookupBlockWithProof': (req: { mode: number; id: ShortBlockId; mcBlockId: tonNode_blockIdExt; lt?: string | null; utime?: number | null }) => {
      const m = lookup(req.mode, req.id, req.lt, req.utime);
      const mc = chain.block(MASTERCHAIN, m.seqno)!; // lockstep: masterchain block k registers the basechain blocks of round k
      // Its predecessor in the same place: the shard's, the parent's after a split, the left child's after a merge.
      const prev = m.seqno > 0 ? chain.blockHolding(m.workchain, m.seqno - 1, m.shard) : undefined;
      const pp = prev && (req.mode & 6) !== 0 ? ctx.headerProof(prev) : undefined;
      return {
        kind: 'liteServer.lookupBlockResult' as const,
        id: tlId(m),
        mode: req.mode,
        mcBlockId: tlId(mc),
        clientMcStateProof: EMPTY,
        mcBlockProof: EMPTY,
        shardLinks: [],
        header: ctx.headerProofBoc(m),
        prevHeader: pp ? serializeBoc(pp) : EMPTY,
      };
    },
  } satisfies LiteMethods;
}
