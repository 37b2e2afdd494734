import {
  Account,
  Address,
  Cell,
  CellType,
  Dictionary,
  ShardAccount,
  beginCell,
  loadMasterchainStateExtra,
  loadShardStateUnsplit,
  storeShardAccounts,
} from '@ton/core';
import { describe, expect, it } from 'vitest';
import { merkleUpdateHashes } from './block';
import { serializeBoc } from './boc';
import { loadConfigParams } from './config';
import { AugEntry } from './hashmap-aug';
import { createMerkleProof, createMerkleUpdate, prunedBranch, shardStateAccountProof, shardStateConfigProof } from './merkle';
import {
  KeyExtBlkRef,
  KeyMaxLt,
  McStateExtra,
  creatorStatsValue,
  ShardAccountsDict,
  ShardStateUnsplitFull,
  emptyOutMsgQueueInfo,
  loadMcStateExtra,
  loadShardAccountsAug,
  loadShardStateUnsplitFull,
  oldMcBlocksInfoAug,
  shardAccountsAug,
  storeMcStateExtra,
  storeShardStateUnsplit,
} from './shard-state';
import { loadMcBlockExtra } from './mc-block-extra';
import { fixtureRoot } from '../testing/fixtures';

const TON = 1_000_000_000n;

function makeAccount(i: number, opts: { active?: boolean; splitDepth?: number } = {}): { id: bigint; sa: ShardAccount } {
  const hash = beginCell().storeUint(i, 32).storeUint(0xabcdef, 24).endCell().hash();
  const id = BigInt('0x' + hash.toString('hex'));
  const account: Account = {
    addr: new Address(0, hash),
    storageStats: { used: { cells: BigInt(1 + (i % 5)), bits: BigInt(100 + i) }, storageExtra: null, lastPaid: 1_700_000_000 + i },
    storage: {
      lastTransLt: BigInt(i) * 1_000_000n + 1n,
      balance: { coins: BigInt(i + 1) * TON + BigInt(i) },
      state: opts.active
        ? {
            type: 'active',
            state: {
              splitDepth: opts.splitDepth,
              code: beginCell().storeUint(0xc0de, 16).endCell(),
              data: beginCell().storeUint(i, 64).endCell(),
            },
          }
        : { type: 'uninit' },
    },
  };
  return {
    id,
    sa: { account, lastTransactionHash: BigInt(i) * 7919n, lastTransactionLt: BigInt(i) * 1_000_000n + 1n },
  };
}

function makeAccounts(n: number) {
  return Array.from({ length: n }, (_, i) => makeAccount(i, { active: i % 3 === 0, splitDepth: i === 9 ? 4 : undefined }));
}

function baseState(accounts: Cell, custom: McStateExtra | null = null): ShardStateUnsplitFull {
  return {
    globalId: -239,
    shardId: { shardPrefixBits: 0, workchainId: custom ? -1 : 0, shardPrefix: 0n },
    seqno: 12,
    vertSeqno: 0,
    genUtime: 1_750_000_000,
    genLt: 12_000_005n,
    minRefMcSeqno: 11,
    outMsgQueueInfo: emptyOutMsgQueueInfo(),
    beforeSplit: false,
    accounts,
    overloadHistory: 0n,
    underloadHistory: 0xffffffffffffffffn,
    totalBalance: { coins: 5_000_000_000n * TON },
    totalValidatorFees: { coins: 0n },
    libraries: null,
    masterRef: null,
    custom: custom && beginCell().store(storeMcStateExtra(custom)).endCell(),
  };
}

/** A masterchain McStateExtra built from the mainnet key block and its config. */
function mcStateExtra(globalBalance: bigint): McStateExtra {
  const config = loadConfigParams(fixtureRoot('config_46991999.boc').beginParse());
  const mcBlock = fixtureRoot('block_-1_8000000000000000_46991999.boc');
  const shardHashes = loadMcBlockExtra(mcBlock.refs[3].refs[3].beginParse()).shardHashes;
  const prevBlocks = new Map<bigint, AugEntry<KeyExtBlkRef, KeyMaxLt>>();
  for (const [seqno, key] of [[1, true], [2, false], [3, false], [5, true], [8, false]] as const) {
    const value = {
      key,
      blkRef: { endLt: BigInt(seqno) * 1000n + 4n, seqno, rootHash: Buffer.alloc(32, seqno), fileHash: Buffer.alloc(32, 255 - seqno) },
    };
    prevBlocks.set(BigInt(seqno), { value, extra: oldMcBlocksInfoAug.leafExtra!(value) });
  }
  const counters = Dictionary.empty(Dictionary.Keys.BigUint(256), creatorStatsValue);
  const c = { lastUpdated: 1_750_000_000, total: 10n, cnt2048: 3n, cnt65536: 9n };
  counters.set(0xaan, { mcBlocks: c, shardBlocks: { ...c, total: 99n } });
  return {
    shardHashes,
    config,
    flags: 1,
    validatorInfo: { validatorListHashShort: 0x12345678, catchainSeqno: 42, nxCcUpdated: false },
    prevBlocks: { entries: prevBlocks, extra: { key: true, maxEndLt: 8004n } },
    afterKeyBlock: true,
    lastKeyBlock: { endLt: 5004n, seqno: 5, rootHash: Buffer.alloc(32, 5), fileHash: Buffer.alloc(32, 250) },
    blockCreateStats: { kind: 'plain', counters },
    globalBalance: { coins: globalBalance },
  };
}

describe('ShardAccounts', () => {
  const accounts = makeAccounts(300);

  it('incremental updates equal a full build, with DepthBalanceInfo extras', () => {
    const full = ShardAccountsDict.fromEntries(accounts.map((a) => [a.id, a.sa] as const));
    const inc = new ShardAccountsDict();
    for (const a of [...accounts].reverse()) inc.set(a.id, a.sa);
    expect(inc.root!.hash()).toEqual(full.root!.hash());
    const total = inc.total();
    expect(total.balance.coins).toBe(accounts.reduce((s, a) => s + a.sa.account!.storage.balance.coins, 0n));
    expect(total.splitDepth).toBe(4);

    // Update one balance and delete another: still equal to rebuilding from scratch.
    const changed = makeAccount(10, { active: true });
    changed.sa.account!.storage.balance = { coins: 123n };
    inc.set(changed.id, changed.sa);
    inc.delete(accounts[20].id);
    const expected = accounts.filter((_, i) => i !== 20).map((a) => (a.id === changed.id ? changed : a));
    expect(inc.root!.hash()).toEqual(ShardAccountsDict.fromEntries(expected.map((a) => [a.id, a.sa] as const)).root!.hash());
    expect(inc.get(changed.id)!.account!.storage.balance.coins).toBe(123n);
    expect(inc.get(accounts[20].id)).toBeUndefined();
  });

  it('reads back with our reader and with @ton/core (which lacks the fork extras when writing)', () => {
    const dict = ShardAccountsDict.fromEntries(accounts.map((a) => [a.id, a.sa] as const));
    const cell = dict.toCell();
    const ours = loadShardAccountsAug(cell.beginParse());
    expect(ours.entries.size).toBe(300);
    expect(ours.extra).toEqual(dict.total());
    const core = loadShardStateUnsplit(beginCell().store(storeShardStateUnsplit(baseState(cell))).endCell().beginParse()).accounts!;
    for (const a of accounts) {
      const got = core.get(a.id)!;
      expect(got.shardAccount.lastTransactionLt).toBe(a.sa.lastTransactionLt);
      expect(got.depthBalanceInfo.balance.coins).toBe(a.sa.account!.storage.balance.coins);
      expect(got.shardAccount.account!.storage.balance.coins).toBe(a.sa.account!.storage.balance.coins);
    }
    // @ton/core's storeShardAccounts writes the same leaves but no fork/root extras: not ShardAccounts.
    const coreCell = beginCell().store(storeShardAccounts(core)).endCell();
    expect(coreCell.hash()).not.toEqual(cell.hash());
    expect(coreCell.refs[0].hash()).not.toEqual(cell.refs[0].hash());
  });

  // Speed is the devnet bench's to measure (npm run bench -- --only devnet); here, that updating a large
  // state in place gives exactly the state a rebuild from scratch gives.
  it('updates a 3000-account state incrementally to the same cell a full rebuild makes', () => {
    const many = Array.from({ length: 3000 }, (_, i) => makeAccount(i));
    const dict = ShardAccountsDict.fromEntries(many.map((a) => [a.id, a.sa] as const));
    for (let i = 0; i < 300; i++) {
      const a = many[(i * 7) % many.length];
      a.sa.lastTransactionLt += 1n;
      dict.set(a.id, a.sa);
    }
    const rebuilt = ShardAccountsDict.fromEntries(many.map((a) => [a.id, a.sa] as const));
    expect(dict.toCell().hash().equals(rebuilt.toCell().hash())).toBe(true);
  });
});

describe('ShardStateUnsplit writer', () => {
  it('writes a shard state that reads back field for field', () => {
    const dict = ShardAccountsDict.fromEntries(makeAccounts(20).map((a) => [a.id, a.sa] as const));
    const state = baseState(dict.toCell());
    state.masterRef = { endLt: 11_000_004n, seqno: 11, rootHash: Buffer.alloc(32, 1), fileHash: Buffer.alloc(32, 2) };
    const cell = beginCell().store(storeShardStateUnsplit(state)).endCell();
    expect(loadShardStateUnsplitFull(cell.beginParse())).toEqual(state);
    const core = loadShardStateUnsplit(cell.beginParse());
    expect(core).toMatchObject({ globalId: -239, seqno: 12, genLt: 12_000_005n, minRefMcSeqno: 11, beforeSplit: false, extras: null });
  });

  it('writes a masterchain state with McStateExtra that reads back', () => {
    const custom = mcStateExtra(100_000_000n * TON);
    const state = baseState(new ShardAccountsDict().toCell(), custom);
    const cell = beginCell().store(storeShardStateUnsplit(state)).endCell();
    const back = loadShardStateUnsplitFull(cell.beginParse());
    const extra = loadMcStateExtra(back.custom!.beginParse());
    expect(extra.config.configAddress).toBe(custom.config.configAddress);
    expect([...extra.config.config.keys()]).toEqual([...custom.config.config.keys()]);
    expect(extra.prevBlocks.entries.size).toBe(5);
    expect(extra.prevBlocks.extra).toEqual({ key: true, maxEndLt: 8004n });
    expect(extra.lastKeyBlock?.seqno).toBe(5);
    expect(extra.validatorInfo).toEqual(custom.validatorInfo);
    expect(extra.globalBalance.coins).toBe(100_000_000n * TON);
    expect(extra.blockCreateStats?.kind).toBe('plain');
    // Writing what was read gives the same cell.
    const again = beginCell().store(storeShardStateUnsplit(back)).endCell();
    expect(again.hash()).toEqual(cell.hash());
    // McStateExtra alone round-trips too.
    const mcCell = cell.refs[3];
    expect(beginCell().store(storeMcStateExtra(loadMcStateExtra(mcCell.beginParse()))).endCell().hash()).toEqual(mcCell.hash());
  });

  it('regression: @ton/core reads the config of McStateExtra only for a global balance in [2^56, 2^57)', () => {
    // 100M TON: the phantom bit @ton/core reads is the top bit of an 8-byte Grams length, and the rest parses.
    const ok = loadMasterchainStateExtra(beginCell().store(storeMcStateExtra(mcStateExtra(100_000_000n * TON))).endCell().beginParse());
    expect(ok.config.size).toBe(35);
    expect(ok.globalBalance.coins).not.toBe(100_000_000n * TON);
    // 5M TON: the length nibble starts with 0, so @ton/core takes the config as absent and then
    // runs out of bits reading the balance.
    const small = beginCell().store(storeMcStateExtra(mcStateExtra(5_000_000n * TON))).endCell();
    expect(() => loadMasterchainStateExtra(small.beginParse())).toThrow(/out of bounds/);
    // Ours reads both correctly.
    for (const balance of [5_000_000n * TON, 100_000_000n * TON, 5_000_000_000n * TON]) {
      const x = loadMcStateExtra(beginCell().store(storeMcStateExtra(mcStateExtra(balance))).endCell().beginParse());
      expect(x.config.config.size).toBe(35);
      expect(x.globalBalance.coins).toBe(balance);
    }
  });
});

describe('Merkle proofs and updates', () => {
  const accounts = makeAccounts(200);
  const dict = ShardAccountsDict.fromEntries(accounts.map((a) => [a.id, a.sa] as const));
  const stateRoot = beginCell().store(storeShardStateUnsplit(baseState(dict.toCell()))).endCell();

  it('a pruned branch stands for its cell at level 0', () => {
    const p = prunedBranch(stateRoot);
    expect(p.type).toBe(CellType.PrunedBranch);
    expect(p.hash(0)).toEqual(stateRoot.hash(0));
    expect(p.depth(0)).toBe(stateRoot.depth(0));
    expect(p.level()).toBe(1);
  });

  it('account proof parses like ton-lite-client getAccountState and reveals only that account', () => {
    const target = accounts[77];
    const proof = shardStateAccountProof(stateRoot, target.id);
    expect(proof.type).toBe(CellType.MerkleProof);
    expect(proof.refs[0].hash(0)).toEqual(stateRoot.hash());
    expect(proof.beginParse(true).skip(8).loadBuffer(32)).toEqual(stateRoot.hash());
    // liteServer.accountState.proof is a multi-root BoC: [block proof, state proof].
    const blockProof = createMerkleProof(beginCell().storeUint(0x11ef55aa, 32).storeRef(stateRoot).endCell(), {});
    const boc = serializeBoc([blockProof, proof]);
    const shardState = loadShardStateUnsplit(Cell.fromBoc(boc)[1].refs[0].beginParse());
    const found = shardState.accounts!.get(target.id)!;
    expect(found.shardAccount.lastTransactionLt).toBe(target.sa.lastTransactionLt);
    expect(found.shardAccount.lastTransactionHash).toBe(target.sa.lastTransactionHash);
    expect(found.shardAccount.account).toBeUndefined(); // the Account cell is pruned
    expect(shardState.accounts!.size).toBe(1);
    expect(boc.length).toBeLessThan(4000);

    const withAccount = shardStateAccountProof(stateRoot, target.id, { withAccount: true });
    const state2 = loadShardStateUnsplit(withAccount.refs[0].beginParse());
    expect(state2.accounts!.get(target.id)!.shardAccount.account!.storage.balance.coins).toBe(
      target.sa.account!.storage.balance.coins,
    );
    expect(() => shardStateAccountProof(stateRoot, 12345n)).toThrow(/not in the state/);
  });

  it('config proof parses like ton-lite-client getConfig', () => {
    const mcRoot = beginCell()
      .store(storeShardStateUnsplit(baseState(dict.toCell(), mcStateExtra(100_000_000n * TON))))
      .endCell();
    const proof = shardStateConfigProof(mcRoot);
    const boc = serializeBoc(proof);
    const state = loadShardStateUnsplit(Cell.fromBoc(boc)[0].refs[0].beginParse());
    expect(state.extras!.config.size).toBe(35);
    expect(state.extras!.config.get(34)!.hash()).toEqual(mcStateExtra(1n).config.config.get(34)!.hash());
    expect(state.accounts).toBeUndefined(); // pruned
    // The config subtree dominates; the accounts and other state parts are pruned.
    expect(boc.length).toBeLessThan(90_000);
  });

  it('MERKLE_UPDATE between two states keeps only the changed path', () => {
    const next = ShardAccountsDict.fromEntries(accounts.map((a) => [a.id, a.sa] as const));
    const changed = { ...accounts[5].sa, lastTransactionLt: 999_999_999n };
    next.set(accounts[5].id, changed);
    const newRoot = beginCell().store(storeShardStateUnsplit({ ...baseState(next.toCell()), seqno: 13 })).endCell();
    const update = createMerkleUpdate(stateRoot, newRoot);
    expect(update.type).toBe(CellType.MerkleUpdate);
    const h = merkleUpdateHashes(update);
    expect(h.oldHash).toEqual(stateRoot.hash());
    expect(h.newHash).toEqual(newRoot.hash());
    expect(h.oldDepth).toBe(stateRoot.depth());
    expect(h.newDepth).toBe(newRoot.depth());

    // Every pruned branch of the new side names a cell the old side exposes.
    const oldSide = new Set<string>();
    const walk = (c: Cell, visit: (c: Cell) => void) => {
      visit(c);
      c.refs.forEach((r) => walk(r, visit));
    };
    walk(update.refs[0], (c) => oldSide.add(c.hash(0).toString('hex')));
    let kept = 0;
    walk(update.refs[1], (c) => {
      if (c.type === CellType.PrunedBranch) expect(oldSide.has(c.hash(0).toString('hex'))).toBe(true);
      else kept++;
    });
    // Root, accounts cell, the dictionary path and the changed leaf: far fewer than the state's cells.
    expect(kept).toBeLessThan(25);
    expect(serializeBoc(update).length).toBeLessThan(6000);

    // An update between identical states prunes both sides at the root.
    const same = createMerkleUpdate(stateRoot, stateRoot);
    expect(same.refs[0].type).toBe(CellType.PrunedBranch);
    expect(same.refs[1].type).toBe(CellType.PrunedBranch);
  });

  it('ShardAccounts codec computes leaf extras from the account', () => {
    const a = makeAccount(3, { active: true, splitDepth: 2 });
    expect(shardAccountsAug.leafExtra!(a.sa)).toEqual({ splitDepth: 2, balance: a.sa.account!.storage.balance });
    expect(shardAccountsAug.leafExtra!({ ...a.sa, account: undefined })).toEqual({ splitDepth: 0, balance: { coins: 0n } });
  });
});
