import fs from 'node:fs';
import path from 'node:path';
import { Address, loadMessage, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountPrefix,
  listShards,
  loadBlock,
  loadConfigDict,
  loadMsgEnvelope,
  loadOutMsgQueueInfo,
  loadShardStateUnsplitFull,
  outMsgQueueEntries,
  shardContains,
  loadWorkchains,
  type InMsg,
  type OutMsg,
} from '../ton';
import { LiteClient } from 'ton-lite-client';
import { DevnetChain, DevnetIdentityError } from './chain';
import { createDevnetLiteHandler } from './lite-handler';
import { BlockProducer } from './producer';
import { startAdnlServer } from './transport/adnl-server';
import { connectTcpEngine } from '../testing/lite-sample-handler';
import { BASECHAIN, MASTERCHAIN, readMcStateExtra } from './state';
import { openScenario, rmDir, signedTransfer, verifyChain, type Scenario } from '../testing/devnet';
import type { BlockMeta } from './block-store';

const blockAt = (chain: DevnetChain, m: BlockMeta) => loadBlock(chain.store.root(m).beginParse());
const holding = (chain: DevnetChain, seqno: number, a: Address) => chain.blockHolding(BASECHAIN, seqno, accountPrefix(a.hash))!;
const inMsgs = (b: ReturnType<typeof blockAt>) => [...b.extra.inMsgDescr.entries.values()].map((e) => e.value as InMsg);
const outMsgs = (b: ReturnType<typeof blockAt>) => [...b.extra.outMsgDescr.entries.values()].map((e) => e.value as OutMsg);
const layout = (chain: DevnetChain, k: number) => chain.store.round(k).map((m) => m.shard.toString(16).replace(/0+$/, ''));

describe('a devnet of several basechain shards that split and merge', () => {
  let s: Scenario;
  beforeAll(async () => {
    // Two shards by min_split; the schedule takes them to four and back every 6 masterchain blocks.
    s = await openScenario({ seed: 'shards', shards: 2, shardSchedule: { kind: 'cycle', rounds: 6 } });
  });
  afterAll(async () => {
    await s.chain.close();
    rmDir(s.dir);
  });

  it('splits the zero state down to min_split, then splits and merges as the masterchain records it', async () => {
    const { chain } = s;
    for (let k = 2; k <= 15; k++) await chain.seal();
    expect(layout(chain, 1)).toEqual(['8']);
    expect(layout(chain, 3)).toEqual(['4', 'c']);
    expect(layout(chain, 5)).toEqual(['2', '6', 'a', 'e']);
    expect(layout(chain, 8)).toEqual(['4', 'c']);
    expect(layout(chain, 14)).toEqual(['2', '6', 'a', 'e']);

    // The masterchain announces the split (fsm_split), registers the before_split block, then both children together.
    const mcState = (k: number) => readMcStateExtra(loadShardStateUnsplitFull(chain.state(MASTERCHAIN, k)!.beginParse()).custom!);
    const leaves = (k: number) => listShards(mcState(k).shardHashes);
    expect(leaves(3).map((l) => l.descr.splitMergeAt.kind)).toEqual(['split', 'split']);
    expect(leaves(4).every((l) => l.descr.beforeSplit && l.descr.splitMergeAt.kind === 'none')).toBe(true);
    expect(leaves(5).map((l) => [l.descr.seqno, l.descr.regMcSeqno, l.descr.nextValidatorShard === l.shard])).toEqual(Array(4).fill([5, 5, true]));
    // ... and merges: fsm_merge, then before_merge on both siblings, then the parent with catchain seqno + 1.
    expect(leaves(6).every((l) => l.descr.wantMerge && l.descr.splitMergeAt.kind === 'merge')).toBe(true);
    expect(leaves(7).every((l) => l.descr.beforeMerge)).toBe(true);
    expect(leaves(8).map((l) => l.descr.nextCatchainSeqno)).toEqual([1, 1]);

    const split = blockAt(chain, chain.block(BASECHAIN, 5, 0x2000000000000000n)!);
    expect(split.info.afterSplit).toBe(true);
    expect(split.info.prevRef.kind === 'single' && split.info.prevRef.prev.rootHash.equals(chain.block(BASECHAIN, 4, 0x4000000000000000n)!.rootHash)).toBe(true);
    expect(blockAt(chain, chain.block(BASECHAIN, 4, 0x4000000000000000n)!).info.beforeSplit).toBe(true);
    const merged = blockAt(chain, chain.block(BASECHAIN, 8, 0x4000000000000000n)!);
    expect(merged.info.afterMerge).toBe(true);
    expect(merged.info.genCatchainSeqno).toBe(1);
    expect(merged.info.prevRef.kind === 'merged' && merged.info.prevRef.prev2.rootHash.equals(chain.block(BASECHAIN, 7, 0x6000000000000000n)!.rootHash)).toBe(true);
    // ShardFees name every registered block; the configuration carries the devnet's split limits.
    const mc8 = blockAt(chain, chain.block(MASTERCHAIN, 8)!);
    expect([...mc8.extra.custom!.shardFees.entries.keys()].map((k) => (k & ((1n << 64n) - 1n)).toString(16))).toEqual(['4000000000000000', 'c000000000000000']);
    const base = loadWorkchains(loadConfigDict(mcState(chain.lastSeqno).configRoot).get(12)!).get(0)!;
    expect({ min: base.minSplit, max: base.maxSplit, delay: base.v2?.timings.splitMergeDelay }).toEqual({ min: 1, max: 2, delay: 0 });
    expect(verifyChain(chain).blocks).toBeGreaterThan(40);
  });

  it('carries a message between shards through the queues: export and enqueue, import a round later, dequeue a round after', async () => {
    const { chain, wallets } = s;
    const { alice, dave } = wallets;
    expect(holding(chain, chain.lastSeqno, alice.address).shard).not.toBe(holding(chain, chain.lastSeqno, dave.address).shard);
    await chain.sendExternal(await signedTransfer(alice, [{ to: dave.address, value: toNano(3), body: 'across' }]));
    const sent = (await chain.seal()).seqno;
    const out = outMsgs(blockAt(chain, holding(chain, sent, alice.address))).find((m) => m.type === 'exportNew');
    expect(out?.type).toBe('exportNew');
    const env = out!.type === 'exportNew' ? out!.outMsg : undefined!;
    expect({ cur: env.curAddr, next: env.nextAddr }).toEqual({ cur: { kind: 'regular', useDestBits: 32 }, next: { kind: 'regular', useDestBits: 36 } });
    const msg = loadMessage(env.msg.beginParse());
    expect(msg.info.dest?.toString()).toBe(dave.address.toString());
    // Not delivered in its own round: it waits in alice's shard's queue, in that shard's state.
    const queue = outMsgQueueEntries(loadOutMsgQueueInfo(loadShardStateUnsplitFull(chain.state(BASECHAIN, sent, holding(chain, sent, alice.address).shard)!.beginParse()).outMsgQueueInfo).queue);
    expect([...queue.values()].some((e) => loadMsgEnvelope(e.envelope.beginParse()).msg.hash().equals(env.msg.hash()))).toBe(true);
    expect(blockAt(chain, holding(chain, sent, dave.address)).extra.accountBlocks.entries.size).toBe(0);

    const imported = (await chain.seal()).seqno;
    const daveBlock = holding(chain, imported, dave.address);
    const fin = inMsgs(blockAt(chain, daveBlock)).find((m) => m.type === 'importFin');
    expect(fin?.type === 'importFin' && fin.inMsg.msg.hash().equals(env.msg.hash())).toBe(true);

    const after = (await chain.seal()).seqno;
    const deq = outMsgs(blockAt(chain, holding(chain, after, alice.address))).find((m) => m.type === 'exportDeqShort');
    expect(deq?.type === 'exportDeqShort' && deq.importBlockLt === daveBlock.endLt && deq.nextAddrPfx >> 60n === accountPrefix(dave.address.hash) >> 60n).toBe(true);
    const left = outMsgQueueEntries(loadOutMsgQueueInfo(loadShardStateUnsplitFull(chain.state(BASECHAIN, after, holding(chain, after, alice.address).shard)!.beginParse()).outMsgQueueInfo).queue);
    expect(left.size).toBe(0);
    verifyChain(chain);
  });

  it('is read unchanged by ton-lite-client over ADNL: shard configuration, full blocks, accounts of every shard', async () => {
    const { chain, wallets } = s;
    const server = await startAdnlServer({ port: 0, seed: Buffer.alloc(32, 9), handler: createDevnetLiteHandler(chain) });
    const engine = await connectTcpEngine(server.port, server.publicKey);
    const client = new LiteClient({ engine });
    try {
      for (let k = 2; k <= chain.lastSeqno; k++) {
        const mc = (await client.lookupBlockByID({ workchain: MASTERCHAIN, shard: '-9223372036854775808', seqno: k })).id;
        const info = await client.getAllShardsInfo(mc);
        const round = chain.store.round(k);
        expect(Object.keys(info.shards['0']).map((x) => BigInt.asUintN(64, BigInt(x))).sort((a, b) => (a < b ? -1 : 1))).toEqual(round.map((m) => m.shard));
        expect(Object.values(info.shards['0'])).toEqual(round.map(() => k));
        // getFullBlock walks each shard from the previous masterchain block's tops, through splits and merges.
        const full = await client.getFullBlock(k);
        const listed = full.shards.filter((x) => x.workchain === BASECHAIN).map((x) => `${BigInt.asUintN(64, BigInt(x.shard)).toString(16)}:${x.seqno}:${x.transactions.length}`).sort();
        expect(listed).toEqual(round.map((m) => `${m.shard.toString(16)}:${k}:${chain.store.transactions(m).length}`).sort());
      }
      const head = (await client.getMasterchainInfo()).last;
      for (const w of [wallets.alice, wallets.dave, wallets.carol]) {
        const st = await client.getAccountState(w.address, head);
        expect(st.shardBlock.seqno).toBe(head.seqno);
        expect(shardContains(BigInt.asUintN(64, BigInt(st.shardBlock.shard)), accountPrefix(w.address.hash))).toBe(true);
        expect(st.lastTx?.lt).toBe(chain.account(w.address)!.lastTransLt);
      }
    } finally {
      engine.close();
      await server.close();
    }
  });

  it('keeps every account in the shard its address selects', () => {
    const { chain } = s;
    for (let k = 1; k <= chain.lastSeqno; k++) {
      for (const m of chain.store.round(k)) {
        for (const t of chain.store.transactions(m)) expect(shardContains(m.shard, t.account >> 192n)).toBe(true);
      }
    }
  });

  it('restarts in the middle of a message\'s trip and in a split window, and goes on the same way', async () => {
    const { chain, wallets } = s;
    const { dave, alice } = wallets;
    // Seal until the next split is announced, send across shards, close before the message is delivered.
    while (!chain.store.round(chain.lastSeqno).some((m) => blockAt(chain, m).info.wantSplit)) await chain.seal();
    await chain.sendExternal(await signedTransfer(dave, [{ to: alice.address, value: toNano(1), body: 'over a restart' }]));
    const sent = (await chain.seal()).seqno;
    const shards = chain.store.round(sent).length;
    await chain.close();
    // Without the snapshot, the restart replays every block from the zero state: across each split
    // (from the parent's whole state) and each merge (from split_state of the two).
    fs.rmSync(path.join(s.dir, 'state.boc'));
    const again = await DevnetChain.open({ dir: s.dir });
    s.chain = again;
    expect(again.lastSeqno).toBe(sent);
    for (let i = 0; i < 4; i++) await again.seal();
    const trips = [sent + 1, sent + 2].flatMap((k) => inMsgs(blockAt(again, holding(again, k, alice.address))).filter((m) => m.type === 'importFin'));
    expect(trips).toHaveLength(1);
    expect(again.store.round(sent + 3).length).not.toBe(shards); // the layout went on changing
    verifyChain(again);
    await again.close();
    await expect(DevnetChain.open({ dir: s.dir, shards: 4 })).rejects.toThrow(/2 basechain shard\(s\), not 4/);
    await expect(DevnetChain.open({ dir: s.dir, shards: 4 })).rejects.toThrow(DevnetIdentityError);
    s.chain = await DevnetChain.open({ dir: s.dir });
  });
});

describe('the block producer', () => {
  it('splits and merges on its own timer with short blocks (DEVNET_BLOCK_MS=50)', async () => {
    const t = await openScenario({ seed: 'shards-timer', shardSchedule: { kind: 'cycle', rounds: 3 } });
    const producer = new BlockProducer(t.chain, { blockMs: 50 });
    try {
      producer.start();
      await new Promise<void>((resolve) => {
        const off = t.chain.onRound((r) => {
          if (r.seqno < 16) return;
          off();
          resolve();
        });
      });
    } finally {
      await producer.stop();
    }
    const sizes = Array.from({ length: t.chain.lastSeqno }, (_, i) => t.chain.store.round(i + 1).length);
    // One shard, two after the split, one again after the merge, and so on.
    expect(sizes.indexOf(2)).toBeGreaterThan(0);
    expect(sizes.lastIndexOf(1)).toBeGreaterThan(sizes.indexOf(2));
    verifyChain(t.chain);
    await t.chain.close();
    rmDir(t.dir);
  });
});
