// Block routes over the real database holding the mainnet fixture blocks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlocksResponse, MasterchainInfo } from '../models/blocks';
import { RequestError } from '../models/common';
import { fixtureDatabase, MC_SEQNO, modelProblems, type FixtureDatabase } from '../../../testing/v3';

let db: FixtureDatabase;
beforeAll(async () => {
  db = await fixtureDatabase();
});
afterAll(() => db.drop());

type Blocks = { blocks: { workchain: number; shard: string; seqno: number }[] };
const ids = (r: Blocks) => r.blocks.map((b) => `${b.workchain}:${b.shard}:${b.seqno}`);
const MC = `-1:8000000000000000:${MC_SEQNO}`;
const S1 = '0:8000000000000000:71398501';
const S2 = '0:6000000000000000:52111590';

describe('GET /masterchainInfo', () => {
  it('gives the first and last masterchain block with toncenter encodings', async () => {
    const r = await db.callV3('masterchainInfo');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-api-version')).toMatch(/^1\.2\.\d+$/);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(modelProblems(r.body, MasterchainInfo)).toEqual([]);
    expect(Object.keys(r.body)).toEqual(['last', 'first']);
    expect(r.body.last).toEqual(r.body.first);
    expect(r.body.last).toMatchObject({
      workchain: -1,
      shard: '8000000000000000',
      seqno: MC_SEQNO,
      root_hash: Buffer.from('cbebaa6ac4270c987c90c5ed930ff37f9b73c705999585d6d8c1c5e9fa3dd6e3', 'hex').toString('base64'),
      gen_utime: '1745112841',
      start_lt: '56255102000000',
      end_lt: '56255102000004',
      // uint32 4143742061 printed as toncenter's signed int32
      validator_list_hash_short: 4143742061 - 2 ** 32,
      tx_count: 3,
      masterchain_block_ref: { workchain: -1, shard: '8000000000000000', seqno: MC_SEQNO },
      prev_blocks: [{ workchain: -1, shard: '8000000000000000', seqno: MC_SEQNO - 1 }],
    });
  });
});

describe('request handling', () => {
  it('route paths match case-insensitively; answers carry Server-Timing', async () => {
    const r = await db.callV3('MASTERCHAININFO');
    expect(r.status).toBe(200);
    expect(r.headers.get('server-timing')).toMatch(/^app;dur=\d+(\.\d+)?$/);
  });

  it('a repeated scalar takes its last value; unknown parameters are ignored; names are case-insensitive', async () => {
    expect(ids((await db.callV3<Blocks>('blocks', 'limit=1&LIMIT=2&whatever=x&Sort=asc')).body)).toEqual([MC, S2]);
  });
});

describe('GET /blocks', () => {
  it('lists every block, gen_utime desc by default, asc on request', async () => {
    const r = await db.callV3<Blocks>('blocks');
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, BlocksResponse)).toEqual([]);
    expect(ids(r.body)).toEqual([S1, S2, MC]);
    expect(ids((await db.callV3<Blocks>('blocks', { sort: 'asc' })).body)).toEqual([MC, S2, S1]);
    expect(ids((await db.callV3<Blocks>('blocks', { sort: 'A' })).body)).toEqual([MC, S2, S1]);
  });

  it('file_hash filter (url-safe base64 input)', async () => {
    // The stored file hash is the sha256 of the fixture file as shipped (the fixtures README quotes another).
    const r = await db.callV3<Blocks>('blocks', { file_hash: db.shards[0]!.block.fileHash.toString('base64url') });
    expect(ids(r.body)).toEqual([S1]);
  });

  it('shard block fields: shard hex, file hash, masterchain ref, prev block', async () => {
    const r = await db.callV3<{ blocks: Record<string, unknown>[] }>('blocks', { workchain: 0, shard: '6000000000000000' });
    expect(r.body.blocks).toHaveLength(1);
    expect(r.body.blocks[0]).toMatchObject({
      workchain: 0,
      shard: '6000000000000000',
      seqno: 52111590,
      root_hash: Buffer.from('d350895e85ffd081f564e5d138f374a9b52b53aee0035b07ce5a5d6388b73b45', 'hex').toString('base64'),
      tx_count: 30,
      gen_utime: '1745147839',
      masterchain_block_ref: { workchain: -1, shard: '8000000000000000', seqno: MC_SEQNO },
      prev_blocks: [{ workchain: 0, shard: '6000000000000000', seqno: 52111589 }],
    });
  });

  it.each([
    [{ workchain: 0 }, [S1, S2]],
    [{ workchain: -1 }, [MC]],
    [{ shard: '0x8000000000000000' }, [S1, MC]],
    [{ shard: '-9223372036854775808' }, [S1, MC]],
    [{ seqno: 71398501 }, [S1]],
    [{ root_hash: '244d0a2f58561995bd57943b0db945cb9fa6a5181d501efc334636aa4401c241' }, [S1]],
    [{ mc_seqno: MC_SEQNO }, [S1, S2, MC]],
    [{ mc_seqno: 1 }, []],
    [{ start_utime: 1745147839 }, [S1, S2]],
    [{ end_utime: '1745147839.9' }, [S2, MC]],
    [{ start_lt: '56269616000000', end_lt: '56269616000000' }, [S2]],
    [{ end_lt: '18446744073709551615' }, [S1, S2, MC]],
    [{ limit: 1, offset: 1 }, [S2]],
    [{ limit: 0 }, [S1]],
    [{ offset: -3, limit: 1 }, [S1]],
  ])('filters and pages: %j', async (query, expected) => {
    const r = await db.callV3<Blocks>('blocks', query);
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual(expected);
  });

  it.each([
    [{ limit: 1001 }, 'limit is not allowed: 1001 > 1000'],
    [{ sort: 'up' }, 'wrong value for sort parameter'],
    [{ workchain: 'abc' }, 'failed to decode: schema: error converting value for "workchain"'],
    [{ seqno: '4294967296' }, 'failed to decode: schema: error converting value for "seqno"'],
    [{ root_hash: 'abc' }, 'failed to decode: schema: error converting value for "root_hash"'],
    [{ start_utime: '-1' }, 'failed to decode: schema: error converting value for "start_utime"'],
    [{ shard: 'xyz' }, 'failed to decode: schema: error converting value for "shard"'],
  ])('422 for %j', async (query, error) => {
    const r = await db.callV3('blocks', query);
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ error });
    expect(modelProblems(r.body, RequestError)).toEqual([]);
    expect(r.headers.get('x-api-version')).toMatch(/^1\.2\./);
  });
});

describe('GET /masterchainBlockShardState', () => {
  it('gives the recorded shard state ordered by workchain, shard, seqno', async () => {
    const r = await db.callV3<Blocks>('masterchainBlockShardState', { seqno: MC_SEQNO });
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, BlocksResponse)).toEqual([]);
    expect(ids(r.body)).toEqual([MC, S1, S2]);
  });

  it('404 when the masterchain block has no recorded state (seqno missing means 0)', async () => {
    for (const q of [{ seqno: 5 }, {}]) {
      const r = await db.callV3('masterchainBlockShardState', q);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'blocks not found' });
    }
  });
});

describe('GET /masterchainBlockShards', () => {
  it('lists the blocks committed in the masterchain block, the block included', async () => {
    const r = await db.callV3<Blocks>('masterchainBlockShards', { seqno: MC_SEQNO });
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual([S1, S2, MC]);
    expect(ids((await db.callV3<Blocks>('masterchainBlockShards', { seqno: MC_SEQNO, sort: 'asc', limit: 2 })).body)).toEqual([MC, S2]);
    expect(ids((await db.callV3<Blocks>('masterchainBlockShards', { seqno: MC_SEQNO, offset: 2 })).body)).toEqual([MC]);
  });

  it('404 for a masterchain block with no blocks', async () => {
    const r = await db.callV3('masterchainBlockShards', { seqno: MC_SEQNO + 1 });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'blocks not found' });
  });
});
