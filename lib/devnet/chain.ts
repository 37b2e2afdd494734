/**
 * The devnet's chain: one @ton/sandbox Blockchain whose every transaction lands in a block.
 *
 * The masterchain and the basechain's shards advance in lockstep: seal() makes round k = one block
 * of seqno k for every basechain shard of the round's layout, then masterchain block k registering
 * them in its ShardHashes. With one shard (DEVNET_SHARDS=1, no schedule) that is basechain block k
 * of shard 8000000000000000 and masterchain block k. With more, the zero state is still one shard;
 * ConfigParam 12's min_split makes it split (shard-config.ts) until the layout has DEVNET_SHARDS
 * shards, and DEVNET_SHARD_SCHEDULE makes it split once more and merge back, on a cycle.
 *
 * Between seals, externals run their cascade (sendExternal) as far as their shard reaches: a
 * message to an account of the same shard, or between the basechain and the masterchain, runs at
 * once (the same round); a message to another basechain shard waits in its shard's out queue and
 * runs right after the next seal (the destination's block of the next round imports it; see
 * round.ts and shard-tip.ts). The transactions wait in `pending`; seal() takes them all.
 * sendExternal and seal share one lock.
 *
 * Logical time: blocks of round k span [base_k, end_k]; the sandbox gives each transaction
 * lt = previous + 1,000,000 (its own rule), so after a round the chain moves the sandbox's lt to
 * base_{k+1} = end rounded up to a multiple of 1,000,000 and the next transaction gets
 * base_{k+1} + 1,000,000. The masterchain block starts where the basechain blocks end unless it
 * holds masterchain transactions of the same round, whose lts interleave with the basechain's
 * (the sandbox runs one global clock); its range then starts at base_k too.
 *
 * Time follows the wall clock (the sandbox's `now` is left unset), except while startDevnet runs a
 * seeded genesis with `now` pinned (so that the zero state, which holds last_paid times, is the same
 * on every machine); the zero state takes the sandbox's `now` when it is sealed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { Address, Cell, Dictionary, loadCommonMessageInfo, loadMessage, type Message } from '@ton/core';
import { createShardAccount, type BlockchainTransaction, type PrevBlocksInfo } from '@ton/sandbox';
import {
  SHARD_ALL,
  accountPrefix,
  addCurrencyCollections,
  emptyProcessedInfo,
  loadConfigDict,
  loadShardStateUnsplitFull,
  serializeBoc,
  shardContains,
  type GlobalVersion,
  type ShardDescr,
  type SplitMergeTimings,
} from '../ton';
import { accountId, CellInterner, RawShardAccounts, type RawShardAccount } from './accounts';
import { buildBlock, extBlkRef, RoundIndex, type BuiltBlock, type ExecutedTx } from './block-builder';
import { BlockStore, sortTxs, type BlockMeta, type BlockTx } from './block-store';
import { clearChainFiles, readIdentity, writeIdentity, writeSnapshot, writeZeroStates, type ChainIdentity } from './chain-files';
import { readSizeLimits, type SizeLimits } from '../ton/size-limits';
import { lockDir, type DirLock } from './dir-lock';
import type { ChainDriver } from './genesis/driver';
import { storageUsedOf } from './genesis/driver';
import { diffMerkleUpdateStats } from './merkle-update';
import { applyAccounts, buildShardBlock, sumBalances, type Deliveries, type PendingTx, type RoundContext } from './round';
import { restoreStates, RestoreError, type RestoredStates, type StatesAt } from './restore';
import { DevnetBlockchain } from './sandbox';
import {
  configShardRules,
  nextLayout,
  registerShardBlocks,
  splitLimits,
  withShardLimits,
  type LayoutEntry,
  type ShardSchedule,
  type SplitLimits,
} from './shard-config';
import { ShardQueue, type QueuedMessage, type ShardTip } from './shard-tip';
import { DevnetValidators, devnetValidatorKeys, withDevnetValidators } from './validators';
import {
  BASECHAIN,
  MASTERCHAIN,
  addPrevBlock,
  buildMcStateExtra,
  buildShardState,
  configAddressOf,
  configIdentity,
  librariesFromSandboxLibs,
  readMcStateExtra,
  sandboxLibsFromLibraries,
  shardDescr,
  shardHashesOf,
  shardLeaves,
  singleShardHashes,
} from './state';
/** Logical time granularity of block starts (the node's lt_align). */
export const LT_ALIGN = 1_000_000n;

const roundUpLt = (lt: bigint) => ((lt + LT_ALIGN - 1n) / LT_ALIGN) * LT_ALIGN;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Structured logger (pino-compatible subset). */
export interface ChainLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

const silentLogger: ChainLogger = { info() {}, warn() {}, error() {}, debug() {} };

/** The data directory holds a different devnet than the caller asked for. */
export class DevnetIdentityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DevnetIdentityError';
  }
}

export interface DevnetChainOptions {
  /** The devnet directory ($ATLAS_DATA_DIR/devnet). */
  dir: string;
  /** Seed of a new devnet, or the seed the existing one must have. Absent: reuse / random. */
  seed?: string;
  /** Basechain shards of a new devnet (1, 2, 4 or 8), or those the existing one must have. Absent: reuse / 1. */
  shards?: number;
  /** Split and merge on a schedule (a devnet created without one refuses it). Absent: reuse / off. */
  shardSchedule?: ShardSchedule;
  /** Rounds of old states kept in memory for getAccountState / runSmcMethod at older blocks (default 1000). */
  stateWindow?: number;
  /** Upper bound of the cells those old states may add up to (default 1,000,000, a few hundred MB); heavy traffic shrinks the window. */
  stateCellBudget?: number;
  /** Rounds between state snapshots on disk (default 500; also written on close). */
  snapshotEvery?: number;
  log?: ChainLogger;
}

/** A block's id as the lite API names it, plus its lt range and time. */
export type { BlockMeta, BlockTx } from './block-store';

export interface SealedRound {
  seqno: number;
  /** The round's basechain blocks, one per shard, shards in ascending order. */
  shards: BlockMeta[];
  mc: BlockMeta;
  /** Transactions of the round (both chains), in lt order. */
  txs: ExecutedTx[];
}

/** The masterchain's newest block and state. */
interface Tip {
  accounts: RawShardAccounts;
  state: Cell;
  meta: BlockMeta;
}

/** A round's masterchain block, built: the block, the new tip, its OldMcBlocksInfo root and how many cells its state added. */
interface SealedMasterchain {
  meta: BlockMeta;
  block: BuiltBlock;
  tip: Tip;
  prevBlocksRoot: Cell;
  newCells: number;
}

interface Trace {
  initiator: Address;
  initiatorLt: bigint;
  /** Hops from the external message (the message this trace entry belongs to). */
  depth: number;
}

class Lock {
  #tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn, fn);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}

function metaOfState(workchain: number, root: Cell, boc: Buffer, genUtime: number): BlockMeta {
  return {
    workchain,
    shard: SHARD_ALL,
    seqno: 0,
    rootHash: root.hash(),
    fileHash: createHash('sha256').update(boc).digest(),
    startLt: 0n,
    endLt: 0n,
    genUtime,
    keyBlock: true,
  };
}

/** Deterministic 32 bytes of the chain for a purpose (rand_seed, created_by). */
function derive(seed: string, what: string): Buffer {
  return createHash('sha256').update(`atlas-devnet:${seed}:${what}`).digest();
}

const hashKey = (hash: Buffer) => hash.toString('latin1');
const byLt = (a: { lt: bigint }, b: { lt: bigint }) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0);

export class DevnetChain implements ChainDriver {
  readonly blockchain: DevnetBlockchain;
  readonly store: BlockStore;
  readonly seed: string;
  readonly seeded: boolean;
  readonly dir: string;
  readonly #log: ChainLogger;
  readonly #lock = new Lock();
  readonly #events = new EventEmitter();
  readonly #stateWindow: number;
  readonly #stateCellBudget: number;
  readonly #snapshotEvery: number;
  /** DEVNET_SHARDS and DEVNET_SHARD_SCHEDULE of a new chain (an existing one keeps its own). */
  readonly #shards: number;
  readonly #schedule: ShardSchedule;
  /**
   * The validators of the devnet's configuration (lib/devnet/validators.ts): they sign its masterchain
   * blocks; their subsets' hashes go into block headers and McStateExtra.validator_info. Known once the
   * zero state is sealed (a new chain) or restored.
   */
  #validators: DevnetValidators | undefined;
  /** gen_validator_list_hash_short of masterchain blocks, and of one-shard basechain blocks of a devnet made before it had validators. */
  #mcListHash = 0;
  #legacyShardListHash: number | undefined;

  #identity: ChainIdentity | undefined;
  /** Zero states while the genesis is being built (before the first round commits them). */
  #genesis: { mc: RawShardAccounts; basechain: RawShardAccounts } | undefined;
  #zero: { mc: Cell; basechain: Cell; mcMeta: BlockMeta; basechainMeta: BlockMeta } | undefined;
  #mcTip: Tip | undefined;
  /** Every basechain shard's newest block and state (the leaves of the last masterchain block). */
  #bcTips = new Map<bigint, ShardTip>();
  /** The masterchain's ShardDescr of each basechain leaf, and the shards of the round being filled. */
  #descrs = new Map<bigint, ShardDescr>();
  #layout: LayoutEntry[] = [{ shard: SHARD_ALL, prev: [SHARD_ALL], afterSplit: false, afterMerge: false, ccSeqno: 0, fsm: { kind: 'none' } }];
  #limits: SplitLimits = { minSplit: 0, maxSplit: 0 };
  #timings: SplitMergeTimings = { splitMergeDelay: 0, splitMergeInterval: 0, minSplitMergeInterval: 0, maxSplitMergeDelay: 0 };
  /** Queued messages already imported, awaiting their dequeue. */
  readonly #deliveries: Deliveries = new Map();
  #window = new Map<number, StatesAt>();
  #windowCells = 0;
  #prevBlocksRoot: Cell | null = null;
  #lastKeyBlock: BlockMeta | undefined;
  #configKey = '';
  #configCache: { b64: string; root: Cell; address: bigint } | undefined;
  #librariesKey = '';
  #libraries: Cell | null = null;
  #globalVersion: GlobalVersion = { version: 0, capabilities: 0n };
  #globalId = -239;
  #ltBase = LT_ALIGN;
  #pending: PendingTx[] = [];
  readonly #interner = new CellInterner();
  #traces = new Map<string, Trace>();
  #lastMcBlocks: BlockMeta[] = [];
  #sinceSnapshot = 0;
  #closed = false;
  readonly #dirLock: DirLock;
  #sizeLimits: { config: string; limits: SizeLimits } | undefined;

  private constructor(opts: {
    dir: string;
    lock: DirLock;
    seed: string;
    seeded: boolean;
    shards: number;
    schedule: ShardSchedule;
    blockchain: DevnetBlockchain;
    store: BlockStore;
    log: ChainLogger;
    stateWindow: number;
    stateCellBudget: number;
    snapshotEvery: number;
  }) {
    this.dir = opts.dir;
    this.#dirLock = opts.lock;
    this.seed = opts.seed;
    this.seeded = opts.seeded;
    this.#shards = opts.shards;
    this.#schedule = opts.schedule;
    this.blockchain = opts.blockchain;
    this.store = opts.store;
    this.#log = opts.log;
    this.#stateWindow = opts.stateWindow;
    this.#stateCellBudget = opts.stateCellBudget;
    this.#snapshotEvery = opts.snapshotEvery;
    this.#events.setMaxListeners(0);
  }

  /** Opens the devnet in `dir`: continues the chain found there, or prepares a new one (see needsGenesis). */
  static async open(opts: DevnetChainOptions): Promise<DevnetChain> {
    fs.mkdirSync(opts.dir, { recursive: true });
    // One process at a time: a second one appending to blocks.pack would corrupt the chain.
    const lock = lockDir(opts.dir);
    try {
      return await DevnetChain.#openLocked(opts, lock);
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  static async #openLocked(opts: DevnetChainOptions, lock: DirLock): Promise<DevnetChain> {
    const log = opts.log ?? silentLogger;
    const identity = readIdentity(opts.dir);
    const schedule: ShardSchedule = opts.shardSchedule ?? identity?.shardSchedule ?? { kind: 'off' };
    const common = {
      dir: opts.dir,
      lock,
      log,
      schedule,
      stateWindow: opts.stateWindow ?? 1000,
      stateCellBudget: opts.stateCellBudget ?? 1_000_000,
      snapshotEvery: opts.snapshotEvery ?? 500,
    };
    if (!identity) {
      splitLimits(opts.shards ?? 1, schedule); // refuses a shard count the devnet cannot run
      clearChainFiles(opts.dir);
      const seed = opts.seed ?? randomBytes(16).toString('hex');
      const chain: DevnetChain = new DevnetChain({
        ...common,
        seed,
        seeded: opts.seed !== undefined,
        shards: opts.shards ?? 1,
        store: BlockStore.open(opts.dir, { reset: true, format: 2 }),
        blockchain: await DevnetBlockchain.createDevnet((a) => chain.#lookup(a)),
      });
      chain.#genesis = { mc: new RawShardAccounts(), basechain: new RawShardAccounts() };
      return chain;
    }
    checkIdentity(opts, identity);
    const store = BlockStore.open(opts.dir, { format: identity.format });
    let restored: RestoredStates;
    try {
      restored = restoreStates(opts.dir, identity, store, common.stateWindow, log);
    } catch (e) {
      store.close();
      throw e instanceof RestoreError ? new DevnetIdentityError(e.message) : e;
    }
    const mcView = readMcStateExtra(loadShardStateUnsplitFull(restored.mc.beginParse()).custom!);
    let chain: DevnetChain | undefined = undefined;
    const blockchain = await DevnetBlockchain.createDevnet((a) => chain!.#lookup(a), mcView.configRoot);
    chain = new DevnetChain({ ...common, seed: identity.seed, seeded: identity.seeded, shards: identity.shards, store, blockchain });
    chain.#identity = identity;
    chain.#adopt(restored, mcView);
    await chain.#deliverQueued();
    log.info({ seqno: store.rounds, shards: chain.#bcTips.size, dir: opts.dir }, 'devnet chain restored');
    return chain;
  }

  // ---- identity ------------------------------------------------------------------------------

  /** True for a new devnet whose zero state is still open: run the genesis, then seal(). */
  get needsGenesis(): boolean {
    return this.#identity === undefined;
  }

  /** Zero state ids (available once the zero state is sealed: after the first sendExternal or seal). */
  get identity(): ChainIdentity | undefined {
    return this.#identity;
  }

  get globalId(): number {
    return this.#globalId;
  }

  // ---- ChainDriver ---------------------------------------------------------------------------

  async setGenesisAccount(address: Address, init: { code: Cell; data: Cell; balance: bigint; lastPaid?: number }): Promise<void> {
    await this.#lock.run(async () => {
      if (!this.#genesis || this.#zero) throw new Error('setGenesisAccount: the zero state is already sealed');
      const accounts = address.workChain === MASTERCHAIN ? this.#genesis.mc : address.workChain === BASECHAIN ? this.#genesis.basechain : null;
      if (!accounts) throw new Error(`setGenesisAccount: the devnet has no workchain ${address.workChain}`);
      const sa = createShardAccount({ address, code: init.code, data: init.data, balance: init.balance });
      if (sa.account) {
        sa.account.storageStats.used = storageUsedOf(init.code, init.data);
        sa.account.storageStats.lastPaid = init.lastPaid ?? this.#now();
      }
      await this.blockchain.setShardAccount(address, sa);
      // The state keeps exactly the cell the sandbox will hand its executor.
      const held = await this.blockchain.heldAccount(address);
      accounts.set(accountId(address.hash), { ...held, account: this.#interner.account(held.account) });
      await this.blockchain.dropParsedAccount(address);
    });
  }

  async sendExternal(message: Message): Promise<void> {
    if (message.info.type !== 'external-in') throw new Error('sendExternal: not an external-in message');
    await this.#lock.run(async () => {
      this.#sealZeroState();
      await this.#runCascade(message);
    });
  }

  /**
   * liteServer.sendMessage: the external as its sender serialized it. Its transaction keeps this
   * exact cell as in_msg (so the hash the sender computed finds it). Throws the sandbox's error
   * when the account rejects it.
   */
  async sendExternalBoc(cell: Cell): Promise<void> {
    const msg = loadMessage(cell.beginParse());
    if (msg.info.type !== 'external-in') throw new Error('not an external inbound message');
    await this.#lock.run(async () => {
      this.#sealZeroState();
      this.blockchain.capturing.registerOriginal(cell);
      await this.#runCascade(cell);
    });
  }

  #now(): number {
    return this.blockchain.now ?? nowSeconds();
  }

  /** The chain's size limits (ConfigParam 43) in force: what an external message is checked against. */
  sizeLimits(): SizeLimits {
    const config = this.blockchain.configBase64; // the sandbox keeps it as this string
    if (this.#sizeLimits?.config !== config) this.#sizeLimits = { config, limits: readSizeLimits(Cell.fromBase64(config)) };
    return this.#sizeLimits.limits;
  }

  /**
   * Runs a message and, breadth first as the sandbox's own queue would, every internal message it
   * causes that its shard delivers this round; messages to other basechain shards stay undelivered
   * (they go into the sender's queue when the round is sealed). `imported`: the message comes out of
   * a queue.
   */
  async #runCascade(first: Message | Cell, imported?: QueuedMessage): Promise<void> {
    const queue: (Message | Cell)[] = [first];
    let from = imported;
    while (queue.length > 0) {
      const it = await this.blockchain.sendMessageIter(queue.shift()!, { allowParallel: true });
      const r = await it.next();
      if (r.done) continue;
      const tx = r.value;
      await this.#record(tx, from);
      from = undefined;
      for (const [, out] of tx.outMessages) {
        if (out.info.type === 'internal' && this.#deliversNow(out.info.src, out.info.dest)) queue.push(out);
      }
    }
  }

  /** Whether a message between these addresses is delivered in the round that created it. */
  #deliversNow(src: Address, dest: Address): boolean {
    if (src.workChain !== BASECHAIN || dest.workChain !== BASECHAIN) return true;
    return this.#shardOf(src) === this.#shardOf(dest);
  }

  /** The shard of the round being filled that holds an address (the whole workchain for the masterchain). */
  #shardOf(address: Address): bigint {
    if (address.workChain !== BASECHAIN) return SHARD_ALL;
    const prefix = accountPrefix(address.hash);
    const entry = this.#layout.find((e) => shardContains(e.shard, prefix));
    if (!entry) throw new Error(`devnet: no shard holds ${address.toRawString()}`);
    return entry.shard;
  }
  async #record(tx: BlockchainTransaction, imported: QueuedMessage | undefined): Promise<void> {
    const captured = this.blockchain.capturing.take();
    if (!captured) throw new Error('devnet: the executor result of a transaction was not captured');
    // The sandbox decoded the same BoC into tx.raw; the resulting account is decoded at seal time,
    // and only for an account's last transaction of the round.
    const cell = tx.raw;
    const info = tx.inMessage?.info;
    const dest = info && (info.type === 'internal' || info.type === 'external-in') ? info.dest : undefined;
    if (!dest) throw new Error('devnet: a transaction without an inbound message (tick-tock) cannot be sealed');
    const msgs = cell.refs[0].beginParse();
    const inMsg = msgs.loadBit() ? msgs.loadRef() : null;
    const outDict = msgs.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
    const outMsgs = [...outDict.keys()].sort((a, b) => a - b).map((k) => outDict.get(k)!);
    const inExternal = info?.type === 'external-in';
    let trace: Trace;
    if (inExternal) trace = { initiator: dest, initiatorLt: tx.lt, depth: 0 };
    else trace = (inMsg && this.#traces.get(inMsg.hash().toString('latin1'))) ?? { initiator: dest, initiatorLt: tx.lt, depth: 1 };
    for (const m of outMsgs) {
      if (loadCommonMessageInfo(m.beginParse()).type !== 'internal') continue;
      this.blockchain.capturing.registerOriginal(m);
      this.#traces.set(m.hash().toString('latin1'), { initiator: trace.initiator, initiatorLt: trace.initiatorLt, depth: trace.depth + 1 });
    }
    // The node drops account_none from ShardAccounts, so the account's next transaction starts a
    // new chain (prev_trans_lt 0); the sandbox would keep the old last_trans_*.
    const deleted = tx.endStatus === 'non-existing';
    if (deleted) await this.blockchain.resetToNone(dest);
    else await this.blockchain.dropParsedAccount(dest);
    this.#pending.push({
      cell,
      hash: cell.hash(),
      workchain: dest.workChain,
      account: tx.address,
      lt: tx.lt,
      endLt: tx.lt + 1n + BigInt(tx.outMessagesCount),
      now: tx.now,
      totalFees: tx.totalFees,
      inMsg,
      inExternal,
      outMsgs,
      initiator: trace.initiator,
      initiatorLt: trace.initiatorLt,
      depth: trace.depth,
      shard: this.#shardOf(dest),
      imported,
      after: deleted ? null : captured.shardAccount,
    });
  }

  #lookup(address: Address): RawShardAccount | undefined {
    const id = accountId(address.hash);
    if (this.#genesis && !this.#zero) {
      return (address.workChain === MASTERCHAIN ? this.#genesis.mc : this.#genesis.basechain).get(id);
    }
    if (address.workChain === MASTERCHAIN) return this.#mcTip?.accounts.get(id);
    return address.workChain === BASECHAIN ? this.#tipHolding(accountPrefix(address.hash))?.accounts.get(id) : undefined;
  }

  /** The newest basechain tip whose shard holds an account prefix. */
  #tipHolding(prefix: bigint): ShardTip | undefined {
    for (const t of this.#bcTips.values()) if (shardContains(t.shard, prefix)) return t;
    return undefined;
  }

  // ---- zero state ----------------------------------------------------------------------------

  /**
   * Closes the zero state (the first sendExternal or seal does it too). Its gen_utime is the
   * sandbox's `now` at this moment: call it while a pinned genesis time is still set.
   */
  sealZeroState(): Promise<void> {
    return this.#lock.run(async () => this.#sealZeroState());
  }

  /** The zero state's configuration: the sandbox's with the devnet's validators and, for several shards or a schedule, its shard limits. */
  #zeroStateConfig(genesisTime: number): Cell {
    let config = withDevnetValidators(this.blockchain.config, devnetValidatorKeys(this.seed), genesisTime);
    // One shard without a schedule keeps the sandbox's ConfigParam 12 (the zero state of every devnet made before shards).
    if (this.#shards > 1 || this.#schedule.kind !== 'off') config = withShardLimits(config, splitLimits(this.#shards, this.#schedule));
    return config;
  }

  #sealZeroState(): void {
    if (this.#zero || !this.#genesis) return;
    const genesisTime = this.#now();
    this.blockchain.setConfig(this.#zeroStateConfig(genesisTime));
    const { root: configRoot } = this.#config();
    this.#useConfig(configRoot);
    const bcAccounts = this.#genesis.basechain;
    const mcAccounts = this.#genesis.mc;
    const bcState = buildShardState({
      globalId: this.#globalId,
      workchain: BASECHAIN,
      seqno: 0,
      genUtime: genesisTime,
      genLt: 0n,
      minRefMcSeqno: 0,
      accounts: bcAccounts.toCell(),
      totalBalance: bcAccounts.total().balance,
      libraries: null,
      masterRef: null,
      custom: null,
    });
    const bcMeta = metaOfState(BASECHAIN, bcState, serializeBoc(bcState), genesisTime);
    this.#libraries = librariesFromSandboxLibs(this.blockchain.libs);
    this.#librariesKey = this.blockchain.libs?.hash().toString('hex') ?? '';
    const zeroDescr = shardDescr({
      seqno: 0,
      regMcSeqno: 0,
      startLt: 0n,
      endLt: 0n,
      rootHash: bcMeta.rootHash,
      fileHash: bcMeta.fileHash,
      genUtime: genesisTime,
      minRefMcSeqno: 0,
      feesCollected: { coins: 0n },
    });
    const custom = buildMcStateExtra({
      shardHashes: singleShardHashes(BASECHAIN, zeroDescr),
      configAddress: this.#config().address,
      configRoot,
      prevBlocksRoot: null,
      afterKeyBlock: true,
      lastKeyBlock: null,
      globalBalance: addCurrencyCollections(bcAccounts.total().balance, mcAccounts.total().balance),
      validatorListHashShort: this.#mcListHash,
    });
    const mcState = buildShardState({
      globalId: this.#globalId,
      workchain: MASTERCHAIN,
      seqno: 0,
      genUtime: genesisTime,
      genLt: 0n,
      minRefMcSeqno: 0,
      accounts: mcAccounts.toCell(),
      totalBalance: mcAccounts.total().balance,
      libraries: this.#libraries,
      masterRef: null,
      custom,
    });
    const mcMeta = metaOfState(MASTERCHAIN, mcState, serializeBoc(mcState), genesisTime);
    this.#zero = { mc: mcState, basechain: bcState, mcMeta, basechainMeta: bcMeta };
    this.#mcTip = { accounts: mcAccounts, state: mcState, meta: mcMeta };
    this.#bcTips = new Map([[SHARD_ALL, { shard: SHARD_ALL, accounts: bcAccounts, queue: new ShardQueue(), processed: emptyProcessedInfo(), state: bcState, meta: bcMeta }]]);
    this.#descrs = new Map([[SHARD_ALL, zeroDescr]]);
    this.#layout = nextLayout(this.#descrs);
    this.#lastKeyBlock = mcMeta;
    this.#lastMcBlocks = [mcMeta];
    this.#identity = {
      format: 2,
      shards: this.#shards,
      shardSchedule: this.#schedule,
      seed: this.seed,
      seeded: this.seeded,
      globalId: this.#globalId,
      genesisTime,
      zeroState: {
        masterchain: { rootHash: mcMeta.rootHash, fileHash: mcMeta.fileHash },
        basechain: { rootHash: bcMeta.rootHash, fileHash: bcMeta.fileHash },
      },
      createdAt: new Date().toISOString(),
    };
    this.#ltBase = LT_ALIGN;
    this.blockchain.setLt(this.#ltBase);
    this.blockchain.random = derive(this.seed, 'rand:1');
    this.blockchain.capturing.setPrevBlocks(this.#prevBlocksInfo());
  }

  /** What the chain takes from its configuration: identity, version, validators, shard rules. */
  #useConfig(configRoot: Cell, restoredListHash?: number): void {
    const ident = configIdentity(configRoot);
    this.#globalId = ident.globalId;
    this.#globalVersion = { version: ident.version, capabilities: ident.capabilities };
    this.#configKey = configRoot.hash().toString('hex');
    this.#useValidators(configRoot, restoredListHash);
    const rules = configShardRules(configRoot);
    this.#limits = rules.limits;
    this.#timings = rules.timings;
  }
  // ---- sealing -------------------------------------------------------------------------------

  /** Seals the pending transactions into round k: a block of every basechain shard, then masterchain block k. */
  seal(): Promise<SealedRound> {
    return this.#lock.run(async () => this.#seal());
  }

  /**
   * A round, by stage: collect the pending transactions, build every shard's block and the masterchain
   * block over them (each applies its transactions to its state and diffs the states), persist the
   * blocks, move the chain's state to the new tips, then publish the round.
   */
  async #seal(): Promise<SealedRound> {
    if (this.#closed) throw new Error('devnet chain is closed');
    this.#sealZeroState();
    const seqno = this.#mcTip!.meta.seqno + 1;
    const txs = this.#collectPending();
    const ctx = this.#roundContext(seqno, txs);
    const shards = this.#layout.map((entry) => buildShardBlock(ctx, entry, this.#bcTips, txs.filter((t) => t.workchain === BASECHAIN && t.shard === entry.shard)));
    const descrs = registerShardBlocks(this.#descrs, shards.map((s) => s.facts), { mcSeqno: seqno, now: ctx.genUtime, limits: this.#limits, timings: this.#timings });
    const mc = this.#sealMasterchain(ctx, txs.filter((t) => t.workchain === MASTERCHAIN), shards, descrs);
    this.#persistRound(seqno, txs, shards, mc);
    this.#advance(seqno, shards, descrs, mc);
    const round: SealedRound = { seqno, shards: shards.map((s) => s.tip.meta), mc: mc.meta, txs };
    this.#events.emit('round', round);
    await this.#deliverQueued();
    return round;
  }

  /** The round's transactions: every pending one of a workchain the devnet has, in lt order. */
  #collectPending(): PendingTx[] {
    const pending = this.#pending;
    this.#pending = [];
    const txs = pending.filter((t) => t.workchain === BASECHAIN || t.workchain === MASTERCHAIN);
    if (txs.length !== pending.length) this.#log.warn({ dropped: pending.length - txs.length }, 'transactions in unknown workchains left out of blocks');
    txs.sort(byLt);
    return txs;
  }

  /** What every block of round `seqno` shares: time, lt base, identity, random seed, the masterchain tip it refers to. */
  #roundContext(seqno: number, txs: PendingTx[]): RoundContext {
    const mcTip = this.#mcTip!;
    const genUtime = Math.max(mcTip.meta.genUtime, ...[...this.#bcTips.values()].map((t) => t.meta.genUtime), this.#now());
    return {
      seqno,
      genUtime,
      base: this.#ltBase,
      globalId: this.#globalId,
      globalVersion: this.#globalVersion,
      prevKeyBlockSeqno: this.#lastKeyBlock?.seqno ?? 0,
      randSeed: derive(this.seed, `rand:${seqno}`),
      createdBy: derive(this.seed, 'created_by'),
      mcRef: extBlkRef(mcTip.meta),
      interner: this.#interner,
      index: new RoundIndex(txs),
      listHash: (shard, cc) => this.#shardListHash(shard, cc),
      schedule: this.#schedule,
      limits: this.#limits,
      deliveries: this.#deliveries,
    };
  }

  /** The round's blocks on disk (and, with the first round, the zero states and the chain's identity). */
  #persistRound(seqno: number, txs: PendingTx[], shards: ReturnType<typeof buildShardBlock>[], mc: SealedMasterchain): void {
    const firstRound = seqno === 1;
    if (firstRound) writeZeroStates(this.dir, this.#zero!.mc, this.#zero!.basechain);
    // (The built roots are not cached: the BoC and the transaction list are what queries need, and a
    // busy block's cells take megabytes; a query that needs the tree decodes the BoC again.)
    this.store.appendRound([
      ...shards.map((s) => ({ meta: s.tip.meta, boc: s.block.boc, txs: blockTxs(txs.filter((t) => t.workchain === BASECHAIN && t.shard === s.tip.shard)) })),
      { meta: mc.meta, boc: mc.block.boc, txs: blockTxs(txs.filter((t) => t.workchain === MASTERCHAIN)) },
    ]);
    if (firstRound) writeIdentity(this.dir, this.#identity!);
  }

  /** The chain moves to the round's tips: shard layout, kept states, the next round's lt and random seed, a snapshot when due. */
  #advance(seqno: number, shards: ReturnType<typeof buildShardBlock>[], descrs: Map<bigint, ShardDescr>, mc: SealedMasterchain): void {
    this.#bcTips = new Map(shards.map((s) => [s.tip.shard, s.tip]));
    this.#descrs = descrs;
    this.#layout = nextLayout(descrs);
    this.#mcTip = mc.tip;
    this.#prevBlocksRoot = mc.prevBlocksRoot;
    if (mc.meta.keyBlock) this.#lastKeyBlock = mc.meta;
    this.#keepState(seqno, { mc: mc.tip.state, shards: new Map(shards.map((s) => [s.tip.shard, s.tip.state])), cells: mc.newCells + shards.reduce((n, s) => n + s.newCells, 0) });
    this.#lastMcBlocks = [mc.meta, ...this.#lastMcBlocks].slice(0, 16);
    const ends = [mc.meta.endLt, ...shards.map((s) => s.tip.meta.endLt)];
    this.#ltBase = roundUpLt(ends.reduce((a, b) => (a > b ? a : b)));
    this.blockchain.setLt(this.#ltBase);
    this.blockchain.random = derive(this.seed, `rand:${seqno + 1}`);
    this.blockchain.capturing.setPrevBlocks(this.#prevBlocksInfo());
    this.blockchain.capturing.clearOriginals();
    this.blockchain.forgetTransactions();
    this.#traces.clear();
    if (++this.#sinceSnapshot >= this.#snapshotEvery) this.snapshot();
  }

  /** Masterchain block k: its own transactions, and the round's shard blocks registered in ShardHashes and ShardFees. */
  #sealMasterchain(ctx: RoundContext, mcTxs: PendingTx[], shards: ReturnType<typeof buildShardBlock>[], descrs: Map<bigint, ShardDescr>): SealedMasterchain {
    const mcTip = this.#mcTip!;
    const bcEnd = shards.reduce((m, s) => (s.tip.meta.endLt > m ? s.tip.meta.endLt : m), ctx.base + 1n);
    const mcStart = mcTxs.length > 0 ? ctx.base : bcEnd;
    const mcEnd = mcTxs.reduce((m, t) => (t.endLt > m ? t.endLt : m), mcStart + 1n);
    const mcBefore = mcTip.accounts.total().balance;
    const mcAccounts = mcTip.accounts.clone();
    applyAccounts(mcAccounts, mcTxs, this.#interner);
    const { root: configRoot, address: configAddress } = this.#config();
    const configKey = configRoot.hash().toString('hex');
    const keyBlock = ctx.seqno === 1 || configKey !== this.#configKey;
    this.#configKey = configKey;
    this.#refreshLibraries();
    const shardHashes = shardHashesOf(BASECHAIN, descrs);
    const prevBlocksRoot = addPrevBlock(this.#prevBlocksRoot, ctx.seqno - 1, extBlkRef(mcTip.meta), mcTip.meta.keyBlock);
    const mcState = this.#mcState(ctx, mcEnd, mcAccounts, {
      shardHashes,
      configAddress,
      configRoot,
      prevBlocksRoot,
      afterKeyBlock: keyBlock,
      lastKeyBlock: this.#lastKeyBlock ? extBlkRef(this.#lastKeyBlock) : null,
      globalBalance: addCurrencyCollections(sumBalances(shards.map((s) => s.tip.accounts.total().balance)), mcAccounts.total().balance),
      validatorListHashShort: this.#mcListHash,
    });
    const mcUpdate = diffMerkleUpdateStats(mcTip.state, mcState);
    const block = buildBlock({
      globalId: this.#globalId,
      workchain: MASTERCHAIN,
      seqno: ctx.seqno,
      genUtime: ctx.genUtime,
      startLt: mcStart,
      endLt: mcEnd,
      prev: extBlkRef(mcTip.meta),
      minRefMcSeqno: ctx.seqno - 1,
      prevKeyBlockSeqno: ctx.prevKeyBlockSeqno,
      genSoftware: this.#globalVersion,
      genValidatorListHashShort: this.#mcListHash,
      txs: mcTxs,
      index: ctx.index,
      balanceBefore: mcBefore,
      balanceAfter: mcAccounts.total().balance,
      stateUpdate: mcUpdate.update,
      randSeed: ctx.randSeed,
      createdBy: ctx.createdBy,
      mc: {
        keyBlock,
        shardHashes,
        shardFees: shards.map((s) => ({ workchain: BASECHAIN, shard: s.tip.shard, fees: s.block.valueFlow.feesCollected })),
        config: keyBlock ? { configAddress, config: loadConfigDict(configRoot) } : undefined,
      },
    });
    const meta = blockMeta(MASTERCHAIN, ctx.seqno, block, keyBlock);
    return { meta, block, tip: { accounts: mcAccounts, state: mcState, meta }, prevBlocksRoot, newCells: mcUpdate.newCells };
  }

  /** The sandbox's libraries as the masterchain state's, converted only when they change. */
  #refreshLibraries(): void {
    const libsKey = this.blockchain.libs?.hash().toString('hex') ?? '';
    if (libsKey !== this.#librariesKey) {
      this.#libraries = librariesFromSandboxLibs(this.blockchain.libs);
      this.#librariesKey = libsKey;
    }
  }

  /** The masterchain's state after round `ctx.seqno`: its accounts and libraries, and McStateExtra. */
  #mcState(ctx: RoundContext, mcEnd: bigint, mcAccounts: RawShardAccounts, extra: Parameters<typeof buildMcStateExtra>[0]): Cell {
    return buildShardState({
      globalId: this.#globalId,
      workchain: MASTERCHAIN,
      seqno: ctx.seqno,
      genUtime: ctx.genUtime,
      genLt: mcEnd,
      minRefMcSeqno: ctx.seqno - 1,
      accounts: mcAccounts.toCell(),
      totalBalance: mcAccounts.total().balance,
      libraries: this.#libraries,
      masterRef: null,
      custom: buildMcStateExtra(extra),
    });
  }

  /**
   * Runs the messages the shards queued for one another in the round just sealed (each shard's
   * block of the next round imports them), in the order the node merges queues: by emitted lt, then hash.
   */
  async #deliverQueued(): Promise<void> {
    const waiting = [...this.#bcTips.values()]
      .flatMap((t) => [...t.queue.entries.values()])
      .filter((m) => !this.#deliveries.has(hashKey(m.msgHash)))
      .sort((a, b) => (a.emittedLt !== b.emittedLt ? (a.emittedLt < b.emittedLt ? -1 : 1) : Buffer.compare(a.msgHash, b.msgHash)));
    for (const m of waiting) {
      const meta = m.env.metadata;
      if (meta) this.#traces.set(hashKey(m.msgHash), { initiator: meta.initiatorAddr, initiatorLt: meta.initiatorLt, depth: meta.depth });
      this.blockchain.capturing.registerOriginal(m.msg);
      try {
        await this.#runCascade(m.msg, m);
      } catch (e) {
        this.#log.error({ err: e instanceof Error ? e.message : String(e), msg: m.msgHash.toString('hex') }, 'devnet: a queued message could not be delivered');
      }
    }
  }

  #shardListHash(shard: bigint, ccSeqno: number): number {
    return this.#legacyShardListHash ?? this.#validators!.shardListHash(shard, ccSeqno);
  }
  /**
   * The sandbox's config as a cell, parsed only when it changes: `blockchain.config` decodes a
   * 150 kB BoC on every read, which would dominate an empty round.
   */
  #config(): { root: Cell; address: bigint } {
    const b64 = this.blockchain.configBase64;
    if (this.#configCache?.b64 !== b64) {
      const root = this.blockchain.config;
      this.#configCache = { b64, root, address: configAddressOf(root) };
    }
    return this.#configCache;
  }

  /**
   * Old states share all unchanged cells with newer ones, so keeping one costs the cells its round
   * created. The window holds at most `stateWindow` rounds and at most `stateCellBudget` such cells:
   * under heavy traffic it shrinks (the error for an older block says how many are kept).
   */
  #keepState(seqno: number, s: StatesAt): void {
    this.#window.set(seqno, s);
    this.#windowCells += s.cells;
    for (const [k, old] of this.#window) {
      if (this.#window.size <= 1) break;
      if (k > seqno - this.#stateWindow && this.#windowCells <= this.#stateCellBudget) break;
      this.#window.delete(k);
      this.#windowCells -= old.cells;
    }
  }

  #prevBlocksInfo(): PrevBlocksInfo {
    const id = (m: BlockMeta) => ({ workchain: m.workchain, shard: SHARD_ALL, seqno: m.seqno, rootHash: m.rootHash, fileHash: m.fileHash });
    return { lastMcBlocks: this.#lastMcBlocks.map(id), prevKeyBlock: id(this.#lastKeyBlock ?? this.#lastMcBlocks[0]) };
  }

  /**
   * Takes the validators of a configuration. A devnet made before it had its own validators (its
   * config holds mainnet's set) keeps the list hash its blocks were made with (`restoredHash`), and
   * signs nothing.
   */
  #useValidators(configRoot: Cell, restoredHash?: number): void {
    const v = DevnetValidators.fromConfig(configRoot, this.seed);
    this.#validators = v;
    if (v.canSign || restoredHash === undefined) {
      this.#mcListHash = v.mcListHashShort;
      this.#legacyShardListHash = undefined;
    } else {
      this.#mcListHash = restoredHash;
      this.#legacyShardListHash = restoredHash;
    }
  }

  /** The validators that sign this devnet's masterchain blocks (undefined before the zero state is sealed). */
  get validators(): DevnetValidators | undefined {
    return this.#validators;
  }

  /** Writes the newest states to disk (restart then replays only the blocks after them). */
  snapshot(): void {
    if (!this.#mcTip || this.#mcTip.meta.seqno === 0) return;
    writeSnapshot(this.dir, { seqno: this.#mcTip.meta.seqno, mc: this.#mcTip.state, basechain: [...this.#bcTips.values()].map((t) => t.state) });
    this.#sinceSnapshot = 0;
  }

  // ---- restart -------------------------------------------------------------------------------

  #adopt(restored: RestoredStates, mcView: ReturnType<typeof readMcStateExtra>): void {
    const store = this.store;
    const mcState = loadShardStateUnsplitFull(restored.mc.beginParse());
    const zeroMc = loadShardStateUnsplitFull(restored.zero.mc.beginParse());
    this.#useConfig(mcView.configRoot, mcView.validatorListHashShort);
    const genesisTime = zeroMc.genUtime;
    this.#zero = {
      mc: restored.zero.mc,
      basechain: restored.zero.basechain,
      mcMeta: { ...metaOfState(MASTERCHAIN, restored.zero.mc, Buffer.alloc(0), genesisTime), fileHash: this.#identity!.zeroState.masterchain.fileHash },
      basechainMeta: {
        ...metaOfState(BASECHAIN, restored.zero.basechain, Buffer.alloc(0), genesisTime),
        fileHash: this.#identity!.zeroState.basechain.fileHash,
      },
    };
    const last = store.rounds;
    this.#mcTip = { accounts: RawShardAccounts.fromCell(mcState.accounts), state: restored.mc, meta: store.get(MASTERCHAIN, last)! };
    this.#bcTips = new Map(
      [...restored.shards].map(([shard, state]) => {
        const view = loadShardStateUnsplitFull(state.beginParse());
        const { queue, processed } = ShardQueue.fromCell(view.outMsgQueueInfo);
        return [shard, { shard, accounts: RawShardAccounts.fromCell(view.accounts), queue, processed, state, meta: store.get(BASECHAIN, last, shard)! }];
      }),
    );
    this.#descrs = shardLeaves(mcView.shardHashes, BASECHAIN);
    this.#layout = nextLayout(this.#descrs);
    this.#adoptDeliveries(last);
    this.#window = restored.states;
    this.#prevBlocksRoot = mcView.prevBlocksRoot;
    const mcList = store.masterchain();
    const keys = mcList.filter((m) => m.keyBlock);
    this.#lastKeyBlock = keys.length > 0 ? keys[keys.length - 1] : this.#zero.mcMeta;
    this.#libraries = mcState.libraries;
    const libs = sandboxLibsFromLibraries(mcState.libraries);
    if (libs) this.blockchain.libs = libs;
    this.#librariesKey = libs?.hash().toString('hex') ?? '';
    this.#lastMcBlocks = mcList.slice(-16).reverse();
    const lastEnd = [this.#mcTip.meta.endLt, ...[...this.#bcTips.values()].map((t) => t.meta.endLt)].reduce((a, b) => (a > b ? a : b));
    this.#ltBase = roundUpLt(lastEnd);
    this.blockchain.setLt(this.#ltBase);
    this.blockchain.random = derive(this.seed, `rand:${store.rounds + 1}`);
    this.blockchain.capturing.setPrevBlocks(this.#prevBlocksInfo());
  }

  /**
   * Which queued messages the last round already imported (they await their dequeue): those created
   * before it. Every queued message is imported in the round after the one that created it.
   */
  #adoptDeliveries(last: number): void {
    const round = this.store.round(last);
    const base = round.reduce((m, b) => (b.startLt < m ? b.startLt : m), round[0].startLt);
    for (const tip of this.#bcTips.values()) {
      for (const m of tip.queue.entries.values()) {
        if (m.emittedLt >= base) continue;
        const importer = this.store.containing(BASECHAIN, last, accountPrefix(m.dest.hash));
        this.#deliveries.set(hashKey(m.msgHash), { round: last, blockEndLt: importer!.endLt });
      }
    }
  }

  // ---- reads ---------------------------------------------------------------------------------

  /** The newest sealed masterchain seqno (0 before the first round). */
  get lastSeqno(): number {
    return this.#mcTip?.meta.seqno ?? 0;
  }

  /** Block of a workchain by seqno (basechain: of `shard`, by default the whole workchain's); seqno 0 is the zero state. */
  block(workchain: number, seqno: number, shard: bigint = SHARD_ALL): BlockMeta | undefined {
    if (seqno === 0) {
      if (shard !== SHARD_ALL) return undefined;
      return workchain === MASTERCHAIN ? this.#zero?.mcMeta : workchain === BASECHAIN ? this.#zero?.basechainMeta : undefined;
    }
    if (seqno > this.lastSeqno) return undefined;
    return this.store.get(workchain, seqno, shard);
  }

  /** The block of round `seqno` (seqno 0: the zero state) whose shard holds an account prefix. */
  blockHolding(workchain: number, seqno: number, prefix: bigint): BlockMeta | undefined {
    if (seqno === 0) return this.block(workchain, 0);
    if (seqno > this.lastSeqno) return undefined;
    return this.store.containing(workchain, seqno, prefix);
  }

  /** The masterchain's newest block, or the newest block of the basechain shard holding `prefix` (default: 8000000000000000's). */
  lastBlock(workchain: number, prefix: bigint = SHARD_ALL): BlockMeta | undefined {
    if (workchain === MASTERCHAIN) return this.#mcTip?.meta;
    return workchain === BASECHAIN ? this.#tipHolding(prefix)?.meta : undefined;
  }

  /** Every basechain shard's newest block, shards in ascending order. */
  shardTops(): BlockMeta[] {
    return [...this.#bcTips.values()].map((t) => t.meta).sort((a, b) => (a.shard < b.shard ? -1 : 1));
  }

  /** Messages in each basechain shard's newest out queue. */
  queueSizes(): { meta: BlockMeta; size: number }[] {
    return [...this.#bcTips.values()].map((t) => ({ meta: t.meta, size: t.queue.size })).sort((a, b) => (a.meta.shard < b.meta.shard ? -1 : 1));
  }

  /** State after block (workchain, shard, seqno): kept for the newest `stateWindow` rounds and the zero state. */
  state(workchain: number, seqno: number, shard: bigint = SHARD_ALL): Cell | undefined {
    if (workchain !== MASTERCHAIN && workchain !== BASECHAIN) return undefined;
    if (seqno === 0) return shard !== SHARD_ALL ? undefined : workchain === MASTERCHAIN ? this.#zero?.mc : this.#zero?.basechain;
    if (seqno === this.lastSeqno) return workchain === MASTERCHAIN ? this.#mcTip?.state : this.#bcTips.get(shard)?.state;
    const s = this.#window.get(seqno);
    return s ? (workchain === MASTERCHAIN ? s.mc : s.shards.get(shard)) : undefined;
  }

  /** Rounds of old states kept in memory now (at most the configured window; fewer under heavy traffic). */
  get stateWindow(): number {
    return Math.max(1, this.#window.size);
  }

  /** The newest sealed account (RawShardAccount) of an address. */
  account(address: Address): RawShardAccount | undefined {
    return this.#lookup(address);
  }

  /** Calls `fn` after each sealed round; returns an unsubscribe function. */
  onRound(fn: (round: SealedRound) => void): () => void {
    this.#events.on('round', fn);
    return () => this.#events.off('round', fn);
  }

  /** Transactions waiting for the next round. */
  get pendingCount(): number {
    return this.#pending.length;
  }

  /** Finishes the pending work, writes a snapshot and releases the files. */
  async close(): Promise<void> {
    await this.#lock.run(async () => {
      if (this.#closed) return;
      this.#closed = true;
      try {
        if (this.#identity && this.store.rounds > 0) this.snapshot();
      } finally {
        this.store.close();
        this.#events.removeAllListeners();
        this.#dirLock.release();
      }
    });
  }
}

/** An existing devnet must be the one asked for: same seed, same shard count, room for a schedule. */
function checkIdentity(opts: DevnetChainOptions, identity: ChainIdentity): void {
  if (opts.seed !== undefined && opts.seed !== identity.seed) {
    throw new DevnetIdentityError(
      `${opts.dir} holds a devnet created with ${identity.seeded ? `seed "${identity.seed}"` : 'a random seed'}, not seed "${opts.seed}"; ` +
        'use another ATLAS_DATA_DIR, or delete the devnet directory to start a new chain',
    );
  }
  if (opts.shards !== undefined && opts.shards !== identity.shards) {
    throw new DevnetIdentityError(
      `${opts.dir} holds a devnet of ${identity.shards} basechain shard(s), not ${opts.shards} (DEVNET_SHARDS); ` +
        'use another ATLAS_DATA_DIR, or delete the devnet directory to start a new chain',
    );
  }
  if (opts.shardSchedule && opts.shardSchedule.kind !== 'off' && identity.shardSchedule.kind === 'off') {
    throw new DevnetIdentityError(
      `${opts.dir} holds a devnet created without DEVNET_SHARD_SCHEDULE: its configuration leaves no room to split and merge; ` +
        'use another ATLAS_DATA_DIR, or delete the devnet directory to start a new chain',
    );
  }
}

function blockMeta(workchain: number, seqno: number, b: BuiltBlock, keyBlock: boolean): BlockMeta {
  return {
    workchain,
    shard: SHARD_ALL,
    seqno,
    rootHash: b.rootHash,
    fileHash: b.fileHash,
    startLt: b.info.startLt,
    endLt: b.info.endLt,
    genUtime: b.info.genUtime,
    keyBlock,
  };
}

function blockTxs(txs: readonly ExecutedTx[]): BlockTx[] {
  return sortTxs(txs.map((t) => ({ account: t.account, lt: t.lt, hash: t.hash, cell: t.cell })));
}

export type { ExecutedTx } from './block-builder';
