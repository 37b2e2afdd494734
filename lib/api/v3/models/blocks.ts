// v3 response models: Blocks (/blocks, /masterchainInfo, the shard routes). Conventions: ./index.ts.
import { z } from 'zod';
import { hash, int64s } from './common';

export const BlockId = z.object({
  workchain: z.number().int(),
  shard: z.string().describe('16 upper-case hex digits'),
  seqno: z.number().int(),
});

export const Block = z.object({
  workchain: z.number().int(),
  shard: z.string().describe('16 upper-case hex digits'),
  seqno: z.number().int(),
  root_hash: hash,
  file_hash: hash,
  global_id: z.number().int(),
  version: z.number().int(),
  after_merge: z.boolean(),
  before_split: z.boolean(),
  after_split: z.boolean(),
  want_merge: z.boolean(),
  want_split: z.boolean(),
  key_block: z.boolean(),
  vert_seqno_incr: z.boolean(),
  flags: z.number().int(),
  gen_utime: int64s,
  start_lt: int64s,
  end_lt: int64s,
  validator_list_hash_short: z.number().int(),
  gen_catchain_seqno: z.number().int(),
  min_ref_mc_seqno: z.number().int(),
  prev_key_block_seqno: z.number().int(),
  vert_seqno: z.number().int(),
  master_ref_seqno: z.number().int(),
  rand_seed: hash,
  created_by: hash,
  tx_count: z.number().int(),
  masterchain_block_ref: BlockId.nullable(),
  prev_blocks: z.array(BlockId),
});

export const MasterchainInfo = z.object({ last: Block, first: Block });
export const BlocksResponse = z.object({ blocks: z.array(Block) });

export type BlockIdJson = z.infer<typeof BlockId>;
export type BlockJson = z.infer<typeof Block>;
