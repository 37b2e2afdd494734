/**
 * The devnet's chain: one @ton/sandbox Blockchain whose every transaction lands in a block.
 *
 * A masterchain and one basechain shard (0:8000000000000000) advance in lockstep: seal() makes
 * round k = basechain block k, then masterchain block k registering it in its ShardHashes.
 * Between seals, externals run to the end of their cascade (sendExternal) and the transactions
 * wait in `pending`; seal() takes them all. sendExternal and seal share one lock, so a round never
 * splits a cascade: every internal message is delivered in the round that created it.
 *
 * Logical time: blocks of round k span [base_k, end_k]; the sandbox gives each transaction
 * lt = previous + 1,000,000 (its own rule), so after a round the chain moves the sandbox's lt to
 * base_{k+1} = end rounded up to a multiple of 1,000,000 and the next transaction gets
 * base_{k+1} + 1,000,000. The masterchain block starts where the basechain block ends unless it
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
import {
  Address,
  Cell,
  Dictionary,
  loadCommonMessageInfo,
  loadMessage,
  type Message,
} from '@ton/core';
import { createShardAccount, type BlockchainTransaction, type PrevBlocksInfo } from '@ton/sandbox';
import {
  addCurrencyCollections,
  loadConfigDict,
  merkleUpdateHashes,
  serializeBoc,
  type GlobalVersion,
} from '../ton';
import { accountId, CellInterner, rawShardAccountFromCell, RawShardAccounts, type RawShardAccount } from './accounts';
import { buildBlock, extBlkRef, RoundIndex, type BuiltBlock, type ExecutedTx } from './block-builder';
import { BlockStore, sortTxs, type BlockMeta, type BlockTx } from './block-store';
import {
  clearChainFiles,
  readIdentity,
  readSnapshot,
  readZeroStates,
  writeIdentity,
  writeSnapshot,
  writeZeroStates,
  type ChainIdentity,
} from './chain-files';
import { installFastTonCore } from '../ton/fast-core';
import { readSizeLimits, type SizeLimits } from '../ton/size-limits';
import { lockDir, type DirLock } from './dir-lock';
import type { ChainDriver } from './genesis/driver';
import { storageUsedOf } from './genesis/driver';
import { applyMerkleUpdate, diffMerkleUpdateStats } from './merkle-update';
import { DevnetBlockchain } from './sandbox';
import { DevnetValidators, devnetValidatorKeys, withDevnetValidators } from './validators';
import {
  BASECHAIN,
  FULL_SHARD,
  MASTERCHAIN,
  addPrevBlock,
  buildMcStateExtra,
  buildShardState,
  configAddressOf,
  configIdentity,
  librariesFromSandboxLibs,
  readMcStateExtra,
  readShardState,
  sandboxLibsFromLibraries,
  shardDescr,
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
  shard: BlockMeta;
  mc: BlockMeta;
  /** Transactions of the round (both chains), in lt order. */
  txs: ExecutedTx[];
}

/** A transaction waiting for its round, with the ShardAccount it left (base64 BoC; null: account deleted). */
interface PendingTx extends ExecutedTx {
  after: string | null;
}

interface Tip {
  accounts: RawShardAccounts;
  state: Cell;
  meta: BlockMeta;
}

interface StatesAt {
  mc: Cell;
  basechain: Cell;
  /** Cells this round's states added (estimate of what keeping them costs). */
  cells: number;
}

interface RestoredStates {
  zero: { mc: Cell; basechain: Cell };
  mc: Cell;
  basechain: Cell;
  states: Map<number, StatesAt>;
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
  /**
   * The validators of the devnet's configuration (lib/devnet/validators.ts): they sign its masterchain
   * blocks; their subsets' hashes go into block headers and McStateExtra.validator_info. Known once the
   * zero state is sealed (a new chain) or restored.
   */
  #validators: DevnetValidators | undefined;
  /** gen_validator_list_hash_short of masterchain and basechain blocks. */
  #mcListHash = 0;
  #shardListHash = 0;

  #identity: ChainIdentity | undefined;
  /** Zero states while the genesis is being built (before the first round commits them). */
  #genesis: { mc: RawShardAccounts; basechain: RawShardAccounts } | undefined;
  #zero: { mc: Cell; basechain: Cell; mcMeta: BlockMeta; basechainMeta: BlockMeta } | undefined;
  #mcTip: Tip | undefined;
  #bcTip: Tip | undefined;
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
    // lib/ton's @ton/core speed-ups: the sandbox's BoCs, blocks, states.
    (opts.log ?? silentLogger).info({ fastTonCore: installFastTonCore() }, 'devnet: @ton/core fast paths');
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
    const common = {
      dir: opts.dir,
      lock,
      log,
      stateWindow: opts.stateWindow ?? 1000,
      stateCellBudget: opts.stateCellBudget ?? 1_000_000,
      snapshotEvery: opts.snapshotEvery ?? 500,
    };
    if (!identity) {
      clearChainFiles(opts.dir);
      const seed = opts.seed ?? randomBytes(16).toString('hex');
      const chain: DevnetChain = new DevnetChain({
        ...common,
        seed,
        seeded: opts.seed !== undefined,
        store: BlockStore.open(opts.dir, { reset: true }),
        blockchain: await DevnetBlockchain.createDevnet((a) => chain.#lookup(a)),
      });
      chain.#genesis = { mc: new RawShardAccounts(), basechain: new RawShardAccounts() };
      return chain;
    }
    if (opts.seed !== undefined && opts.seed !== identity.seed) {
      throw new DevnetIdentityError(
        `${opts.dir} holds a devnet created with ${identity.seeded ? `seed "${identity.seed}"` : 'a random seed'}, not seed "${opts.seed}"; ` +
          'use another ATLAS_DATA_DIR, or delete the devnet directory to start a new chain',
      );
    }
    const store = BlockStore.open(opts.dir);
    const restored = DevnetChain.#restoreStates(opts.dir, identity, store, common.stateWindow, log);
    const mcView = readMcStateExtra(readShardState(restored.mc).custom!);
    let chain: DevnetChain | undefined = undefined;
    const blockchain = await DevnetBlockchain.createDevnet((a) => chain!.#lookup(a), mcView.configRoot);
    chain = new DevnetChain({ ...common, seed: identity.seed, seeded: identity.seeded, store, blockchain });
    chain.#identity = identity;
    chain.#adopt(restored, mcView);
    log.info({ seqno: store.rounds, dir: opts.dir }, 'devnet chain restored');
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

  async #runCascade(message: Message | Cell): Promise<void> {
    const it = await this.blockchain.sendMessageIter(message, { allowParallel: true });
    for (;;) {
      const r = await it.next();
      if (r.done) break;
      await this.#record(r.value);
    }
  }

  async #record(tx: BlockchainTransaction): Promise<void> {
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
      after: deleted ? null : captured.shardAccount,
    });
  }

  #lookup(address: Address): RawShardAccount | undefined {
    const id = accountId(address.hash);
    if (this.#genesis && !this.#zero) {
      return (address.workChain === MASTERCHAIN ? this.#genesis.mc : this.#genesis.basechain).get(id);
    }
    const tip = address.workChain === MASTERCHAIN ? this.#mcTip : address.workChain === BASECHAIN ? this.#bcTip : undefined;
    return tip?.accounts.get(id);
  }

  // ---- zero state ----------------------------------------------------------------------------

  /**
   * Closes the zero state (the first sendExternal or seal does it too). Its gen_utime is the
   * sandbox's `now` at this moment: call it while a pinned genesis time is still set.
   */
  sealZeroState(): Promise<void> {
    return this.#lock.run(async () => this.#sealZeroState());
  }

  #sealZeroState(): void {
    if (this.#zero || !this.#genesis) return;
    const genesisTime = this.#now();
    this.blockchain.setConfig(withDevnetValidators(this.blockchain.config, devnetValidatorKeys(this.seed), genesisTime));
    const { root: configRoot } = this.#config();
    this.#useValidators(configRoot);
    const ident = configIdentity(configRoot);
    this.#globalId = ident.globalId;
    this.#globalVersion = { version: ident.version, capabilities: ident.capabilities };
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
    this.#configKey = configRoot.hash().toString('hex');
    const custom = buildMcStateExtra({
      shardHashes: singleShardHashes(
        BASECHAIN,
        shardDescr({
          seqno: 0,
          regMcSeqno: 0,
          startLt: 0n,
          endLt: 0n,
          rootHash: bcMeta.rootHash,
          fileHash: bcMeta.fileHash,
          genUtime: genesisTime,
          minRefMcSeqno: 0,
          feesCollected: { coins: 0n },
        }),
      ),
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
    this.#bcTip = { accounts: bcAccounts, state: bcState, meta: bcMeta };
    this.#lastKeyBlock = mcMeta;
    this.#lastMcBlocks = [mcMeta];
    this.#identity = {
      format: 1,
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

  // ---- sealing -------------------------------------------------------------------------------

  /** Seals the pending transactions into basechain block k and masterchain block k. */
  seal(): Promise<SealedRound> {
    return this.#lock.run(async () => this.#seal());
  }

  #seal(): SealedRound {
    if (this.#closed) throw new Error('devnet chain is closed');
    this.#sealZeroState();
    const mcTip = this.#mcTip!;
    const bcTip = this.#bcTip!;
    const seqno = mcTip.meta.seqno + 1;
    const firstRound = seqno === 1;
    const pending = this.#pending;
    this.#pending = [];
    const txs = pending.filter((t) => t.workchain === BASECHAIN || t.workchain === MASTERCHAIN);
    if (txs.length !== pending.length) this.#log.warn({ dropped: pending.length - txs.length }, 'transactions in unknown workchains left out of blocks');
    txs.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
    const index = new RoundIndex(txs);
    const genUtime = Math.max(mcTip.meta.genUtime, bcTip.meta.genUtime, this.#now());
    const base = this.#ltBase;
    const randSeed = derive(this.seed, `rand:${seqno}`);
    const createdBy = derive(this.seed, 'created_by');
    const prevKeyBlockSeqno = this.#lastKeyBlock?.seqno ?? 0;

    // ---- basechain block k
    const bcTxs = txs.filter((t) => t.workchain === BASECHAIN);
    const bcEnd = bcTxs.reduce((m, t) => (t.endLt > m ? t.endLt : m), base + 1n);
    const bcBefore = bcTip.accounts.total().balance;
    const bcAccounts = bcTip.accounts.clone();
    applyAccounts(bcAccounts, bcTxs, this.#interner);
    const mcRefForShard = extBlkRef(mcTip.meta);
    const bcState = buildShardState({
      globalId: this.#globalId,
      workchain: BASECHAIN,
      seqno,
      genUtime,
      genLt: bcEnd,
      minRefMcSeqno: seqno - 1,
      accounts: bcAccounts.toCell(),
      totalBalance: bcAccounts.total().balance,
      libraries: null,
      masterRef: mcRefForShard,
      custom: null,
    });
    const bcUpdate = diffMerkleUpdateStats(bcTip.state, bcState);
    const bcBlock = buildBlock({
      globalId: this.#globalId,
      workchain: BASECHAIN,
      seqno,
      genUtime,
      startLt: base,
      endLt: bcEnd,
      prev: extBlkRef(bcTip.meta),
      masterRef: mcRefForShard,
      minRefMcSeqno: seqno - 1,
      prevKeyBlockSeqno,
      genSoftware: this.#globalVersion,
      genValidatorListHashShort: this.#shardListHash,
      txs: bcTxs,
      index,
      balanceBefore: bcBefore,
      balanceAfter: bcAccounts.total().balance,
      stateUpdate: bcUpdate.update,
      randSeed,
      createdBy,
    });
    const bcMeta = blockMeta(BASECHAIN, seqno, bcBlock, false);

    // ---- masterchain block k
    const mcTxs = txs.filter((t) => t.workchain === MASTERCHAIN);
    const mcStart = mcTxs.length > 0 ? base : bcEnd;
    const mcEnd = mcTxs.reduce((m, t) => (t.endLt > m ? t.endLt : m), mcStart + 1n);
    const mcBefore = mcTip.accounts.total().balance;
    const mcAccounts = mcTip.accounts.clone();
    applyAccounts(mcAccounts, mcTxs, this.#interner);
    const { root: configRoot, address: configAddress } = this.#config();
    const configKey = configRoot.hash().toString('hex');
    const keyBlock = firstRound || configKey !== this.#configKey;
    this.#configKey = configKey;
    const libsKey = this.blockchain.libs?.hash().toString('hex') ?? '';
    if (libsKey !== this.#librariesKey) {
      this.#libraries = librariesFromSandboxLibs(this.blockchain.libs);
      this.#librariesKey = libsKey;
    }
    const shardHashes = singleShardHashes(
      BASECHAIN,
      shardDescr({
        seqno,
        regMcSeqno: seqno,
        startLt: bcMeta.startLt,
        endLt: bcMeta.endLt,
        rootHash: bcMeta.rootHash,
        fileHash: bcMeta.fileHash,
        genUtime,
        minRefMcSeqno: seqno - 1,
        feesCollected: bcBlock.valueFlow.feesCollected,
      }),
    );
    const prevBlocksRoot = addPrevBlock(this.#prevBlocksRoot, seqno - 1, extBlkRef(mcTip.meta), mcTip.meta.keyBlock);
    const mcExtra = buildMcStateExtra({
      shardHashes,
      configAddress,
      configRoot,
      prevBlocksRoot,
      afterKeyBlock: keyBlock,
      lastKeyBlock: this.#lastKeyBlock ? extBlkRef(this.#lastKeyBlock) : null,
      globalBalance: addCurrencyCollections(bcAccounts.total().balance, mcAccounts.total().balance),
      validatorListHashShort: this.#mcListHash,
    });
    const mcState = buildShardState({
      globalId: this.#globalId,
      workchain: MASTERCHAIN,
      seqno,
      genUtime,
      genLt: mcEnd,
      minRefMcSeqno: seqno - 1,
      accounts: mcAccounts.toCell(),
      totalBalance: mcAccounts.total().balance,
      libraries: this.#libraries,
      masterRef: null,
      custom: mcExtra,
    });
    const mcUpdate = diffMerkleUpdateStats(mcTip.state, mcState);
    const mcBlock = buildBlock({
      globalId: this.#globalId,
      workchain: MASTERCHAIN,
      seqno,
      genUtime,
      startLt: mcStart,
      endLt: mcEnd,
      prev: extBlkRef(mcTip.meta),
      minRefMcSeqno: seqno - 1,
      prevKeyBlockSeqno,
      genSoftware: this.#globalVersion,
      genValidatorListHashShort: this.#mcListHash,
      txs: mcTxs,
      index,
      balanceBefore: mcBefore,
      balanceAfter: mcAccounts.total().balance,
      stateUpdate: mcUpdate.update,
      randSeed,
      createdBy,
      mc: {
        keyBlock,
        shardHashes,
        shardFees: [{ workchain: BASECHAIN, shard: FULL_SHARD, fees: bcBlock.valueFlow.feesCollected }],
        config: keyBlock ? { configAddress, config: loadConfigDict(configRoot) } : undefined,
      },
    });
    const mcMeta = blockMeta(MASTERCHAIN, seqno, mcBlock, keyBlock);

    // ---- persist, then publish
    if (firstRound) writeZeroStates(this.dir, this.#zero!.mc, this.#zero!.basechain);
    // (The built roots are not cached: the BoC and the transaction list are what queries need, and a
    // busy block's cells take megabytes; a query that needs the tree decodes the BoC again.)
    this.store.appendRound([
      { meta: bcMeta, boc: bcBlock.boc, txs: blockTxs(bcTxs) },
      { meta: mcMeta, boc: mcBlock.boc, txs: blockTxs(mcTxs) },
    ]);
    if (firstRound) writeIdentity(this.dir, this.#identity!);

    this.#bcTip = { accounts: bcAccounts, state: bcState, meta: bcMeta };
    this.#mcTip = { accounts: mcAccounts, state: mcState, meta: mcMeta };
    this.#prevBlocksRoot = prevBlocksRoot;
    if (keyBlock) this.#lastKeyBlock = mcMeta;
    this.#keepState(seqno, { mc: mcState, basechain: bcState, cells: bcUpdate.newCells + mcUpdate.newCells });
    this.#lastMcBlocks = [mcMeta, ...this.#lastMcBlocks].slice(0, 16);
    this.#ltBase = roundUpLt(mcEnd > bcEnd ? mcEnd : bcEnd);
    this.blockchain.setLt(this.#ltBase);
    this.blockchain.random = derive(this.seed, `rand:${seqno + 1}`);
    this.blockchain.capturing.setPrevBlocks(this.#prevBlocksInfo());
    this.blockchain.capturing.clearOriginals();
    this.blockchain.forgetTransactions();
    this.#traces.clear();
    if (++this.#sinceSnapshot >= this.#snapshotEvery) this.snapshot();
    const round: SealedRound = { seqno, shard: bcMeta, mc: mcMeta, txs };
    this.#events.emit('round', round);
    return round;
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
    const id = (m: BlockMeta) => ({ workchain: m.workchain, shard: FULL_SHARD, seqno: m.seqno, rootHash: m.rootHash, fileHash: m.fileHash });
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
      this.#shardListHash = v.shardListHashShort;
    } else {
      this.#mcListHash = restoredHash;
      this.#shardListHash = restoredHash;
    }
  }

  /** The validators that sign this devnet's masterchain blocks (undefined before the zero state is sealed). */
  get validators(): DevnetValidators | undefined {
    return this.#validators;
  }

  /** Writes the newest states to disk (restart then replays only the blocks after them). */
  snapshot(): void {
    if (!this.#mcTip || this.#mcTip.meta.seqno === 0) return;
    writeSnapshot(this.dir, { seqno: this.#mcTip.meta.seqno, mc: this.#mcTip.state, basechain: this.#bcTip!.state });
    this.#sinceSnapshot = 0;
  }

  // ---- restart -------------------------------------------------------------------------------

  static #restoreStates(
    dir: string,
    identity: ChainIdentity,
    store: BlockStore,
    window: number,
    log: ChainLogger,
  ): RestoredStates {
    const zero = readZeroStates(dir);
    if (!zero.mc.hash().equals(identity.zeroState.masterchain.rootHash) || !zero.basechain.hash().equals(identity.zeroState.basechain.rootHash)) {
      throw new DevnetIdentityError(`${dir}: zerostate.boc does not match chain.json; the devnet directory is damaged`);
    }
    const rounds = store.rounds;
    if (rounds === 0) throw new DevnetIdentityError(`${dir}: chain.json is present but no blocks are; the devnet directory is damaged`);
    let from = 0;
    let mc = zero.mc;
    let basechain = zero.basechain;
    const snap = readSnapshot(dir);
    if (snap && snap.seqno <= rounds) {
      const mcHash = merkleUpdateHashes(store.root(store.get(MASTERCHAIN, snap.seqno)!).refs[2]).newHash;
      const bcHash = merkleUpdateHashes(store.root(store.get(BASECHAIN, snap.seqno)!).refs[2]).newHash;
      if (mcHash.equals(snap.mc.hash()) && bcHash.equals(snap.basechain.hash())) {
        from = snap.seqno;
        mc = snap.mc;
        basechain = snap.basechain;
      } else {
        log.warn({ seqno: snap.seqno }, 'state snapshot does not match the blocks; replaying from the zero state');
      }
    }
    const states = new Map<number, StatesAt>();
    if (from > 0) states.set(from, { mc, basechain, cells: 0 });
    for (let k = from + 1; k <= rounds; k++) {
      try {
        basechain = applyMerkleUpdate(basechain, store.root(store.get(BASECHAIN, k)!).refs[2]);
        mc = applyMerkleUpdate(mc, store.root(store.get(MASTERCHAIN, k)!).refs[2]);
      } catch (e) {
        throw new DevnetIdentityError(`${dir}: block ${k} does not continue the stored chain (${e instanceof Error ? e.message : String(e)})`);
      }
      if (k > rounds - window) states.set(k, { mc, basechain, cells: 0 });
    }
    return { zero, mc, basechain, states };
  }

  #adopt(restored: RestoredStates, mcView: ReturnType<typeof readMcStateExtra>): void {
    const store = this.store;
    const mcState = readShardState(restored.mc);
    const bcState = readShardState(restored.basechain);
    const zeroMc = readShardState(restored.zero.mc);
    const ident = configIdentity(mcView.configRoot);
    this.#globalId = mcState.globalId;
    this.#globalVersion = { version: ident.version, capabilities: ident.capabilities };
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
    this.#mcTip = { accounts: RawShardAccounts.fromCell(mcState.accounts), state: restored.mc, meta: store.last(MASTERCHAIN)! };
    this.#bcTip = { accounts: RawShardAccounts.fromCell(bcState.accounts), state: restored.basechain, meta: store.last(BASECHAIN)! };
    this.#window = restored.states;
    this.#prevBlocksRoot = mcView.prevBlocksRoot;
    const keys = store.list(MASTERCHAIN).filter((m) => m.keyBlock);
    this.#lastKeyBlock = keys.length > 0 ? keys[keys.length - 1] : this.#zero.mcMeta;
    this.#configKey = mcView.configRoot.hash().toString('hex');
    this.#useValidators(mcView.configRoot, mcView.validatorListHashShort);
    this.#libraries = mcState.libraries;
    const libs = sandboxLibsFromLibraries(mcState.libraries);
    if (libs) this.blockchain.libs = libs;
    this.#librariesKey = libs?.hash().toString('hex') ?? '';
    const mcList = store.list(MASTERCHAIN);
    this.#lastMcBlocks = mcList.slice(-16).reverse();
    const lastEnd = [store.last(MASTERCHAIN)!.endLt, store.last(BASECHAIN)!.endLt].reduce((a, b) => (a > b ? a : b));
    this.#ltBase = roundUpLt(lastEnd);
    this.blockchain.setLt(this.#ltBase);
    this.blockchain.random = derive(this.seed, `rand:${store.rounds + 1}`);
    this.blockchain.capturing.setPrevBlocks(this.#prevBlocksInfo());
  }

  // ---- reads ---------------------------------------------------------------------------------

  /** The newest sealed masterchain seqno (0 before the first round). */
  get lastSeqno(): number {
    return this.#mcTip?.meta.seqno ?? 0;
  }

  /** Block of a workchain by seqno; seqno 0 is the zero state. */
  block(workchain: number, seqno: number): BlockMeta | undefined {
    if (seqno === 0) return workchain === MASTERCHAIN ? this.#zero?.mcMeta : workchain === BASECHAIN ? this.#zero?.basechainMeta : undefined;
    if (seqno > this.lastSeqno) return undefined;
    return this.store.get(workchain, seqno);
  }

  lastBlock(workchain: number): BlockMeta | undefined {
    return (workchain === MASTERCHAIN ? this.#mcTip : workchain === BASECHAIN ? this.#bcTip : undefined)?.meta;
  }

  /** State after block (workchain, seqno): kept for the newest `stateWindow` rounds and the zero state. */
  state(workchain: number, seqno: number): Cell | undefined {
    if (workchain !== MASTERCHAIN && workchain !== BASECHAIN) return undefined;
    if (seqno === 0) return workchain === MASTERCHAIN ? this.#zero?.mc : this.#zero?.basechain;
    if (seqno === this.lastSeqno) return (workchain === MASTERCHAIN ? this.#mcTip : this.#bcTip)?.state;
    const s = this.#window.get(seqno);
    return s ? (workchain === MASTERCHAIN ? s.mc : s.basechain) : undefined;
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

function applyAccounts(accounts: RawShardAccounts, txs: readonly PendingTx[], interner: CellInterner): void {
  const last = new Map<bigint, string | null>();
  for (const t of txs) last.set(t.account, t.after);
  for (const [id, b64] of last) {
    if (!b64) {
      accounts.delete(id);
      continue;
    }
    const sa = rawShardAccountFromCell(Cell.fromBase64(b64));
    accounts.set(id, { ...sa, account: interner.account(sa.account) });
  }
}

function blockMeta(workchain: number, seqno: number, b: BuiltBlock, keyBlock: boolean): BlockMeta {
  return {
    workchain,
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
