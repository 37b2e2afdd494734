import fs from 'node:fs';
import path from 'node:path';
import { Address, Cell, SendMode, beginCell, external, loadTransaction, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBlock, type InMsg, type OutMsg } from '../ton';
import { DevnetChain, DevnetIdentityError } from './chain';
import { BASECHAIN, MASTERCHAIN } from './state';
import { openScenario, rmDir, signedTransfer, tempDir, verifyChain, type Scenario, type TestWallet } from '../testing/devnet';

const fresh = (n: number) => new Address(0, Buffer.alloc(32, n));

function blockOf(chain: DevnetChain, wc: number, seqno: number) {
  return loadBlock(chain.store.root(chain.block(wc, seqno)!).beginParse());
}

const inTypes = (b: ReturnType<typeof blockOf>) => [...b.extra.inMsgDescr.entries.values()].map((e) => (e.value as InMsg).type);
const outTypes = (b: ReturnType<typeof blockOf>) => [...b.extra.outMsgDescr.entries.values()].map((e) => (e.value as OutMsg).type);

describe('DevnetChain: one round', () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await openScenario();
  });
  afterAll(async () => {
    await s.chain.close();
    rmDir(s.dir);
  });

  it('starts from zero states and an empty first round', () => {
    const { chain } = s;
    expect(chain.lastSeqno).toBe(1);
    expect(chain.identity?.zeroState.masterchain.rootHash.equals(chain.block(MASTERCHAIN, 0)!.rootHash)).toBe(true);
    const mc = blockOf(chain, MASTERCHAIN, 1);
    expect(mc.info.keyBlock).toBe(true); // block 1 carries the config
    expect(mc.extra.custom?.config?.config.size).toBeGreaterThan(20);
    expect(blockOf(chain, BASECHAIN, 1).info.masterRef?.seqno).toBe(0);
  });

  it('seals transfers, bounces, cross-chain messages and deletions into blocks with the right descriptors', async () => {
    const { chain, faucet, wallets } = s;
    const { alice, bob, carol, dave, master } = wallets;
    const send = async (w: TestWallet, ...t: Parameters<typeof signedTransfer>[1]) => chain.sendExternal(await signedTransfer(w, t));
    await send(faucet, { to: alice.address, value: toNano(5) }, { to: bob.address, value: toNano(5), bounce: true, body: 'hello bob' });
    await send(bob, { to: carol.address, value: toNano(1), body: 'from v5' });
    await send(alice, { to: fresh(1), value: toNano(1), bounce: true }); // bounces: fresh(1) does not exist
    await send(carol, { to: fresh(2), value: toNano(1), bounce: false }); // creates an uninit account
    await send(master, { to: alice.address, value: toNano(2), body: 'from the masterchain' });
    await send(alice, { to: master.address, value: toNano(1), bounce: true });
    // dave sends everything and destroys itself; then it receives again and is an uninit account anew
    await chain.sendExternal(await signedTransfer(dave, [{ to: carol.address, value: 0n }], SendMode.CARRY_ALL_REMAINING_BALANCE + SendMode.DESTROY_ACCOUNT_IF_ZERO));
    await send(faucet, { to: dave.address, value: toNano(1), bounce: false });
    expect(chain.pendingCount).toBeGreaterThan(10);
    const round = await chain.seal();
    expect(round.seqno).toBe(2);
    expect(chain.pendingCount).toBe(0);

    const bc = blockOf(chain, BASECHAIN, 2);
    const mc = blockOf(chain, MASTERCHAIN, 2);
    expect(new Set(inTypes(bc))).toEqual(new Set(['importExt', 'importImm', 'importFin']));
    expect(new Set(outTypes(bc))).toEqual(new Set(['exportImm', 'exportNew']));
    expect(new Set(inTypes(mc))).toEqual(new Set(['importExt', 'importFin']));
    expect(new Set(outTypes(mc))).toEqual(new Set(['exportNew']));
    // every masterchain export is a basechain import and vice versa
    const keys = (m: Map<bigint, { value: InMsg | OutMsg }>, t: string) => [...m].filter(([, e]) => e.value.type === t).map(([k]) => k).sort();
    expect(keys(mc.extra.outMsgDescr.entries, 'exportNew')).toEqual(keys(bc.extra.inMsgDescr.entries, 'importFin'));
    expect(keys(bc.extra.outMsgDescr.entries, 'exportNew')).toEqual(keys(mc.extra.inMsgDescr.entries, 'importFin'));
    // immediate messages: each export_imm's reimport is the import_imm of the same message
    for (const [k, e] of bc.extra.outMsgDescr.entries) {
      const m = e.value as OutMsg;
      if (m.type !== 'exportImm') continue;
      const imp = bc.extra.inMsgDescr.entries.get(k)?.value as InMsg;
      expect(imp.type).toBe('importImm');
      expect(m.reimport.type === 'importImm' && imp.type === 'importImm' && m.reimport.transaction.hash().equals(imp.transaction.hash())).toBe(true);
    }
    // the masterchain block's fees_imported are the basechain block's fees
    expect(mc.valueFlow.feesImported.coins).toBe(bc.valueFlow.feesCollected.coins);

    // dave: deleted (account_none, gone from the state) and recreated: its next chain starts at 0
    const daveTxs = round.txs.filter((t) => t.account === BigInt('0x' + dave.address.hash.toString('hex'))).map((t) => loadTransaction(t.cell.beginParse()));
    expect(daveTxs.map((t) => t.endStatus)).toEqual(['non-existing', 'uninitialized']);
    expect(daveTxs[1].prevTransactionLt).toBe(0n);
    expect(daveTxs[1].oldStatus).toBe('non-existing');
    // a message to an address nobody has used: orig_status non-existing, as on the real chain
    const bounced = round.txs.find((t) => t.account === BigInt('0x' + fresh(1).hash.toString('hex')))!;
    expect(loadTransaction(bounced.cell.beginParse()).oldStatus).toBe('non-existing');
    expect(chain.account(fresh(1))).toBeUndefined();
    expect(chain.account(fresh(2))?.lastTransLt).toBeGreaterThan(0n);

    expect(verifyChain(chain)).toMatchObject({ blocks: 4 });
  });

  it('keeps the exact message cell an external was sent as, and rejects bad externals without a transaction', async () => {
    const { chain, wallets } = s;
    const ext = await signedTransfer(wallets.carol, [{ to: wallets.alice.address, value: toNano(1), body: 'exact' }]);
    // Put the body in a reference although it fits inline: @ton/core would re-encode it inline.
    const info = beginCell().storeUint(0b10, 2).storeUint(0, 2).storeAddress(wallets.carol.address).storeCoins(0).endCell();
    const cell = beginCell().storeSlice(info.beginParse()).storeBit(0).storeBit(1).storeRef(ext.body).endCell();
    await chain.sendExternalBoc(cell);
    const replay = chain.sendExternalBoc(cell);
    await expect(replay).rejects.toThrow(/exit/i);
    const garbage = external({ to: wallets.carol.address, body: beginCell().storeUint(0xdeadbeef, 32).endCell() });
    await expect(chain.sendExternal(garbage)).rejects.toThrow();
    const round = await chain.seal();
    const tx = round.txs.find((t) => t.inExternal)!;
    expect(round.txs.filter((t) => t.inExternal)).toHaveLength(1);
    expect(tx.inMsg!.hash().equals(cell.hash())).toBe(true);
    const inDescr = blockOf(chain, BASECHAIN, round.seqno).extra.inMsgDescr;
    expect(inDescr.entries.has(BigInt('0x' + cell.hash().toString('hex')))).toBe(true);
    verifyChain(chain);
  });
});

describe('DevnetChain: 300 rounds of traffic', () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await openScenario({ stateWindow: 100 });
  });
  afterAll(async () => {
    await s.chain.close();
    rmDir(s.dir);
  });

  it('keeps every invariant over 600 blocks', async () => {
    const { chain, faucet, wallets } = s;
    const ws = Object.values(wallets);
    let rnd = 0x2545f491;
    const next = (n: number) => {
      rnd ^= rnd << 13;
      rnd ^= rnd >>> 17;
      rnd ^= rnd << 5;
      return (rnd >>> 0) % n;
    };
    const rounds = 300;
    for (let r = 0; r < rounds; r++) {
      const k = next(4);
      for (let i = 0; i < k; i++) {
        const from = ws[next(ws.length)];
        const to = next(6) === 0 ? fresh(100 + next(20)) : ws[next(ws.length)].address;
        await chain.sendExternal(await signedTransfer(from, [{ to, value: toNano(0.01) * BigInt(1 + next(100)), bounce: next(2) === 0, body: next(2) ? 'x' : undefined }]));
      }
      if (r % 53 === 0) {
        await chain.sendExternal(await signedTransfer(faucet, ws.slice(0, 3).map((w) => ({ to: w.address, value: toNano(10) }))));
        await chain.sendExternal(await signedTransfer(faucet, ws.slice(3).map((w) => ({ to: w.address, value: toNano(10) }))));
      }
      await chain.seal();
    }
    const check = verifyChain(chain);
    expect(check.blocks).toBe(2 * (rounds + 1));
    expect(check.transactions).toBeGreaterThan(rounds * 2);
    // older states than the window are gone, newer ones kept
    expect(chain.state(BASECHAIN, chain.lastSeqno - 99)).toBeDefined();
    expect(chain.state(BASECHAIN, chain.lastSeqno - 150)).toBeUndefined();
    expect(chain.state(MASTERCHAIN, 0)).toBeDefined();
  }, 120_000);
});

describe('DevnetChain: persistence and identity', () => {
  it('restarts with the same directory: same zero state, next seqno, exact chains', async () => {
    const s = await openScenario({ seed: 'restart' });
    const { alice, bob } = s.wallets;
    for (let i = 0; i < 3; i++) {
      await s.chain.sendExternal(await signedTransfer(alice, [{ to: bob.address, value: toNano(1) }]));
      await s.chain.seal();
    }
    const zero = s.chain.identity!.zeroState.masterchain.rootHash;
    const last = s.chain.lastSeqno;
    const lastId = s.chain.lastBlock(MASTERCHAIN)!;
    await s.chain.close();

    const again = await DevnetChain.open({ dir: s.dir });
    expect(again.identity!.zeroState.masterchain.rootHash.equals(zero)).toBe(true);
    expect(again.lastSeqno).toBe(last);
    expect(again.lastBlock(MASTERCHAIN)!.rootHash.equals(lastId.rootHash)).toBe(true);
    expect(again.seed).toBe('restart');
    await again.sendExternal(await signedTransfer(alice, [{ to: bob.address, value: toNano(1) }]));
    const r = await again.seal();
    expect(r.seqno).toBe(last + 1);
    verifyChain(again);
    await again.close();

    // Without the snapshot the chain replays every block from the zero state.
    fs.rmSync(path.join(s.dir, 'state.boc'));
    // A torn write: half a round at the end of the index.
    fs.appendFileSync(path.join(s.dir, 'blocks.idx'), Buffer.alloc(150, 7));
    const third = await DevnetChain.open({ dir: s.dir });
    expect(third.lastSeqno).toBe(last + 1);
    await third.sendExternal(await signedTransfer(bob, [{ to: alice.address, value: toNano(1) }]));
    expect((await third.seal()).seqno).toBe(last + 2);
    verifyChain(third);
    await third.close();

    await expect(DevnetChain.open({ dir: s.dir, seed: 'another' })).rejects.toThrow(DevnetIdentityError);
    await expect(DevnetChain.open({ dir: s.dir, seed: 'another' })).rejects.toThrow(/created with seed "restart", not seed "another"/);
    rmDir(s.dir);
  });

  it('derives the zero state from the seed (and the genesis it runs): unique per devnet, deterministic per seed', async () => {
    const zeroOf = async (seed: string | undefined) => {
      const dir = tempDir();
      const chain = await DevnetChain.open({ dir, seed });
      chain.blockchain.now = 1_704_067_200;
      const faucet = new Address(0, Buffer.alloc(32, 0xfa));
      await chain.setGenesisAccount(faucet, { code: Cell.EMPTY, data: Cell.EMPTY, balance: 10n ** 17n });
      await chain.sealZeroState();
      chain.blockchain.now = undefined;
      await chain.seal();
      const id = chain.identity!;
      await chain.close();
      rmDir(dir);
      return { hash: id.zeroState.masterchain.rootHash.toString('hex'), seed: id.seed, seeded: id.seeded };
    };
    const a = await zeroOf('same');
    const b = await zeroOf('same');
    expect(a).toEqual(b);
    expect(a.seeded).toBe(true);
    const c = await zeroOf(undefined);
    const d = await zeroOf(undefined);
    expect(c.seeded).toBe(false);
    expect(c.seed).not.toBe(d.seed);
    // Even with the same accounts at the same time, devnets with different seeds differ.
    expect(new Set([a.hash, c.hash, d.hash]).size).toBe(3);
  });

  it('keeps fewer old states when they grow past the cell budget', async () => {
    const s = await openScenario({ stateWindow: 100, stateCellBudget: 100 });
    const { alice, bob, carol } = s.wallets;
    for (let i = 0; i < 6; i++) {
      await s.chain.sendExternal(await signedTransfer(alice, [{ to: bob.address, value: toNano(1) }]));
      await s.chain.sendExternal(await signedTransfer(carol, [{ to: bob.address, value: toNano(1) }]));
      await s.chain.seal();
    }
    expect(s.chain.stateWindow).toBeLessThan(7);
    expect(s.chain.state(BASECHAIN, s.chain.lastSeqno)).toBeDefined();
    expect(s.chain.state(BASECHAIN, 2)).toBeUndefined();
    await s.chain.close();
    rmDir(s.dir);
  });

  it('refuses genesis accounts once the zero state is sealed', async () => {
    const s = await openScenario();
    await expect(s.chain.setGenesisAccount(fresh(9), { code: Cell.EMPTY, data: Cell.EMPTY, balance: 1n })).rejects.toThrow(/zero state is already sealed/);
    await s.chain.close();
    rmDir(s.dir);
  });
});
