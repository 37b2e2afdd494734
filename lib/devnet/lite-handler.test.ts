/**
 * An unmodified ton-lite-client LiteClient against the devnet's lite_api, over ADNL TCP (its own
 * LiteSingleEngine) and in-process (InProcessLiteEngine): same handler, same chain.
 */
import { Address, Cell, CellType, Dictionary, SendMode, beginCell, external, internal, loadTransaction, storeMessage, toNano } from '@ton/core';
import { WalletContractV5R1 } from '@ton/ton';
import { LiteClient, type LiteEngine } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_SHARD, loadBlock, loadBlockInfo, serializeBoc } from '../ton';
import { createDevnetLiteHandler } from './lite-handler';
import { BASECHAIN, MASTERCHAIN } from './state';
import { messageBoc, openScenario, rmDir, signedTransfer, type Scenario } from '../testing/devnet';
import { startAdnlServer, type AdnlServer } from './transport/adnl-server';
import { InProcessLiteEngine } from './transport/in-process-engine';
import { Functions, type LiteQueryHandler, type tonNode_blockIdExt } from '../lite/tl/codec';
import { connectTcpEngine } from '../testing/lite-sample-handler';

const hexId = (a: Address) => BigInt('0x' + a.hash.toString('hex'));
const hashBuf = (h: bigint) => Buffer.from(h.toString(16).padStart(64, '0'), 'hex');

let s: Scenario;
let handler: LiteQueryHandler;
let server: AdnlServer;
const library = beginCell().storeUint(0xc0de, 16).storeRef(beginCell().storeUint(42, 64)).endCell();

beforeAll(async () => {
  s = await openScenario({ stateWindow: 50 });
  const libs = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  libs.set(library.hash(), library);
  s.chain.blockchain.libs = beginCell().storeDictDirect(libs).endCell();
  // A few rounds with traffic: a block with many transactions for paging.
  const { faucet, wallets } = s;
  await s.chain.sendExternal(
    await signedTransfer(faucet, [
      { to: wallets.alice.address, value: toNano(3), body: 'one' },
      { to: wallets.bob.address, value: toNano(3), body: 'two' },
      { to: wallets.carol.address, value: toNano(3) },
      { to: wallets.dave.address, value: toNano(3) },
    ]),
  );
  await s.chain.sendExternal(await signedTransfer(wallets.alice, [{ to: wallets.master.address, value: toNano(1) }]));
  await s.chain.seal();
  for (let i = 0; i < 3; i++) {
    await s.chain.sendExternal(await signedTransfer(wallets.carol, [{ to: wallets.dave.address, value: toNano(1) }]));
    await s.chain.seal();
  }
  handler = createDevnetLiteHandler(s.chain);
  server = await startAdnlServer({ port: 0, seed: Buffer.alloc(32, 7), handler });
});

afterAll(async () => {
  await server.close();
  await s.chain.close();
  rmDir(s.dir);
});

const makers: Record<string, () => Promise<LiteEngine>> = {
  tcp: () => connectTcpEngine(server.port, server.publicKey),
  'in-process': async () => new InProcessLiteEngine(handler),
};

describe.each(Object.keys(makers))('LiteClient over %s', (mode) => {
  let engine: LiteEngine;
  let client: LiteClient;

  beforeAll(async () => {
    engine = await makers[mode]();
    client = new LiteClient({ engine });
  });

  afterAll(() => {
    engine.close();
  });

  it('getMasterchainInfo advances with each round and names the zero state', async () => {
    const a = await client.getMasterchainInfo();
    expect(a.last.seqno).toBe(s.chain.lastSeqno);
    expect(a.init.rootHash.equals(s.chain.identity!.zeroState.masterchain.rootHash)).toBe(true);
    expect(a.stateRootHash.equals(s.chain.state(MASTERCHAIN, a.last.seqno)!.hash())).toBe(true);
    await s.chain.seal();
    const b = await client.getMasterchainInfoExt();
    expect(b.last.seqno).toBe(a.last.seqno + 1);
    expect(b.lastUtime).toBe(s.chain.lastBlock(MASTERCHAIN)!.genUtime);
    expect(Math.abs((await client.getCurrentTime()) - Date.now() / 1000)).toBeLessThan(5);
    expect(await client.getVersion()).toMatchObject({ version: 0x101 });
  });

  it('getAllShardsInfo lists the basechain shard at the round of the masterchain block', async () => {
    const { last } = await client.getMasterchainInfo();
    const shards = await client.getAllShardsInfo(last);
    expect(shards.shards).toEqual({ '0': { [MASTER_SHARD.toString()]: last.seqno } });
  });

  it('lookupBlockByID / ByUtime / ByLt and getBlockHeader', async () => {
    const { last } = await client.getMasterchainInfo();
    const byId = await client.lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: last.seqno });
    expect(byId.id).toEqual(last);
    const k = 2;
    const meta = s.chain.block(BASECHAIN, k)!;
    const tx = s.chain.store.transactions(meta)[0];
    const byLt = await client.lookupBlockByLt({ workchain: BASECHAIN, shard: MASTER_SHARD.toString(), lt: tx.lt });
    expect(byLt.id.seqno).toBe(k);
    expect(byLt.id.rootHash.equals(meta.rootHash)).toBe(true);
    const byUtime = await client.lookupBlockByUtime({ workchain: BASECHAIN, shard: MASTER_SHARD.toString(), utime: meta.genUtime });
    expect(byUtime.id.seqno).toBeLessThanOrEqual(k); // the first block generated at or after that time
    expect(s.chain.block(BASECHAIN, byUtime.id.seqno)!.genUtime).toBeGreaterThanOrEqual(meta.genUtime);
    await expect(client.lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: last.seqno + 100 })).rejects.toThrow(
      /block not found/,
    );
    const header = await client.getBlockHeader(byLt.id);
    const proof = Cell.fromBoc(header.headerProof)[0];
    expect(proof.type).toBe(CellType.MerkleProof);
    expect(proof.refs[0].hash(0).equals(meta.rootHash)).toBe(true);
    expect(loadBlockInfo(proof.refs[0].refs[0].beginParse()).seqno).toBe(k);
    // a full id names one block, shard included: the right hashes under another shard are no block
    await expect(client.getBlockHeader({ ...byLt.id, shard: '4611686018427387904' })).rejects.toThrow(/block \(0,4000000000000000,\d+\) not found/);
    await expect(client.getBlockHeader({ ...byLt.id, shard: '9223372036854775807' })).rejects.toThrow(/invalid shard id 7fffffffffffffff/);
  });

  it('getFullBlock lists every transaction of the round in both chains', async () => {
    const full = await client.getFullBlock(2);
    const want = (wc: number) =>
      s.chain.store
        .transactions(s.chain.block(wc, 2)!)
        .map((t) => t.lt.toString())
        .sort();
    const got = (wc: number) =>
      full.shards
        .filter((x) => x.workchain === wc)
        .flatMap((x) => x.transactions.map((t) => t.lt!))
        .sort();
    expect(got(BASECHAIN)).toEqual(want(BASECHAIN));
    expect(got(MASTERCHAIN)).toEqual(want(MASTERCHAIN));
    expect(got(BASECHAIN).length).toBeGreaterThan(4);
  });

  it('listBlockTransactions pages with `after` and says `incomplete` until the last page', async () => {
    const blk = (await client.lookupBlockByID({ workchain: BASECHAIN, shard: MASTER_SHARD.toString(), seqno: 2 })).id;
    const all = s.chain.store.transactions(s.chain.block(BASECHAIN, 2)!);
    const seen: { account: string; lt: string; hash: string }[] = [];
    let after: { kind: 'liteServer.transactionId3'; account: Buffer; lt: string } | null = null;
    for (;;) {
      const page: Awaited<ReturnType<LiteClient['listBlockTransactions']>> = await client.listBlockTransactions(blk, {
        mode: 7 + (after ? 128 : 0),
        count: 2,
        after,
      });
      for (const t of page.ids) seen.push({ account: t.account!.toString('hex'), lt: t.lt!, hash: t.hash!.toString('hex') });
      const lastId: (typeof page.ids)[number] = page.ids[page.ids.length - 1];
      after = { kind: 'liteServer.transactionId3', account: lastId.account!, lt: lastId.lt! };
      expect(page.incomplete).toBe(seen.length < all.length);
      if (!page.incomplete) break;
    }
    expect(seen).toEqual(all.map((t) => ({ account: t.account.toString(16).padStart(64, '0'), lt: t.lt.toString(), hash: t.hash.toString('hex') })));
    // The Ext variant carries the transactions themselves, in reverse order on request.
    const ext = await engine.query(Functions.liteServer_listBlockTransactionsExt, {
      kind: 'liteServer.listBlockTransactionsExt',
      id: blk,
      mode: 7 + 64,
      count: 100,
      after: null,
      reverseOrder: true,
      wantProof: null,
    });
    expect(ext.incomplete).toBe(false);
    expect(Cell.fromBoc(ext.transactions).map((c) => c.hash().toString('hex'))).toEqual([...all].reverse().map((t) => t.hash.toString('hex')));
  });

  it('getAccountState before and after a transfer, and at an older block', async () => {
    const { wallets } = s;
    const before = (await client.getMasterchainInfo()).last;
    const a0 = await client.getAccountState(wallets.dave.address, before);
    await s.chain.sendExternal(await signedTransfer(wallets.carol, [{ to: wallets.dave.address, value: toNano(2) }]));
    await s.chain.seal();
    const after = (await client.getMasterchainInfo()).last;
    const a1 = await client.getAccountState(wallets.dave.address, after);
    expect(a1.balance.coins - a0.balance.coins).toBeGreaterThan(toNano(1.9));
    expect(a1.state?.storage.state.type).toBe('active');
    const latest = s.chain.account(wallets.dave.address)!;
    expect(a1.lastTx!.lt).toBe(latest.lastTransLt);
    expect(hashBuf(a1.lastTx!.hash).equals(latest.lastTransHash)).toBe(true);
    expect(a1.shardBlock.seqno).toBe(after.seqno);
    // the old block still answers the old state
    const again = await client.getAccountStateRaw(wallets.dave.address, before);
    expect(again.balance.coins).toBe(a0.balance.coins);
    // an address nobody used: no state
    const none = await client.getAccountState(new Address(0, Buffer.alloc(32, 0x77)), after);
    expect(none.state).toBeNull();
    expect(none.balance.coins).toBe(0n);
    // masterchain accounts too
    const m = await client.getAccountState(wallets.master.address, after);
    expect(m.balance.coins).toBeGreaterThan(toNano(10_000));
    const pruned = await client.getAccountStatePrunned(wallets.dave.address, after);
    // (ton-lite-client reads its stateHash from bit 8 of the pruned cell, i.e. level mask + 31 bytes of hash)
    expect(Cell.fromBoc(pruned.raw)[0].bits.subbuffer(16, 256)!.equals(latest.account.hash())).toBe(true);
    expect(pruned.stateHash).not.toBeNull();
  });

  it('getAccountTransactions pages back through the account, and matches the blocks', async () => {
    const { wallets } = s;
    const last = (await client.getMasterchainInfo()).last;
    const st = await client.getAccountState(wallets.dave.address, last);
    let lt = st.lastTx!.lt.toString();
    let hash = hashBuf(st.lastTx!.hash);
    const got: { lt: bigint; hash: string; block: tonNode_blockIdExt }[] = [];
    while (lt !== '0') {
      const page = await client.getAccountTransactions(wallets.dave.address, lt, hash, 2);
      const cells = Cell.fromBoc(page.transactions);
      expect(cells.length).toBe(page.ids.length);
      cells.forEach((c, i) => got.push({ lt: loadTransaction(c.beginParse()).lt, hash: c.hash().toString('hex'), block: page.ids[i] }));
      const oldest = loadTransaction(cells[cells.length - 1].beginParse());
      lt = oldest.prevTransactionLt.toString();
      hash = hashBuf(oldest.prevTransactionHash);
      if (cells.length < 2) break;
    }
    expect(got.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < got.length; i++) expect(got[i].lt).toBeLessThan(got[i - 1].lt);
    // every transaction sits in the block it is listed with, and getOneTransaction returns the same cell
    for (const t of got) {
      const inBlock = s.chain.store.transactions(s.chain.block(t.block.workchain, t.block.seqno)!).find((x) => x.lt === t.lt)!;
      expect(inBlock.hash.toString('hex')).toBe(t.hash);
      const one = await client.getAccountTransaction(wallets.dave.address, t.lt.toString(), t.block);
      expect(Cell.fromBoc(one.transaction)[0].hash().toString('hex')).toBe(t.hash);
    }
    await expect(client.getAccountTransactions(wallets.dave.address, '12345', Buffer.alloc(32), 5)).rejects.toThrow(/cannot locate transaction/);
  });

  it('transactions in account_blocks equal getOneTransaction answers', async () => {
    const id = (await client.lookupBlockByID({ workchain: BASECHAIN, shard: MASTER_SHARD.toString(), seqno: 2 })).id;
    const block = loadBlock(Cell.fromBoc((await engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id })).data)[0].beginParse());
    let n = 0;
    for (const [account, ab] of block.extra.accountBlocks.entries) {
      for (const [lt, t] of ab.value.transactions.entries) {
        const one = await client.getAccountTransaction(new Address(0, hashBuf(account)), lt.toString(), id);
        expect(Cell.fromBoc(one.transaction)[0].equals(t.value)).toBe(true);
        n++;
      }
    }
    expect(n).toBeGreaterThan(4);
  });

  it('runMethod at the latest and at an old block', async () => {
    const { wallets } = s;
    const last = (await client.getMasterchainInfo()).last;
    const now = await client.runMethod(wallets.carol.address, 'seqno', Buffer.alloc(0), last);
    expect(now.exitCode).toBe(0);
    const seqnoNow = Cell.fromBase64(now.result!).beginParse();
    const old = (await client.lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: 2 })).id;
    const then = await client.runMethod(wallets.carol.address, 'seqno', Buffer.alloc(0), old);
    const parse = (b64: string) => {
      const c = Cell.fromBase64(b64).beginParse();
      c.skip(24); // depth
      c.skip(8); // int tag 0x01
      return Number(c.loadIntBig(64));
    };
    void seqnoNow;
    expect(parse(now.result!)).toBe(wallets.carol.seqno);
    expect(parse(then.result!)).toBeLessThan(wallets.carol.seqno);
    await expect(client.runMethod(new Address(0, Buffer.alloc(32, 0x77)), 'seqno', Buffer.alloc(0), last)).rejects.toThrow(/does not exist/);
  });

  it('getConfig parses (every param of the chain config) and getLibraries returns libraries', async () => {
    const last = (await client.getMasterchainInfo()).last;
    const cfg = await client.getConfig(last);
    const chainCfg = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), s.chain.blockchain.config);
    expect([...cfg.config.keys()].sort((a, b) => a - b)).toEqual([...chainCfg.keys()].sort((a, b) => a - b));
    for (const k of chainCfg.keys()) expect(cfg.config.get(k)!.equals(chainCfg.get(k)!)).toBe(true);
    const libs = await client.getLibraries([library.hash(), Buffer.alloc(32, 1)]);
    expect(libs.result).toHaveLength(1);
    expect(Cell.fromBoc(libs.result[0].data)[0].equals(library)).toBe(true);
  });

  it('sendMessage: signed v4r2 and v5r1 transfers land in a later block; garbage is rejected with the exit code', async () => {
    const { wallets } = s;
    const v4 = await signedTransfer(wallets.alice, [{ to: wallets.bob.address, value: toNano(1), body: `via ${mode}` }]);
    const v5 = await signedTransfer(wallets.bob, [{ to: wallets.alice.address, value: toNano(1), body: `v5 via ${mode}` }]);
    for (const m of [v4, v5]) expect((await client.sendMessage(messageBoc(m))).status).toBe(1);
    const before = s.chain.lastSeqno;
    await s.chain.seal();
    for (const [m, w] of [
      [v4, wallets.alice],
      [v5, wallets.bob],
    ] as const) {
      const hash = beginCell().store(storeMessage(m)).endCell().hash();
      const st = await client.getAccountState(w.address, (await client.getMasterchainInfo()).last);
      const page = await client.getAccountTransactions(w.address, st.lastTx!.lt.toString(), hashBuf(st.lastTx!.hash), 10);
      const tx = Cell.fromBoc(page.transactions).findIndex((c) => c.refs[0].refs[0]?.hash().equals(hash));
      expect(tx).toBeGreaterThanOrEqual(0);
      expect(page.ids[tx].seqno).toBe(before + 1);
    }
    // replay of the same message: rejected by the wallet (seqno), with the exit code
    await expect(client.sendMessage(messageBoc(v4))).rejects.toThrow(/cannot apply external message.*exit code \d+/);
    const garbage = external({ to: wallets.alice.address, body: beginCell().storeUint(0xdead, 16).endCell() });
    await expect(client.sendMessage(messageBoc(garbage))).rejects.toThrow(/exit code \d+/);
    await expect(client.sendMessage(Buffer.from('not a bag of cells'))).rejects.toThrow(/cannot apply external message/);
  });

  it('@ton/ton through the lite client provider: open(WalletContractV5R1) getSeqno, getBalance, sendTransfer', async () => {
    const bob = s.wallets.bob;
    const wallet = client.open(WalletContractV5R1.create({ publicKey: bob.keys.publicKey }));
    expect(wallet.address.equals(bob.address)).toBe(true);
    const seqno = await wallet.getSeqno();
    expect(seqno).toBe(bob.seqno);
    const balance = await wallet.getBalance();
    expect(balance).toBeGreaterThan(0n);
    await wallet.sendTransfer({
      seqno,
      secretKey: bob.keys.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: s.wallets.carol.address, value: toNano(1), body: 'from @ton/ton' })],
    });
    bob.seqno += 1;
    await s.chain.seal();
    // a fresh client: ton-lite-client caches account states per block
    const fresh = new LiteClient({ engine });
    expect(await fresh.open(WalletContractV5R1.create({ publicKey: bob.keys.publicKey })).getSeqno()).toBe(seqno + 1);
  });

  it('answers what it cannot prove with liteServer.error, and waits for a masterchain seqno', async () => {
    const last = (await client.getMasterchainInfo()).last;
    await expect(
      engine.query(Functions.liteServer_getValidatorStats, { kind: 'liteServer.getValidatorStats', mode: 0, id: last, limit: 10, startAfter: null, modifiedAfter: null }),
    ).rejects.toThrow(/does not serve validator statistics/);
    // waitMasterchainSeqno: the answer comes once the block exists
    const waiting = engine.query(Functions.liteServer_getMasterchainInfo, { kind: 'liteServer.getMasterchainInfo' }, { awaitSeqno: last.seqno + 1, timeout: 5000 });
    setTimeout(() => void s.chain.seal(), 50);
    expect((await waiting).last.seqno).toBe(last.seqno + 1);
    await expect(
      engine.query(Functions.liteServer_getMasterchainInfo, { kind: 'liteServer.getMasterchainInfo' }, { awaitSeqno: last.seqno + 50, timeout: 300 }),
    ).rejects.toThrow(/timeout|Timeout/);
    // lookupBlockWithProof
    const res = await engine.query(Functions.liteServer_lookupBlockWithProof, {
      kind: 'liteServer.lookupBlockWithProof',
      mode: 1,
      id: { kind: 'tonNode.blockId', workchain: BASECHAIN, shard: MASTER_SHARD.toString(), seqno: 2 },
      mcBlockId: last,
      lt: null,
      utime: null,
    });
    expect(res.id.seqno).toBe(2);
    expect(res.mcBlockId.seqno).toBe(2);
    expect(Cell.fromBoc(res.header)[0].refs[0].hash(0).equals(s.chain.block(BASECHAIN, 2)!.rootHash)).toBe(true);
  });
});

describe('devnet lite handler: old states', () => {
  it('says clearly when a block is older than the kept states', async () => {
    const client = new LiteClient({ engine: new InProcessLiteEngine(handler) });
    const old = (await client.lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: 3 })).id;
    while (s.chain.lastSeqno < 3 + 50) await s.chain.seal();
    await expect(client.getAccountState(s.wallets.alice.address, old)).rejects.toThrow(/no longer kept: the devnet keeps the states of its last 50 blocks/);
    // blocks themselves stay available
    const data = await client.engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: old });
    expect(serializeBoc(Cell.fromBoc(data.data)[0]).length).toBeGreaterThan(0);
    // the zero state is always kept
    const zero = (await client.lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: 0 })).id;
    expect((await client.getAccountState(s.wallets.master.address, zero)).balance.coins).toBe(toNano(10_000));
    // and a block of another chain is not mistaken for one of this devnet
    await expect(client.getAccountState(s.wallets.alice.address, { ...old, rootHash: Buffer.alloc(32, 1) })).rejects.toThrow(/not a block of this devnet/);
    expect(hexId(s.wallets.alice.address)).toBeGreaterThan(0n);
  });
});
