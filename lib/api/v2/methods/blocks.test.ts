import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { MODES } from '../../../testing/api';
import { ed25519 } from '@noble/curves/ed25519.js';
import { devnetValidatorKeys } from '../../../devnet/validators';
import { blockSignedBytes, nodeIdShort } from '../../../ton';

const MC_SHARD = '-9223372036854775808';
let chain: TestChain;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v2-blocks', rounds: 3 });
}, 60_000);
afterAll(() => chain?.close());

const meta = (wc: number, seqno: number) => chain.devnet.chain.block(wc, seqno)!;
const idOf = (wc: number, seqno: number) => ({
  '@type': 'ton.blockIdExt',
  workchain: wc,
  shard: MC_SHARD,
  seqno,
  root_hash: meta(wc, seqno).rootHash.toString('base64'),
  file_hash: meta(wc, seqno).fileHash.toString('base64'),
});

type Obj = Record<string, unknown>;

describe.each(MODES)('blocks over %s', (mode) => {
  it('getMasterchainInfo names the last block and the zero state', async () => {
    const r = await chain.callV2(mode, 'getMasterchainInfo');
    expect(r.status).toBe(200);
    const last = chain.devnet.chain.lastSeqno;
    expect(r.body.result).toMatchObject({
      '@type': 'blocks.masterchainInfo',
      last: idOf(-1, last),
      init: { '@type': 'ton.blockIdExt', workchain: -1, shard: MC_SHARD, seqno: 0, root_hash: chain.devnet.zeroState.rootHash.toString('base64') },
    });
    expect((r.body.result as Obj).state_root_hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });

  it('getConsensusBlock is the last seqno, now', async () => {
    const r = await chain.callV2(mode, 'getConsensusBlock');
    expect(r.body.result).toMatchObject({ '@type': 'ext.blocks.consensusBlock', consensus_block: chain.devnet.chain.lastSeqno });
    expect(Math.abs(((r.body.result as Obj).timestamp as number) - Date.now() / 1000)).toBeLessThan(5);
  });

  it('lookupBlock by seqno, by lt and by unixtime finds the same block', async () => {
    const m = meta(0, 2);
    const bySeqno = await chain.callV2(mode, 'lookupBlock', { workchain: 0, shard: MC_SHARD, seqno: 2 });
    expect(bySeqno.body.result).toEqual(idOf(0, 2));
    const byLt = await chain.callV2(mode, 'lookupBlock', { workchain: 0, shard: MC_SHARD, lt: m.startLt.toString() });
    expect(byLt.body.result).toEqual(idOf(0, 2));
    const byTime = await chain.callV2(mode, 'lookupBlock', { workchain: -1, shard: MC_SHARD, unixtime: meta(-1, 2).genUtime });
    expect((byTime.body.result as Obj).seqno).toBeLessThanOrEqual(2);
  });

  it.each([
    ['no criterion', {}, /exactly one of seqno, lt and unixtime/],
    ['two criteria', { seqno: 1, lt: 5 }, /exactly one of seqno, lt and unixtime/],
    ['seqno 0', { seqno: 0 }, /seqno: expected a positive seqno/],
    ['missing shard', { shard: undefined, seqno: 1 }, /shard is required/],
  ])('lookupBlock: 422 for %s', async (_, extra, message) => {
    const params = Object.fromEntries(Object.entries({ workchain: -1, shard: MC_SHARD, ...extra }).filter(([, v]) => v !== undefined));
    const r = await chain.callV2(mode, 'lookupBlock', params);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ ok: false, code: 422 });
    expect(r.body.error).toMatch(message);
  });

  it('lookupBlock: a block from the future is a liteserver error (500)', async () => {
    const r = await chain.callV2(mode, 'lookupBlock', { workchain: -1, shard: MC_SHARD, seqno: chain.devnet.chain.lastSeqno + 10000 });
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ ok: false, code: 500 });
  });

  it.each(['getShards', 'shards'])('%s lists the basechain block each masterchain block registers', async (method) => {
    const r = await chain.callV2(mode, method, { seqno: 2 });
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual({ '@type': 'blocks.shards', shards: [idOf(0, 2)] });
    expect((await chain.callV2(mode, method, { seqno: 'x' })).status).toBe(422);
    expect((await chain.callV2(mode, method, {})).status).toBe(422);
  });

  it('getBlockHeader reads the header, by seqno or by full id', async () => {
    const m = meta(-1, 3);
    const r = await chain.callV2(mode, 'getBlockHeader', { workchain: -1, shard: MC_SHARD, seqno: 3 });
    expect(r.status).toBe(200);
    const h = r.body.result as Obj;
    expect(h).toMatchObject({
      '@type': 'blocks.header',
      id: idOf(-1, 3),
      after_merge: false,
      after_split: false,
      before_split: false,
      is_key_block: false,
      start_lt: m.startLt.toString(),
      end_lt: m.endLt.toString(),
      gen_utime: m.genUtime,
      prev_blocks: [idOf(-1, 2)],
    });
    expect(typeof h.global_id).toBe('number');
    expect(typeof h.catchain_seqno).toBe('number');
    const byId = await chain.callV2(mode, 'getBlockHeader', {
      workchain: 0,
      shard: MC_SHARD,
      seqno: 3,
      root_hash: m.rootHash.toString('hex'),
      file_hash: meta(0, 3).fileHash.toString('base64'),
    });
    // root_hash of the masterchain block with the basechain block's seqno names no block: the request's mistake.
    expect(byId.status).toBe(422);
    expect(byId.body.error).toMatch(/^block \(0,-9223372036854775808,3\) with root_hash [0-9a-f]{64} and file_hash [0-9a-f]{64} does not exist/);
    const good = await chain.callV2(mode, 'getBlockHeader', {
      workchain: 0,
      shard: MC_SHARD,
      seqno: 3,
      root_hash: meta(0, 3).rootHash.toString('hex'),
      file_hash: meta(0, 3).fileHash.toString('base64'),
    });
    expect(good.body.result).toMatchObject({ id: idOf(0, 3), prev_blocks: [idOf(0, 2)], start_lt: meta(0, 3).startLt.toString() });
  });

  it('getBlockHeader: 422 for bad input', async () => {
    for (const params of [{ shard: MC_SHARD, seqno: 1 }, { workchain: -1, shard: MC_SHARD, seqno: -1 }, { workchain: -1, shard: MC_SHARD, seqno: 1, root_hash: 'zz' }]) {
      const r = await chain.callV2(mode, 'getBlockHeader', params);
      expect(r.status).toBe(422);
      expect(r.body.code).toBe(422);
    }
  });

  it.each(['getOutMsgQueueSize', 'getOutMsgQueueSizes'])('%s gives a size per top block', async (method) => {
    const r = await chain.callV2(mode, method);
    expect(r.status).toBe(200);
    const res = r.body.result as { shards: Obj[]; ext_msg_queue_size_limit: number };
    expect(res).toMatchObject({ '@type': 'blocks.outMsgQueueSizes' });
    expect(res.shards.length).toBeGreaterThan(0);
    for (const s of res.shards) {
      expect(s['@type']).toBe('blocks.outMsgQueueSize');
      expect(typeof s.size).toBe('number');
      expect(s.id).toMatchObject({ '@type': 'ton.blockIdExt' });
    }
    expect(typeof res.ext_msg_queue_size_limit).toBe('number');
  });

  it("getMasterchainBlockSignatures: the devnet validators' signatures of the block", async () => {
    const seqno = chain.devnet.chain.lastSeqno;
    const r = await chain.callV2(mode, 'getMasterchainBlockSignatures', { seqno });
    expect(r.status).toBe(200);
    const res = r.body.result as { '@type': string; id: Obj; signatures: { '@type': string; node_id_short: string; signature: string }[] };
    expect(res['@type']).toBe('blocks.blockSignatures');
    expect(res.id).toEqual(idOf(-1, seqno));
    const keys = devnetValidatorKeys(chain.devnet.chain.seed);
    expect(res.signatures.map((x) => x.node_id_short).sort()).toEqual(keys.map((k) => nodeIdShort(k.publicKey).toString('base64')).sort());
    const block = chain.devnet.chain.block(-1, seqno)!;
    for (const sig of res.signatures) {
      expect(sig['@type']).toBe('blocks.signature');
      const key = keys.find((k) => nodeIdShort(k.publicKey).toString('base64') === sig.node_id_short)!;
      expect(ed25519.verify(Buffer.from(sig.signature, 'base64'), blockSignedBytes(block.rootHash, block.fileHash), key.publicKey)).toBe(true);
    }
    expect((await chain.callV2(mode, 'getMasterchainBlockSignatures', { seqno: 'invalid' })).status).toBe(422);
    expect((await chain.callV2(mode, 'getMasterchainBlockSignatures', { seqno: seqno + 10000 })).status).toBe(500);
  });

  it('getShardBlockProof of a masterchain block from itself needs no links', async () => {
    const last = chain.devnet.chain.lastSeqno;
    const r = await chain.callV2(mode, 'getShardBlockProof', { workchain: -1, shard: MC_SHARD, seqno: last, from_seqno: last });
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual({ '@type': 'blocks.shardBlockProof', from: idOf(-1, last), mc_id: idOf(-1, last), links: [], mc_proof: [] });
  });

  it('getShardBlockProof: backward links from the trusted block, and the shard link from the masterchain block of its round', async () => {
    const last = chain.devnet.chain.lastSeqno;
    const back = await chain.callV2(mode, 'getShardBlockProof', { workchain: -1, shard: MC_SHARD, seqno: last - 1, from_seqno: last });
    expect(back.status).toBe(200);
    const b = back.body.result as { mc_proof: Obj[]; links: Obj[] };
    expect(b.links).toEqual([]);
    expect(b.mc_proof).toHaveLength(1);
    expect(b.mc_proof[0]).toMatchObject({ '@type': 'blocks.blockLinkBack', from: idOf(-1, last), to: idOf(-1, last - 1), to_key_block: false });
    for (const k of ['dest_proof', 'proof', 'state_proof']) expect(typeof b.mc_proof[0][k]).toBe('string');
    const shard = await chain.callV2(mode, 'getShardBlockProof', { workchain: 0, shard: MC_SHARD, seqno: 2, from_seqno: last });
    expect(shard.status).toBe(200);
    const sh = shard.body.result as { mc_id: Obj; links: Obj[]; mc_proof: Obj[] };
    expect(sh.mc_id).toEqual(idOf(-1, 2));
    expect(sh.links).toEqual([{ '@type': 'blocks.shardBlockLink', id: idOf(0, 2), proof: expect.any(String) }]);
    expect(sh.mc_proof.at(-1)).toMatchObject({ to: idOf(-1, 2) });
  });

  it.each([
    ['workchain=invalid', { workchain: 'invalid', shard: MC_SHARD, seqno: 1 }],
    ['missing workchain', { shard: MC_SHARD, seqno: 1 }],
    ['shard=invalid', { workchain: -1, shard: 'invalid', seqno: 1 }],
    ['missing shard', { workchain: -1, seqno: 1 }],
    ['seqno=invalid', { workchain: -1, shard: MC_SHARD, seqno: 'invalid' }],
    ['seqno=-1', { workchain: -1, shard: MC_SHARD, seqno: -1 }],
  ])('getShardBlockProof: 422 for %s', async (_, params) => {
    const r = await chain.callV2(mode, 'getShardBlockProof', params);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ ok: false, code: 422 });
  });
});

describe('big shard ids', () => {
  it('a JSON body may carry the shard as the number -2^63', async () => {
    const r = await chain.callV2('post', 'lookupBlock', {}, '{"workchain": -1, "shard": -9223372036854775808, "seqno": 1}');
    expect(r.body.result).toEqual(idOf(-1, 1));
  });
});
