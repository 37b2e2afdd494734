/**
 * Test helpers: a devnet chain in a temporary directory with a small scenario of its own (no
 * genesis run: a faucet with the whole supply and a few wallets), and signed transfers.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Address, Cell, Dictionary, SendMode, beginCell, external, internal, loadTransaction, storeMessage, toNano, type Message } from '@ton/core';
import { keyPairFromSeed, sha256_sync, type KeyPair } from '@ton/crypto';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { SHARD_ALL, listShards, loadBlock, merkleUpdateHashes, shardChildren, shardContains, shardIdOf, shardParent, splitStateCell } from '../ton';
import { ACCOUNT_NONE, RawShardAccounts } from '../devnet/accounts';
import { DevnetChain, type BlockMeta } from '../devnet/chain';
import { nativeSigner } from '../devnet/contracts/signing';
import type { ShardSchedule } from '../devnet/shard-config';
import { BASECHAIN, MASTERCHAIN } from '../devnet/state';

export function tempDir(prefix = 'atlas-devnet-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export type TestWallet = {
  name: string;
  keys: KeyPair;
  address: Address;
  seqno: number;
  kind: 'v4' | 'v5';
  contract: WalletContractV4 | WalletContractV5R1;
};

export function makeWallet(name: string, kind: 'v4' | 'v5', workchain = 0): TestWallet {
  const keys = keyPairFromSeed(sha256_sync(`atlas-devnet-test:${name}`));
  const contract =
    kind === 'v4'
      ? WalletContractV4.create({ workchain, publicKey: keys.publicKey })
      : WalletContractV5R1.create({ publicKey: keys.publicKey, walletId: { networkGlobalId: -239, context: { workchain, subwalletNumber: 0, walletVersion: 'v5r1' } } });
  // (v5r1 takes its workchain from the wallet id's context.)
  return { name, keys, address: contract.address, seqno: 0, kind, contract };
}

export interface Transfer {
  to: Address;
  value: bigint;
  bounce?: boolean;
  body?: Cell | string;
  init?: { code: Cell; data: Cell };
}

/** Signs with Node's native ed25519 (see contracts/signing.ts). */
export function fastSigner(keys: KeyPair): (message: Cell) => Promise<Buffer> {
  return nativeSigner(keys.secretKey);
}

/** A signed external carrying `transfers` from `w` (seqno advances). */
export async function signedTransfer(
  w: TestWallet,
  transfers: Transfer[],
  sendMode = SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
): Promise<Message> {
  const messages = transfers.map((t) => internal({ to: t.to, value: t.value, bounce: t.bounce ?? false, body: t.body, init: t.init }));
  const args = { seqno: w.seqno, signer: fastSigner(w.keys), messages, sendMode, timeout: Math.floor(Date.now() / 1000) + 600 };
  const body = w.contract instanceof WalletContractV4 ? await w.contract.createTransfer(args) : await (w.contract as WalletContractV5R1).createTransfer(args);
  w.seqno += 1;
  return external({ to: w.address, body });
}

export function messageBoc(m: Message): Buffer {
  return beginCell().store(storeMessage(m)).endCell().toBoc();
}

export interface Scenario {
  chain: DevnetChain;
  dir: string;
  faucet: TestWallet;
  /** Deployed wallets funded in round 1: alice (v4), bob (v5), carol (v4), dave (v5), master (v4, masterchain). */
  wallets: Record<'alice' | 'bob' | 'carol' | 'dave' | 'master', TestWallet>;
}

/** Total supply of the test scenarios, the same as the genesis' (100M TON: within the range @ton/core's getConfig parses). */
export const TEST_SUPPLY = 10n ** 17n;

/**
 * A chain with the faucet (v4r2, the whole supply) and alice/bob/carol/dave/master deployed in the
 * zero state with 10,000 TON each taken out of it. Round 1 is sealed (empty).
 */
export async function openScenario(
  opts: { dir?: string; seed?: string; stateWindow?: number; stateCellBudget?: number; shards?: number; shardSchedule?: ShardSchedule } = {},
): Promise<Scenario> {
  const dir = opts.dir ?? tempDir();
  const chain = await DevnetChain.open({
    dir,
    seed: opts.seed ?? 'test-scenario',
    stateWindow: opts.stateWindow,
    stateCellBudget: opts.stateCellBudget,
    shards: opts.shards,
    shardSchedule: opts.shardSchedule,
  });
  const faucet = makeWallet('faucet', 'v4');
  const wallets = {
    alice: makeWallet('alice', 'v4'),
    bob: makeWallet('bob', 'v5'),
    carol: makeWallet('carol', 'v4'),
    dave: makeWallet('dave', 'v5'),
    master: makeWallet('master', 'v4', -1),
  };
  const each = toNano(10_000);
  await chain.setGenesisAccount(faucet.address, { ...faucet.contract.init, balance: TEST_SUPPLY - each * 5n });
  for (const w of Object.values(wallets)) await chain.setGenesisAccount(w.address, { ...w.contract.init, balance: each });
  await chain.seal();
  return { chain, dir, faucet, wallets };
}

export function rmDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

// ---- invariants over a whole chain ----------------------------------------------------------

export interface ChainCheck {
  blocks: number;
  transactions: number;
  accounts: number;
}

const fail = (msg: string): never => {
  throw new Error(`chain invariant: ${msg}`);
};

/**
 * Checks every stored block of `chain` (every shard of both workchains) and throws on the first
 * violation: the block parses with lib/ton's reader and hashes to its id; each block's prev refs
 * name its predecessors (its shard's previous block; the parent's after a split; both children's
 * after a merge: lt, seqno, hashes), and its state_update starts from their state (the parent's
 * whole state; split_state of the two); shard blocks name the previous masterchain block as
 * master_ref; each masterchain block registers exactly the basechain blocks of its round;
 * gen_utime never decreases; value flow balances; every transaction parses with @ton/core's
 * loadTransaction, lies within its block's lt range and its block's shard, sits in the in/out
 * message descriptors, and continues its account's lt / prev_trans_hash chain (which restarts from
 * zero after the account was deleted); the last states' ShardAccounts name each account's last
 * transaction.
 */
export function verifyChain(chain: DevnetChain): ChainCheck {
  const last = chain.lastSeqno;
  const v: Verify = { chain, transactions: 0, blocks: 0, accounts: new Map(), tips: new Map() };
  v.tips.set(`${MASTERCHAIN}:${SHARD_ALL}`, chain.block(MASTERCHAIN, 0)!);
  v.tips.set(`${BASECHAIN}:${SHARD_ALL}`, chain.block(BASECHAIN, 0)!);
  for (let k = 1; k <= last; k++) {
    const round = chain.store.round(k);
    if (round.length === 0) fail(`round ${k} has no basechain block`);
    const before = new Map(v.tips);
    for (const meta of round) verifyBlock(v, meta, before, k);
    verifyBlock(v, chain.block(MASTERCHAIN, k) ?? fail(`masterchain block ${k} missing`), before, k);
    for (const key of [...v.tips.keys()]) if (key.startsWith(`${BASECHAIN}:`) && !round.some((m) => key === `${BASECHAIN}:${m.shard}`)) v.tips.delete(key);
  }
  verifyLastStates(v, last);
  return { blocks: v.blocks, transactions: v.transactions, accounts: v.accounts.size };
}

interface Verify {
  chain: DevnetChain;
  transactions: number;
  blocks: number;
  accounts: Map<string, { lt: bigint; hash: Buffer; deleted: boolean; newHash: Buffer }>;
  /** The newest block of each `wc:shard`. */
  tips: Map<string, BlockMeta>;
}

const tipKey = (wc: number, shard: bigint) => `${wc}:${shard}`;

function verifyBlock(v: Verify, meta: BlockMeta, before: Map<string, BlockMeta>, k: number): void {
  const { chain } = v;
  const wc = meta.workchain;
  const where = `block (${wc}, ${meta.shard.toString(16)}, ${k})`;
  const root = chain.store.root(meta);
  if (!root.hash().equals(meta.rootHash)) fail(`${where}: root hash`);
  if (!createHash('sha256').update(chain.store.boc(meta)).digest().equals(meta.fileHash)) fail(`${where}: file hash`);
  const block = loadBlock(root.beginParse());
  const info = block.info;
  if (info.seqno !== k || info.shard.workchainId !== wc || BigInt.asUintN(64, shardIdOf(info.shard)) !== meta.shard) fail(`${where}: seqno/shard`);
  const prevShards = info.afterMerge ? shardChildren(meta.shard) : info.afterSplit ? [shardParent(meta.shard)] : [meta.shard];
  const prevs = prevShards.map((s) => before.get(tipKey(wc, s)) ?? fail(`${where}: no block of shard ${s.toString(16)} before it`));
  const refs = info.prevRef.kind === 'merged' ? [info.prevRef.prev1, info.prevRef.prev2] : [info.prevRef.prev];
  if (refs.length !== prevs.length) fail(`${where}: prev ref kind`);
  refs.forEach((p, i) => {
    const prev = prevs[i];
    if (p.seqno !== prev.seqno || !p.rootHash.equals(prev.rootHash) || !p.fileHash.equals(prev.fileHash) || p.endLt !== prev.endLt) fail(`${where}: prev ref does not name block ${prev.seqno}`);
    if (info.genUtime < prev.genUtime) fail(`${where}: gen_utime decreased`);
    if (info.startLt < prev.endLt) fail(`${where}: lt range starts before its predecessor ends`);
  });
  if (info.endLt <= info.startLt) fail(`${where}: lt range ${info.startLt}..${info.endLt}`);
  if (info.startLt !== meta.startLt || info.endLt !== meta.endLt || info.genUtime !== meta.genUtime) fail(`${where}: index disagrees`);
  if (wc === BASECHAIN) {
    const mcPrev = chain.block(MASTERCHAIN, k - 1)!;
    if (!info.masterRef || info.masterRef.seqno !== k - 1 || !info.masterRef.rootHash.equals(mcPrev.rootHash)) fail(`${where}: master_ref`);
  } else {
    const custom = block.extra.custom ?? fail(`${where}: no McBlockExtra`);
    const shards = listShards(custom.shardHashes);
    const round = chain.store.round(k);
    if (shards.length !== round.length || round.some((sb, i) => shards[i].shard !== sb.shard || shards[i].descr.seqno !== k || !shards[i].descr.rootHash.equals(sb.rootHash) || !shards[i].descr.fileHash.equals(sb.fileHash))) {
      fail(`${where}: shard hashes do not register the basechain blocks of round ${k}`);
    }
  }
  verifyStateUpdate(v, where, block, meta, prevs, info.afterMerge);
  const vf = block.valueFlow;
  const lhs = vf.fromPrevBlk.coins + vf.imported.coins + vf.feesImported.coins + vf.created.coins + vf.minted.coins + vf.recovered.coins;
  const rhs = vf.toNextBlk.coins + vf.exported.coins + vf.feesCollected.coins + (vf.burned?.coins ?? 0n);
  if (lhs !== rhs) fail(`${where}: value flow off by ${lhs - rhs}`);
  verifyTransactions(v, where, block, meta);
  v.tips.set(tipKey(wc, meta.shard), meta);
  v.blocks++;
}

function verifyStateUpdate(v: Verify, where: string, block: ReturnType<typeof loadBlock>, meta: BlockMeta, prevs: BlockMeta[], afterMerge: boolean): void {
  const mu = merkleUpdateHashes(block.stateUpdate);
  const states = prevs.map((p) => v.chain.state(p.workchain, p.seqno, p.shard));
  if (states.every((s) => s !== undefined)) {
    const old = afterMerge ? splitStateCell(states[0]!, states[1]!) : states[0]!;
    if (!mu.oldHash.equals(old.hash())) fail(`${where}: state_update old hash`);
  }
  const kept = v.chain.state(meta.workchain, meta.seqno, meta.shard);
  if (kept && !kept.hash().equals(mu.newHash)) fail(`${where}: state_update new hash`);
}

function verifyTransactions(v: Verify, where: string, block: ReturnType<typeof loadBlock>, meta: BlockMeta): void {
  const info = block.info;
  const txs: { account: bigint; lt: bigint; cell: Cell }[] = [];
  for (const [account, ab] of block.extra.accountBlocks.entries) {
    for (const [lt, t] of ab.value.transactions.entries) txs.push({ account, lt, cell: t.value });
  }
  txs.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  for (const { account, lt, cell } of txs) {
    v.transactions++;
    const tx = loadTransaction(cell.beginParse());
    const key = `${meta.workchain}:${account.toString(16)}`;
    if (tx.address !== account || tx.lt !== lt) fail(`${where}: transaction under the wrong account or lt key`);
    if (!shardContains(meta.shard, account >> 192n)) fail(`${where}: ${key} is not in the block's shard`);
    const endLt = tx.lt + 1n + BigInt(tx.outMessagesCount);
    if (tx.lt < info.startLt || endLt > info.endLt) fail(`${where}: transaction lt ${tx.lt} outside the block`);
    const before = v.accounts.get(key);
    const live = before && !before.deleted;
    const wantLt = live ? before.lt : 0n;
    const wantHash = live ? before.hash : Buffer.alloc(32);
    const gotHash = Buffer.from(tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex');
    if (tx.prevTransactionLt !== wantLt || !gotHash.equals(wantHash)) fail(`${where}: ${key} lt ${tx.lt}: prev_trans ${tx.prevTransactionLt} (want ${wantLt})`);
    if (before && before.lt >= tx.lt) fail(`${where}: ${key} lt does not increase`);
    if (tx.stateUpdate.oldHash.length && before && !tx.stateUpdate.oldHash.equals(before.deleted ? ACCOUNT_NONE.hash() : before.newHash)) {
      fail(`${where}: ${key} lt ${tx.lt}: state_update.old does not continue the account`);
    }
    if (tx.inMessage) {
      const inCell = cell.refs[0].refs[0];
      if (!block.extra.inMsgDescr.entries.has(BigInt('0x' + inCell.hash().toString('hex')))) fail(`${where}: in message of ${key} ${tx.lt} not in InMsgDescr`);
    }
    const msgs = cell.refs[0].beginParse();
    if (msgs.loadBit()) msgs.loadRef();
    for (const m of msgs.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell()).values()) {
      if (!block.extra.outMsgDescr.entries.has(BigInt('0x' + m.hash().toString('hex')))) fail(`${where}: out message of ${key} ${tx.lt} not in OutMsgDescr`);
    }
    v.accounts.set(key, { lt: tx.lt, hash: cell.hash(), deleted: tx.endStatus === 'non-existing', newHash: tx.stateUpdate.newHash });
  }
}

/** Each account's last transaction is what the newest state of its shard names. */
function verifyLastStates(v: Verify, last: number): void {
  const states = [
    { wc: MASTERCHAIN, shard: SHARD_ALL, state: v.chain.state(MASTERCHAIN, last) },
    ...v.chain.store.round(last).map((m) => ({ wc: BASECHAIN, shard: m.shard, state: v.chain.state(BASECHAIN, last, m.shard) })),
  ];
  for (const [key, a] of v.accounts) {
    const [w, hex] = key.split(':');
    const id = BigInt('0x' + hex);
    const holder = states.find((s) => s.wc === Number(w) && shardContains(s.shard, id >> 192n));
    if (!holder?.state) continue;
    const sa = RawShardAccounts.fromCell(holder.state.refs[1]).get(id);
    if (a.deleted) {
      if (sa) fail(`account ${key} was deleted but is in the last state`);
      continue;
    }
    if (!sa || sa.lastTransLt !== a.lt || !sa.lastTransHash.equals(a.hash)) {
      fail(`account ${key}: last state does not name its last transaction`);
      continue;
    }
    if (!sa.account.hash().equals(a.newHash)) fail(`account ${key}: last state's account is not its last transaction's new state`);
  }
}
