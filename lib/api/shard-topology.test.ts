/**
 * v2 and v3 on a devnet whose basechain splits and merges, every answer about shards, blocks and
 * transactions checked against the lite server for every shard of every masterchain block: v2 shards /
 * getShards, lookupBlock (the exact shard, its parent and its children read as prefixes), getBlockHeader,
 * getBlockTransactions(Ext), getShardBlockProof (checked as the verifying lite client checks it); v3
 * masterchainBlockShards, masterchainBlockShardState, blocks filters, transactionsByMasterchainBlock.
 * Then the same v2 reads from the index when the lite server no longer keeps those blocks (shards that
 * no longer exist included), and LITE_VERIFY's proofs across a split.
 */
import { EventEmitter } from 'node:events';
import { Address } from '@ton/core';
import type { LiteEngine } from 'ton-lite-client';
import type { TLFunction } from 'ton-tl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Functions } from '../lite/tl/codec';
import { createLiteClient } from '../lite';
import { InProcessLiteEngine } from '../devnet/transport/in-process-engine';
import { createDevnetLiteHandler } from '../devnet/lite-handler';
import type { BlockMeta } from '../devnet/block-store';
import { SHARD_ALL, accountPrefix, checkShardBlockLink, listShards, loadShardHashes, shardChildren, shardContains, shardHex, shardParent, shardSibling } from '../ton';
import { Cell } from '@ton/core';
import { startTestChain, type TestChain } from '../testing/chain';
import { testApi } from '../testing/api';
import { prunedLiteHandler } from '../testing/pruned-lite';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain({ seed: 'api-shards', shards: 2, shardSchedule: { kind: 'cycle', rounds: 4 }, rounds: 14, tps: 6, index: true });
}, 300_000);
afterAll(() => chain?.close());

const signed = (s: bigint) => BigInt.asIntN(64, s).toString();
const head = () => chain.devnet.chain.lastSeqno;
const round = (k: number) => chain.devnet.chain.store.round(k);
type V2Block = { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string };
const v2Id = (m: BlockMeta) => ({ workchain: m.workchain, shard: signed(m.shard), seqno: m.seqno, root_hash: m.rootHash.toString('base64'), file_hash: m.fileHash.toString('base64') });

async function v2<T>(method: string, params: Record<string, unknown>, api: Pick<TestChain, 'callV2'> = chain): Promise<T> {
  const r = await api.callV2('get', method, params);
  expect(r.body.ok, `${method} ${JSON.stringify(params)}: ${r.body.error}`).toBe(true);
  return r.body.result as T;
}

describe('v2 and v3 follow the shards through splits and merges', () => {
  it('shards / getShards name what the lite server names at every masterchain block', async () => {
    expect(new Set(Array.from({ length: head() }, (_, i) => round(i + 1).length)).size).toBeGreaterThan(2);
    for (let k = 1; k <= head(); k++) {
      const mc = (await chain.lite.lookupBlockByID({ workchain: -1, shard: signed(SHARD_ALL), seqno: k })).id;
      const res = await chain.lite.engine.query(Functions.liteServer_getAllShardsInfo, { kind: 'liteServer.getAllShardsInfo', id: mc });
      const lite = listShards(loadShardHashes(Cell.fromBoc(res.data)[0]!.beginParse())).map((s) => `${s.workchain}:${signed(s.shard)}:${s.descr.seqno}`);
      for (const method of ['shards', 'getShards']) {
        const got = (await v2<{ shards: V2Block[] }>(method, { seqno: k })).shards.map((b) => `${b.workchain}:${b.shard}:${b.seqno}`);
        expect(got, `${method} at ${k}`).toEqual(lite);
      }
    }
  });

  it('lookupBlock finds each shard block by its shard, and by its parent and children read as prefixes, like the lite server', async () => {
    for (let k = 1; k <= head(); k++) {
      for (const m of round(k)) {
        const asked = [m.shard, ...(m.shard === SHARD_ALL ? [] : [shardParent(m.shard)]), ...shardChildren(m.shard)];
        for (const shard of asked) {
          const lite = (await chain.lite.lookupBlockByID({ workchain: 0, shard: signed(shard), seqno: k })).id;
          // The shard id is read as an account prefix: the block of the shard holding it.
          expect(lite.rootHash.equals(round(k).find((b) => shardContains(b.shard, shard))!.rootHash)).toBe(true);
          const got = await v2<V2Block>('lookupBlock', { workchain: 0, shard: signed(shard), seqno: k });
          expect(got).toMatchObject({ shard: lite.shard, seqno: k, root_hash: lite.rootHash.toString('base64') });
        }
        const byLt = await v2<V2Block>('lookupBlock', { workchain: 0, shard: signed(m.shard), lt: String(m.endLt) });
        expect(byLt).toMatchObject(v2Id(m));
        const header = await v2<{ id: V2Block; after_split: boolean; after_merge: boolean; prev_blocks: V2Block[] }>('getBlockHeader', v2Id(m));
        expect(header.id).toMatchObject(v2Id(m));
        const stored = await chain.db!.db.prisma.block.findUnique({ where: { workchain_shard_seqno: { workchain: 0, shard: BigInt.asIntN(64, m.shard), seqno: k } } });
        expect({ after_split: header.after_split, after_merge: header.after_merge, n: header.prev_blocks.length }).toEqual({
          after_split: stored!.afterSplit,
          after_merge: stored!.afterMerge,
          n: (stored!.prevBlocks as unknown[]).length,
        });
      }
    }
  });

  it('getBlockTransactions(Ext) list each shard block\'s transactions as the lite server does', async () => {
    for (let k = 2; k <= head(); k++) {
      for (const m of round(k)) {
        const lite = await chain.lite.listBlockTransactions({ ...v2Id(m), rootHash: m.rootHash, fileHash: m.fileHash }, { count: 256, mode: 7 });
        const got = await v2<{ transactions: { account: string; lt: string; hash: string }[]; incomplete: boolean }>('getBlockTransactions', { ...v2Id(m), count: 256 });
        expect(got.transactions.map((t) => `${t.lt}:${t.hash}`)).toEqual(lite.ids.map((t) => `${t.lt}:${t.hash!.toString('base64')}`));
        const ext = await v2<{ transactions: unknown[] }>('getBlockTransactionsExt', { ...v2Id(m), count: 256 });
        expect(ext.transactions).toHaveLength(lite.ids.length);
      }
    }
  });

  it('getShardBlockProof ties every shard block to the masterchain block that registered it, across splits and merges', async () => {
    for (let k = 2; k <= head(); k += 2) {
      const mc = chain.devnet.chain.block(-1, k)!;
      for (const m of round(k)) {
        const proof = await v2<{ mc_id: V2Block; links: { id: V2Block; proof: string }[] }>('getShardBlockProof', { ...v2Id(m) });
        expect(proof.mc_id.seqno).toBe(k);
        expect(proof.links.map((l) => l.id)).toEqual([expect.objectContaining(v2Id(m))]);
        checkShardBlockLink(
          { workchain: -1, shard: SHARD_ALL, seqno: k, rootHash: mc.rootHash, fileHash: mc.fileHash },
          { workchain: 0, shard: m.shard, seqno: k, rootHash: m.rootHash, fileHash: m.fileHash },
          Buffer.from(proof.links[0].proof, 'base64'),
        );
      }
    }
  });

  it('v3 masterchainBlockShards, masterchainBlockShardState, blocks and transactionsByMasterchainBlock cover every shard', async () => {
    type V3Block = { workchain: number; shard: string; seqno: number; root_hash: string; after_split: boolean; after_merge: boolean };
    for (let k = 2; k <= head(); k++) {
      const ids = (bs: V3Block[]) => bs.map((b) => `${b.workchain}:${b.shard}:${b.seqno}`).sort();
      const want = ['-1:8000000000000000:' + k, ...round(k).map((m) => `0:${shardHex(m.shard).toUpperCase()}:${k}`)].sort();
      expect(ids((await chain.callV3<{ blocks: V3Block[] }>('masterchainBlockShards', { seqno: k })).body.blocks)).toEqual(want);
      expect(ids((await chain.callV3<{ blocks: V3Block[] }>('masterchainBlockShardState', { seqno: k })).body.blocks)).toEqual(want);
      const txs = (await chain.callV3<{ transactions: { block_ref: { shard: string } }[] }>('transactionsByMasterchainBlock', { seqno: k, limit: 1000 })).body.transactions;
      const chainTxs = [chain.devnet.chain.block(-1, k)!, ...round(k)].reduce((n, m) => n + chain.devnet.chain.store.transactions(m).length, 0);
      expect(txs).toHaveLength(chainTxs);
      for (const m of round(k)) {
        const byShard = (await chain.callV3<{ blocks: V3Block[] }>('blocks', { workchain: 0, shard: shardHex(m.shard), seqno: k })).body.blocks;
        expect(byShard.map((b) => b.root_hash)).toEqual([m.rootHash.toString('base64')]);
        const inBlock = txs.filter((t) => t.block_ref.shard === shardHex(m.shard).toUpperCase()).length;
        expect(inBlock).toBe(chain.devnet.chain.store.transactions(m).length);
      }
    }
    const split = (await chain.callV3<{ blocks: V3Block[] }>('blocks', { workchain: 0, limit: 1000 })).body.blocks.filter((b) => b.after_split);
    expect(split.length).toBeGreaterThan(0);
  });
});

describe('v2 from the index when the lite server no longer keeps the blocks (shards that no longer exist included)', () => {
  it('answers lookups, headers, shards and block transactions of every pruned shard block as the live path did', async () => {
    const pruned = createLiteClient({ kind: 'engine', engine: new InProcessLiteEngine(prunedLiteHandler(createDevnetLiteHandler(chain.devnet.chain), chain.devnet.chain, head() - 1)) }, { cache: false });
    const api = testApi({ lite: pruned, db: chain.db!.db });
    try {
      const gone = new Set<string>();
      for (let k = 2; k < head() - 1; k++) {
        expect(await v2('shards', { seqno: k }, api)).toEqual(await v2('shards', { seqno: k }));
        for (const m of round(k)) {
          if (!round(head()).some((t) => t.shard === m.shard)) gone.add(shardHex(m.shard));
          for (const shard of [m.shard, ...shardChildren(m.shard), ...(m.shard === SHARD_ALL ? [] : [shardParent(m.shard)])]) {
            const q = { workchain: 0, shard: signed(shard), seqno: k };
            expect(await v2('lookupBlock', q, api)).toEqual(await v2('lookupBlock', q));
          }
          const byLt = { workchain: 0, shard: signed(m.shard), lt: String(m.startLt + 1n) };
          expect(await v2('lookupBlock', byLt, api)).toEqual(await v2('lookupBlock', byLt));
          expect(await v2('getBlockHeader', v2Id(m), api)).toEqual(await v2('getBlockHeader', v2Id(m)));
          expect(await v2('getBlockTransactions', { ...v2Id(m), count: 40 }, api)).toEqual(await v2('getBlockTransactions', { ...v2Id(m), count: 40 }));
        }
      }
      expect(gone.size).toBeGreaterThan(0);
    } finally {
      await api.close();
      pruned.engine.close();
    }
  });
});

describe('LITE_VERIFY across a split', () => {
  it('proves shard blocks before and after a split, and account states of every shard at each masterchain block', async () => {
    const zero = chain.devnet.chain.identity!.zeroState.masterchain;
    const client = createLiteClient(
      { kind: 'engine', engine: new InProcessLiteEngine(createDevnetLiteHandler(chain.devnet.chain)), name: 'devnet', anchor: { seqno: 0, rootHash: zero.rootHash, fileHash: zero.fileHash } },
      { verify: true, cache: false },
    );
    try {
      const accounts = ['alice', 'bob', 'carol', 'faucet'].map((n) => Address.parse(chain.account(n).address));
      for (let k = 1; k <= head(); k++) {
        const mc = (await client.lookupBlockByID({ workchain: -1, shard: signed(SHARD_ALL), seqno: k })).id;
        for (const a of accounts) {
          const st = await client.getAccountState(a, mc);
          expect(shardContains(BigInt.asUintN(64, BigInt(st.shardBlock.shard)), accountPrefix(a.hash))).toBe(true);
        }
        for (const m of round(k)) {
          const block = await client.engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: { kind: 'tonNode.blockIdExt', ...v2Id(m), rootHash: m.rootHash, fileHash: m.fileHash } });
          expect(block.data.length).toBeGreaterThan(0);
        }
      }
      // The shard asked for is read as a prefix: its parent and children find the same blocks, all proven.
      const m = round(head()).find((b) => b.shard !== SHARD_ALL)!;
      for (const shard of [shardParent(m.shard), ...shardChildren(m.shard)]) {
        const found = await client.lookupBlockByID({ workchain: 0, shard: signed(shard), seqno: m.seqno });
        expect(shardContains(BigInt.asUintN(64, BigInt(found.id.shard)), shard)).toBe(true);
      }
    } finally {
      client.engine.close();
    }
  });

  it('refuses a lookup answered with a block of another shard (each genuine, signed and proven by itself)', async () => {
    const zero = chain.devnet.chain.identity!.zeroState.masterchain;
    const honest = new InProcessLiteEngine(createDevnetLiteHandler(chain.devnet.chain));
    const m = round(head()).find((b) => b.shard !== SHARD_ALL)!;
    // A lite server that answers lookups of this shard with its sibling's block.
    class Lying extends EventEmitter {
      query<REQ, RES>(f: TLFunction<REQ, RES>, req: REQ, args?: { timeout?: number; awaitSeqno?: number }): Promise<RES> {
        const r = req as { kind: string; id?: { shard: string } };
        const swapped = r.kind === 'liteServer.lookupBlock' && r.id?.shard === signed(m.shard) ? { ...r, id: { ...r.id, shard: signed(shardSibling(m.shard)) } } : r;
        return honest.query(f, swapped as REQ, args);
      }
      close() {
        honest.close();
      }
      isClosed() {
        return honest.isClosed();
      }
      isReady() {
        return honest.isReady();
      }
    }
    const lying = new Lying() as unknown as LiteEngine;
    const client = createLiteClient({ kind: 'engine', engine: lying, name: 'devnet', anchor: { seqno: 0, rootHash: zero.rootHash, fileHash: zero.fileHash } }, { verify: true, cache: false });
    try {
      await expect(client.lookupBlockByID({ workchain: 0, shard: signed(m.shard), seqno: m.seqno })).rejects.toThrow(/whose shard does not hold/);
      expect((await client.lookupBlockByID({ workchain: 0, shard: signed(shardSibling(m.shard)), seqno: m.seqno })).id.seqno).toBe(m.seqno);
    } finally {
      client.engine.close();
    }
  });
});
