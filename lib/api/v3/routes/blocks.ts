// Blockchain routes over blocks (api-v3.md §2.1): masterchainInfo, blocks, masterchainBlockShardState,
// masterchainBlockShards.
import { z } from 'zod';
import { notFound } from '../errors';
import { mapBlock } from '../mappers';
import { BlocksResponse, MasterchainInfo } from '../models/blocks';
import { limitParams, ltParams, p, page, sortOrder, utimeParams } from '../params';
import { blocksOfShardState, findBlocks, masterchainEnds } from '../queries/blocks';
import { defineRoute } from '../route';
import { bounds } from './common';

export const masterchainInfo = defineRoute({
  path: 'masterchainInfo',
  tag: 'blockchain',
  summary: 'First and last indexed masterchain blocks',
  query: z.object({}),
  response: MasterchainInfo,
  errors: { 404: 'blocks not found (nothing indexed yet)' },
  async run(_q, { sql }) {
    const ends = await masterchainEnds(sql);
    // toncenter fails with 500 on an empty index; "nothing indexed" is a 404 here.
    if (!ends) throw notFound('blocks not found');
    return { last: mapBlock(ends.last), first: mapBlock(ends.first) };
  },
});

export const blocks = defineRoute({
  path: 'blocks',
  tag: 'blockchain',
  summary: 'Blocks by filters',
  query: z.object({
    workchain: p.int32('Block workchain.'),
    shard: p.shard('Block shard id, e.g. 8000000000000000.'),
    seqno: p.int32('Block seqno.'),
    root_hash: p.hash('Block root hash.'),
    file_hash: p.hash('Block file hash.'),
    mc_seqno: p.int32('Blocks committed in this masterchain block.'),
    ...utimeParams('gen_utime'),
    ...ltParams('start_lt'),
    ...limitParams(),
  }),
  response: BlocksResponse,
  errors: { 422: 'invalid parameter, limit or sort' },
  async run(q, { sql }) {
    const rows = await findBlocks(
      sql,
      {
        workchain: q.workchain,
        shard: q.shard,
        seqno: q.seqno,
        rootHash: q.root_hash,
        fileHash: q.file_hash,
        mcSeqno: q.mc_seqno,
        ...bounds(q),
        sort: sortOrder(q.sort),
      },
      page(q),
    );
    return { blocks: rows.map(mapBlock) };
  },
});

export const masterchainBlockShardState = defineRoute({
  path: 'masterchainBlockShardState',
  tag: 'blockchain',
  summary: 'Shard state of a masterchain block: the block and the top block of every shard it recorded',
  description: 'Same as /api/v2/shards plus the masterchain block itself; ordered by workchain, shard, seqno.',
  query: z.object({ seqno: p.int32('Masterchain block seqno (missing means 0).') }),
  response: BlocksResponse,
  errors: { 404: 'blocks not found' },
  async run(q, { sql }) {
    const rows = await blocksOfShardState(sql, q.seqno ?? 0);
    if (!rows.length) throw notFound('blocks not found');
    return { blocks: rows.map(mapBlock) };
  },
});

export const masterchainBlockShards = defineRoute({
  path: 'masterchainBlockShards',
  tag: 'blockchain',
  summary: 'Every block committed in a masterchain block, the masterchain block included',
  description: 'All blocks with mc_block_seqno = seqno (not the same as /api/v2/shards).',
  query: z.object({ seqno: p.int32('Masterchain block seqno (missing means 0).'), ...limitParams() }),
  response: BlocksResponse,
  errors: { 404: 'blocks not found', 422: 'invalid parameter, limit or sort' },
  async run(q, { sql }) {
    const rows = await findBlocks(sql, { mcSeqno: q.seqno ?? 0, sort: sortOrder(q.sort) }, page(q));
    if (!rows.length) throw notFound('blocks not found');
    return { blocks: rows.map(mapBlock) };
  },
});
