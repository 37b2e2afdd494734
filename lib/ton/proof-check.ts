/**
 * Checks of the Merkle proofs and signatures liteservers send, as the node's lite-client does them
 * (crypto/block/check-proof.cpp): block header proofs, block proof links (forward: signed by the
 * validators of the source key block's configuration; backward: listed in the source's state),
 * shard block links, and account state proofs. Every check throws ProofError with what failed; a
 * pruned cell met where data is needed throws too (the proof did not include what it claims).
 *
 * Hashes are compared at level 0 (`hash(0)`): the hash of the original cell a proof stands for.
 */
import { Cell, type Slice } from '@ton/core';
import { loadBlockInfo, shardIdOf, type BlockInfo } from './block-info';
import { configParamCell } from './config-proof';
import { dictLeafSlice } from './hashmap-aug';
import { loadShardDescr } from './shard-hashes';
import { checkBlockSignatures, computeValidatorSubset, loadCatchainConfig, loadValidatorSet, MASTERCHAIN_SHARD, validatorSetHashShort, type BlockSignature } from './validator-set';

export class ProofError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProofError';
  }
}

export interface FullBlockId {
  workchain: number;
  /** Unsigned 64-bit shard id. */
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

const idText = (id: { workchain: number; shard: bigint; seqno: number }) => `(${id.workchain},${BigInt.asUintN(64, id.shard).toString(16)},${id.seqno})`;

function fail(message: string): never {
  throw new ProofError(message);
}

/** Runs a check; any error (a pruned cell read, a bad tag) becomes a ProofError saying where. */
function guarded<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ProofError) throw e;
    fail(`${what}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The virtual root of a MERKLE_PROOF cell (one root of a BoC, `index`). */
export function merkleProofRoot(boc: Buffer, index = 0, count?: number): Cell {
  return guarded('Merkle proof', () => {
    if (boc.length === 0) fail('empty proof');
    const roots = Cell.fromBoc(boc);
    if (count !== undefined && roots.length !== count) fail(`expected ${count} proof roots, got ${roots.length}`);
    const proof = roots[index];
    if (!proof) fail(`no proof root #${index}`);
    if (!proof.isExotic || proof.bits.length < 8 || proof.beginParse(true).loadUint(8) !== 3) fail('not a Merkle proof cell');
    const s = proof.beginParse(true);
    s.skip(8);
    const virtualHash = s.loadBuffer(32);
    const root = proof.refs[0];
    if (!root.hash(0).equals(virtualHash)) fail('Merkle proof hash does not match its content');
    return root;
  });
}

export interface CheckedHeader {
  info: BlockInfo;
  /** The state after the block (the new side of its state_update), when the proof has it. */
  stateHash?: Buffer;
}

/**
 * check_block_header_proof: the proof's root is the block `id` (root hash), its BlockInfo names the
 * same block, and (`needState`) its state_update's new hash is the state after the block.
 */
export function checkBlockHeader(root: Cell, id: FullBlockId, opts: { needState?: boolean } = {}): CheckedHeader {
  if (!root.hash(0).equals(id.rootHash)) fail(`block header proof of ${idText(id)} has root hash ${root.hash(0).toString('hex')}, not ${id.rootHash.toString('hex')}`);
  return guarded(`block header of ${idText(id)}`, () => {
    const s = root.beginParse();
    if (s.loadUint(32) !== 0x11ef55aa) fail('not a Block');
    const info = loadBlockInfo(root.refs[0].beginParse());
    const shard = BigInt.asUintN(64, shardIdOf(info.shard));
    if (info.seqno !== id.seqno || info.shard.workchainId !== id.workchain || shard !== BigInt.asUintN(64, id.shard)) {
      fail(`the header is of block ${idText({ workchain: info.shard.workchainId, shard, seqno: info.seqno })}`);
    }
    let stateHash: Buffer | undefined;
    if (opts.needState) {
      const upd = root.refs[2];
      if (!upd.isExotic || upd.bits.length !== 552 || upd.refs.length !== 2 || upd.beginParse(true).loadUint(8) !== 4) fail('invalid Merkle update in block header');
      stateHash = upd.refs[1].hash(0);
    }
    return { info, stateHash };
  });
}

/** Validator parameters of a configuration root (ConfigParam 35, else 34; and 28). */
function validatorsOfConfig(configRoot: Cell, ccSeqno: number) {
  const vsetCell = configParamCell(configRoot, 35) ?? configParamCell(configRoot, 34) ?? fail('the configuration has no validator set');
  const ccCell = configParamCell(configRoot, 28) ?? fail('the configuration has no catchain config (ConfigParam 28)');
  const vset = loadValidatorSet(vsetCell);
  return computeValidatorSubset(vset, loadCatchainConfig(ccCell), { workchain: -1, shard: MASTERCHAIN_SHARD }, ccSeqno);
}

/** The configuration root inside a key block (the last reference of its McBlockExtra). */
function keyBlockConfigRoot(root: Cell): Cell {
  const extra = root.refs[3];
  const s = extra.beginParse();
  if (s.loadUint(32) !== 0x4a33f6fd) fail('bad BlockExtra tag');
  s.loadRef();
  s.loadRef();
  s.loadRef();
  s.skip(512);
  const custom = s.loadMaybeRef() ?? fail('not a masterchain block');
  const cs = custom.beginParse();
  if (cs.loadUint(16) !== 0xcca5) fail('bad McBlockExtra tag');
  if (!cs.loadBit()) fail('the source of a forward link must be a key block');
  return custom.refs[custom.refs.length - 1];
}

/** McStateExtra of a masterchain ShardStateUnsplit: its configuration root and the ^[…] cell with prev_blocks. */
function mcStateExtra(stateRoot: Cell): { configRoot: Cell; more: Cell } {
  const s = stateRoot.beginParse();
  if (s.loadUint(32) !== 0x9023afe2) fail('not a ShardStateUnsplit');
  const custom = stateRoot.refs[stateRoot.refs.length - 1];
  if (stateRoot.refs.length < 4) fail('not a masterchain state');
  const cs = custom.beginParse();
  if (cs.loadUint(16) !== 0xcc26) fail('bad McStateExtra tag');
  if (cs.loadBit()) cs.loadRef();
  cs.skip(256);
  return { configRoot: cs.loadRef(), more: cs.loadRef() };
}

export interface ForwardLink {
  toKeyBlock: boolean;
  from: FullBlockId;
  to: FullBlockId;
  destProof: Buffer;
  configProof: Buffer;
  validatorSetHash: number;
  catchainSeqno: number;
  signatures: BlockSignature[];
}

export interface BackLink {
  toKeyBlock: boolean;
  from: FullBlockId;
  to: FullBlockId;
  destProof: Buffer;
  proof: Buffer;
  stateProof: Buffer;
}

export type BlockLink = ({ forward: true } & ForwardLink) | ({ forward: false } & BackLink);

/** What a checked link tells about its destination. */
export interface LinkResult {
  /** The destination's header (absent for the zero state). */
  header?: CheckedHeader;
}

/**
 * BlockProofLink::validate for a link whose `from` the caller trusts. A forward link: `from` is a key
 * block (or the zero state) whose configuration gives the validator set, and the destination's
 * signatures weigh more than 2/3 of it. A backward link: `from`'s state lists `to` among its previous
 * masterchain blocks.
 */
export function checkBlockLink(link: BlockLink): LinkResult {
  const { from, to } = link;
  if (from.workchain !== -1 || to.workchain !== -1) fail('block proof links connect masterchain blocks');
  if (from.seqno === to.seqno) fail(`link from ${idText(from)} to a block of the same height`);
  if (link.forward !== from.seqno < to.seqno) fail(`link from ${idText(from)} to ${idText(to)} goes the wrong way`);
  let header: CheckedHeader | undefined;
  if (to.seqno > 0) {
    if (link.destProof.length === 0) fail(`no proof of destination block ${idText(to)}`);
    header = checkBlockHeader(merkleProofRoot(link.destProof), to, { needState: true });
    if (header.info.keyBlock !== link.toKeyBlock) fail(`link says ${idText(to)} is${link.toKeyBlock ? '' : ' not'} a key block`);
  }
  if (!link.forward) {
    const src = checkBlockHeader(merkleProofRoot(link.proof), from, { needState: true });
    const state = merkleProofRoot(link.stateProof);
    if (!state.hash(0).equals(src.stateHash!)) fail(`state proof of ${idText(from)} has the wrong root hash`);
    guarded(`previous blocks of ${idText(from)}`, () => {
      const { more } = mcStateExtra(state);
      const s = more.beginParse();
      s.skip(16 + 32 + 32 + 1);
      const prevRoot = s.loadMaybeRef();
      const leaf = dictLeafSlice(prevRoot, 32, BigInt(to.seqno)) ?? fail(`${idText(to)} is not among the previous blocks of ${idText(from)}`);
      leaf.skip(1 + 64); // KeyMaxLt extra
      const isKey = leaf.loadBit();
      leaf.skip(64); // end_lt
      if (leaf.loadUint(32) !== to.seqno || !leaf.loadBuffer(32).equals(to.rootHash) || !leaf.loadBuffer(32).equals(to.fileHash)) {
        fail(`the state of ${idText(from)} names a different block ${idText(to)}`);
      }
      if (to.seqno > 0 && isKey !== header!.info.keyBlock) fail(`key block flag of ${idText(to)} differs from the state`);
    });
    return { header };
  }
  // forward link
  const srcRoot = merkleProofRoot(link.configProof);
  let configRoot: Cell;
  if (from.seqno > 0) {
    checkBlockHeader(srcRoot, from);
    configRoot = guarded(`configuration of key block ${idText(from)}`, () => keyBlockConfigRoot(srcRoot));
  } else {
    if (!srcRoot.hash(0).equals(from.rootHash)) fail(`zero state proof has root hash ${srcRoot.hash(0).toString('hex')}, not the trusted ${from.rootHash.toString('hex')}`);
    configRoot = guarded('configuration of the zero state', () => mcStateExtra(srcRoot).configRoot);
  }
  const info = header!.info;
  const nodes = guarded(`validator set of ${idText(from)}`, () => validatorsOfConfig(configRoot, info.genCatchainSeqno));
  if (nodes.length === 0) fail(`no validators for ${idText(to)}`);
  const hash = validatorSetHashShort(info.genCatchainSeqno, nodes);
  if (hash !== info.genValidatorListHashShort >>> 0) fail(`validator set of ${idText(from)} has hash ${hash}, block ${idText(to)} names ${info.genValidatorListHashShort >>> 0}`);
  if (link.validatorSetHash >>> 0 !== hash || link.catchainSeqno !== info.genCatchainSeqno) fail(`signature set of ${idText(to)} is for another validator set`);
  try {
    checkBlockSignatures(nodes, link.signatures, to);
  } catch (e) {
    fail(`signatures of ${idText(to)}: ${(e as Error).message}`);
  }
  return { header };
}

/**
 * A shard block link (liteServer.shardBlockLink): `proof` is a proof of the trusted block `from`
 * that names `link`: a masterchain block's shard hashes holding it as its shard's top block, or a
 * shard block whose previous block it is.
 */
export function checkShardBlockLink(from: FullBlockId, link: FullBlockId, proof: Buffer): void {
  const root = merkleProofRoot(proof);
  // A masterchain block's link proof keeps only BlockExtra's path to the shard hashes (the header is pruned).
  if (!root.hash(0).equals(from.rootHash)) fail(`shard block link proof has root hash ${root.hash(0).toString('hex')}, not ${idText(from)}'s`);
  guarded(`shard block link from ${idText(from)} to ${idText(link)}`, () => {
    if (from.workchain === -1) {
      const extra = root.refs[3];
      const custom = extra.refs[3] ?? fail('no McBlockExtra');
      const cs = custom.beginParse();
      if (cs.loadUint(16) !== 0xcca5) fail('bad McBlockExtra tag');
      cs.skip(1);
      const top = topShardBlock(cs.loadMaybeRef(), link.workchain, link.shard);
      if (top.seqno !== link.seqno || !top.rootHash.equals(link.rootHash) || !top.fileHash.equals(link.fileHash)) {
        fail(`the masterchain block names ${idText({ ...link, seqno: top.seqno })} as the shard's top block`);
      }
      return;
    }
    const prev = checkBlockHeader(root, from).info.prevRef;
    const refs = prev.kind === 'single' ? [prev.prev] : [prev.prev1, prev.prev2];
    if (!refs.some((r) => r.seqno === link.seqno && r.rootHash.equals(link.rootHash) && r.fileHash.equals(link.fileHash))) {
      fail(`block ${idText(from)} does not follow ${idText(link)}`);
    }
  });
}

/** The top block of the shard holding `shard` in a ShardHashes dictionary (a Merkle proof keeps the path). */
function topShardBlock(hashesRoot: Cell | null, workchain: number, shard: bigint): { seqno: number; rootHash: Buffer; fileHash: Buffer } {
  const leaf = dictLeafSlice(hashesRoot, 32, BigInt.asUintN(32, BigInt(workchain))) ?? fail(`no shards of workchain ${workchain}`);
  let cell = leaf.loadRef();
  const want = BigInt.asUintN(64, shard);
  for (let depth = 0; depth < 60; depth++) {
    const s = cell.beginParse();
    if (!s.loadBit()) return loadShardDescr(s);
    const bit = (want >> BigInt(63 - depth)) & 1n;
    cell = cell.refs[Number(bit)];
  }
  fail('shard tree too deep');
}

export interface AccountProofResult {
  /** The shard block's gen_utime and end_lt, and the account's last transaction (zero when absent). */
  genUtime: number;
  lastTransLt: bigint;
  lastTransHash: Buffer;
}

/**
 * check_shard_proof + check_account_proof for liteServer.accountState: `shardProof` ties the shard
 * block to the trusted masterchain block `mc` (its header and its state's shard hashes); `proof` ties
 * the state to the shard block's header and walks ShardAccounts to the account: present, its Account
 * cell is the answer's `state` (by hash); absent, the answer must be empty.
 */
export function checkAccountState(p: {
  mc: FullBlockId;
  shardBlock: FullBlockId;
  account: { workchain: number; id: Buffer };
  shardProof: Buffer;
  proof: Buffer;
  /** Hash of the answer's Account cell, or undefined when the answer says there is no account. */
  stateHash: Buffer | undefined;
}): AccountProofResult {
  const { mc, shardBlock } = p;
  if (shardBlock.workchain !== p.account.workchain) fail(`shard block ${idText(shardBlock)} cannot hold an account of workchain ${p.account.workchain}`);
  if (!shardContains(shardBlock.shard, p.account.id)) fail(`shard block ${idText(shardBlock)} cannot hold account ${p.account.id.toString('hex')}`);
  if (!(mc.workchain === shardBlock.workchain && mc.seqno === shardBlock.seqno && mc.rootHash.equals(shardBlock.rootHash))) {
    if (mc.workchain !== -1) fail('the reference block of an account state must be a masterchain block');
    const mcHeader = checkBlockHeader(merkleProofRoot(p.shardProof, 0, 2), mc, { needState: true });
    const mcState = merkleProofRoot(p.shardProof, 1, 2);
    if (!mcState.hash(0).equals(mcHeader.stateHash!)) fail(`shard configuration proof of ${idText(mc)} has the wrong state hash`);
    guarded('shard configuration proof', () => {
      const s = mcState.beginParse();
      if (s.loadUint(32) !== 0x9023afe2) fail('not a ShardStateUnsplit');
      const custom = mcState.refs[mcState.refs.length - 1];
      const cs = custom.beginParse();
      if (cs.loadUint(16) !== 0xcc26) fail('bad McStateExtra tag');
      const top = topShardBlock(cs.loadMaybeRef(), shardBlock.workchain, shardBlock.shard);
      if (top.seqno !== shardBlock.seqno || !top.rootHash.equals(shardBlock.rootHash) || !top.fileHash.equals(shardBlock.fileHash)) {
        fail(`masterchain block ${idText(mc)} names another top block for the shard of ${idText(shardBlock)}`);
      }
    });
  }
  const header = checkBlockHeader(merkleProofRoot(p.proof, 0, 2), shardBlock, { needState: true });
  const state = merkleProofRoot(p.proof, 1, 2);
  if (!state.hash(0).equals(header.stateHash!)) fail(`account state proof has a state hash other than block ${idText(shardBlock)}'s`);
  return guarded('account state proof', () => {
    const s = state.beginParse();
    if (s.loadUint(32) !== 0x9023afe2) fail('not a ShardStateUnsplit');
    const accounts = state.refs[1].beginParse();
    const leaf = dictLeafSlice(accounts.loadMaybeRef(), 256, BigInt('0x' + p.account.id.toString('hex')));
    const result: AccountProofResult = { genUtime: header.info.genUtime, lastTransLt: 0n, lastTransHash: Buffer.alloc(32) };
    if (!leaf) {
      if (p.stateHash) fail('the proof shows no such account, but the answer has a state');
      return result;
    }
    skipDepthBalanceInfo(leaf);
    const account = leaf.loadRef();
    if (!p.stateHash) fail('the proof shows the account exists, but the answer has no state');
    if (!account.hash(0).equals(p.stateHash)) fail(`account state hash mismatch: the proof has ${account.hash(0).toString('hex')}, the answer ${p.stateHash.toString('hex')}`);
    result.lastTransHash = leaf.loadBuffer(32);
    result.lastTransLt = leaf.loadUintBig(64);
    return result;
  });
}

/** depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection */
function skipDepthBalanceInfo(s: Slice): void {
  s.skip(5);
  s.loadCoins();
  s.loadMaybeRef();
}

function shardContains(shard: bigint, accountId: Buffer): boolean {
  const u = BigInt.asUintN(64, shard);
  const low = u & -u;
  const bits = 63 - (low.toString(2).length - 1);
  if (bits === 0) return true;
  const prefix = accountId.readBigUInt64BE(0);
  const maskBits = ((1n << BigInt(bits)) - 1n) << BigInt(64 - bits);
  return (prefix & maskBits) === (u & maskBits);
}
