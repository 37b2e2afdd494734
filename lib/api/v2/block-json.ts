// Block ids between the lite client (tonNode.blockIdExt) and v2 JSON (ton.blockIdExt), and the block
// lookups the block-addressed methods share: a masterchain block by seqno, any block by
// (workchain, shard, seqno) unless its hashes are given.
import type { LiteClient } from 'ton-lite-client';
import type { tonNode_blockIdExt } from 'ton-lite-client/dist/schema';
import { z } from 'zod';
import { hash, int32, shard, workchain } from './params';

import { MASTER_SHARD } from '../../ton/shard';

export { MASTER_SHARD };

export interface BlockIdLike {
  workchain: number;
  shard: string | bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

/** Shard ids go out as signed decimal strings, whatever form they came in. */
export const shardString = (shard: string | bigint) => BigInt.asIntN(64, BigInt(shard)).toString();

export function blockIdJson(id: BlockIdLike) {
  return {
    '@type': 'ton.blockIdExt',
    workchain: id.workchain,
    shard: shardString(id.shard),
    seqno: id.seqno,
    root_hash: id.rootHash.toString('base64'),
    file_hash: id.fileHash.toString('base64'),
  };
}

export function tlBlockId(id: BlockIdLike): tonNode_blockIdExt {
  return { kind: 'tonNode.blockIdExt', workchain: id.workchain, shard: shardString(id.shard), seqno: id.seqno, rootHash: id.rootHash, fileHash: id.fileHash };
}

/** A seqno as block routes take it: a positive int32. */
export const positiveSeqno = () => int32('a positive seqno', 1n);

/** A hash that may be left out; "" counts as not given (api-v2.md §1.6). */
export const optionalHash = () => z.preprocess((v) => (v === '' ? undefined : v), hash().optional());

/** workchain, shard, seqno and optional root_hash/file_hash: one block. */
/** Refinement of a block-id object: the masterchain has exactly one shard. */
export function oneMasterchainShard(p: { workchain: number; shard: bigint }, ctx: z.RefinementCtx): void {
  if (p.workchain === -1 && p.shard !== MASTER_SHARD) {
    ctx.addIssue({ code: 'custom', path: ['shard'], message: `the masterchain has one shard, ${MASTER_SHARD} (0x8000000000000000); got ${p.shard}` });
  }
}

export const blockParams = {
  workchain: workchain(),
  shard: shard(),
  seqno: positiveSeqno(),
  root_hash: optionalHash(),
  file_hash: optionalHash(),
};

export async function masterchainBlock(client: LiteClient, seqno: number): Promise<tonNode_blockIdExt> {
  return (await client.lookupBlockByID({ workchain: -1, shard: MASTER_SHARD.toString(), seqno })).id;
}

/** The block named by the params: as given when both hashes are there, else looked up by seqno. */
export async function resolveBlock(
  client: LiteClient,
  p: { workchain: number; shard: bigint; seqno: number; root_hash?: Buffer; file_hash?: Buffer },
): Promise<tonNode_blockIdExt> {
  if (p.root_hash && p.file_hash) return tlBlockId({ workchain: p.workchain, shard: p.shard, seqno: p.seqno, rootHash: p.root_hash, fileHash: p.file_hash });
  return (await client.lookupBlockByID({ workchain: p.workchain, shard: shardString(p.shard), seqno: p.seqno })).id;
}
