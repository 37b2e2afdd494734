/**
 * The @ton/sandbox pieces the devnet's chain runs on, adjusted so that the sandbox's transactions
 * can be sealed into real blocks:
 *
 * - DevnetBlockchain: a Blockchain whose logical time the block producer can move (blocks start
 *   at aligned lts, like the node's) and whose transaction log does not grow forever.
 * - DevnetStorage: unknown addresses are account_none (the stock storage invents an "uninit"
 *   account, so a first message would show orig_status uninit and an old state hash that no state
 *   ever had); accounts are loaded lazily from the chain's state with their exact cells.
 * - DevnetContract: a SmartContract that does not decode the whole account after every transaction
 *   (see lazyShardAccount).
 * - CapturingExecutor: hands the chain every transaction's resulting ShardAccount cell, and feeds
 *   the executor the original message cells. The sandbox re-encodes each message it queues with
 *   @ton/core's storeMessage, whose inline-vs-ref choices differ from the sender's, so the
 *   receiving transaction would name a message hash that its creator never sent. It runs on the
 *   hardened emulator (lib/tvm/emulator.ts) and replaces it after a trap, so one message the
 *   emulator cannot take does not fail every later one.
 */
import {
  Address,
  Cell,
  beginCell,
  loadMessage,
  loadShardAccount,
  serializeTuple,
  storeMessage,
  storeShardAccount,
  type Account,
  type ShardAccount,
  type TupleItem,
} from '@ton/core';
import {
  Blockchain,
  SmartContract,
  createEmptyShardAccount,
  type BlockchainStorage,
  type ExecutorEmulationResult as EmulationResult,
  type ExecutorGetMethodArgs as GetMethodArgs,
  type ExecutorGetMethodResult as GetMethodResult,
  type IExecutor,
  type ExecutorRunTickTockArgs as RunTickTockArgs,
  type ExecutorRunTransactionArgs as RunTransactionArgs,
  type BlockId,
  type PrevBlocksInfo,
  type SmartContractTransaction,
} from '@ton/sandbox';
import { createEmulator, type Emulator } from '../tvm/emulator';
import { rawShardAccountFromCell, shardAccountCell, type RawShardAccount } from './accounts';

const NONE_SHARD_ACCOUNT: ShardAccount = { account: undefined, lastTransactionLt: 0n, lastTransactionHash: 0n };

/** What the executor produced for one transaction (base64 BoCs, decoded only when needed). */
export interface CapturedTransaction {
  transaction: string;
  shardAccount: string;
}

const VERBOSITY: Record<string, number> = {
  short: 0,
  full: 1,
  full_location: 2,
  full_location_gas: 3,
  full_location_stack: 4,
  full_location_stack_verbose: 5,
};

/** The sandbox Executor's own (private) entry points, used to pass pre-encoded arguments. */
interface ExecutorInternals {
  runCommon(args: (string | number)[]): EmulationResult;
  getEmulatorPointer(config: string, verbosity: number): number;
  invoke(method: string, args: (string | number)[]): number;
  extractString(ptr: number): string;
}

function blockIdTuple(b: BlockId): TupleItem[] {
  return [
    { type: 'int', value: BigInt(b.workchain) },
    { type: 'int', value: b.shard },
    { type: 'int', value: BigInt(b.seqno) },
    { type: 'int', value: BigInt('0x' + b.rootHash.toString('hex')) },
    { type: 'int', value: BigInt('0x' + b.fileHash.toString('hex')) },
  ];
}

/** PrevBlocksInfo as the executor's JSON wants it (the sandbox's own encoding: a stack entry, base64). */
export function encodePrevBlocksInfo(info: PrevBlocksInfo): string {
  const items: TupleItem[] = [
    { type: 'tuple', items: info.lastMcBlocks.map((b) => ({ type: 'tuple', items: blockIdTuple(b) })) },
    { type: 'tuple', items: blockIdTuple(info.prevKeyBlock) },
  ];
  if (info.lastMcBlocks100) items.push({ type: 'tuple', items: info.lastMcBlocks100.map((b) => ({ type: 'tuple', items: blockIdTuple(b) })) });
  const s = serializeTuple([{ type: 'tuple', items }]).beginParse();
  s.skip(24);
  s.loadRef();
  return s.asCell().toBoc().toString('base64');
}

/**
 * Wraps the sandbox's Executor:
 * - hands the chain every transaction's result (take());
 * - substitutes original message cells for the sandbox's re-encodings (registerOriginal());
 * - encodes the per-call arguments that do not change between calls once: PrevBlocksInfo
 *   (~2-4 ms to encode 16 block ids, on every transaction and get-method), libraries and contract
 *   code. It calls the Executor's private runCommon / _run_get_method for that, with the same
 *   arguments the public methods would build; if those ever go away it falls back to the public ones.
 */
export class CapturingExecutor implements IExecutor {
  #captured: CapturedTransaction | undefined;
  /** hash of the sandbox's re-encoding (hex) → the original message cell. */
  readonly #originals = new Map<string, Cell>();
  #prevBlocks: { info: PrevBlocksInfo; b64?: string } | undefined;
  #libs: { hash: string; b64: string } | undefined;
  readonly #bocs = new Map<string, string>();
  #emulator: Emulator;
  #internals: ExecutorInternals | undefined;
  /** Emulators replaced after a trap, and the last trap. */
  replaced = 0;
  lastFailure: { at: string; reason: string } | undefined;

  constructor(emulator: Emulator) {
    this.#emulator = emulator;
    this.#internals = internalsOf(emulator.executor);
  }

  static async create(): Promise<CapturingExecutor> {
    return new CapturingExecutor(await createEmulator());
  }

  get inner(): IExecutor {
    return this.#emulator.executor;
  }

  /** Whether the emulator runs on its larger stack (lib/tvm/emulator.ts), as it should. */
  get roomyStack(): boolean {
    return this.#emulator.roomyStack;
  }

  /** A fresh emulator in place of one that trapped (the run that trapped failed with its error). */
  async #sound(): Promise<void> {
    const failure = this.#emulator.failure();
    if (failure === undefined) return;
    this.#emulator = await createEmulator();
    this.#internals = internalsOf(this.#emulator.executor);
    this.replaced++;
    this.lastFailure = { at: new Date().toISOString(), reason: failure };
  }

  /** Registers the original cell of a message the sandbox will re-encode before delivering it. */
  registerOriginal(original: Cell): void {
    const reencoded = beginCell().store(storeMessage(loadMessage(original.beginParse()))).endCell();
    if (!reencoded.hash().equals(original.hash())) this.#originals.set(reencoded.hash().toString('hex'), original);
  }

  /** Forgets originals of messages that were never delivered (called between rounds). */
  clearOriginals(): void {
    this.#originals.clear();
  }

  /** The c7 PREVBLOCKS every transaction and get-method sees from now on (encoded on first use: ~2 ms). */
  setPrevBlocks(info: PrevBlocksInfo | undefined): void {
    this.#prevBlocks = info ? { info } : undefined;
  }

  #prevBlocksB64(): string | undefined {
    const p = this.#prevBlocks;
    if (p && p.b64 === undefined) p.b64 = encodePrevBlocksInfo(p.info);
    return p?.b64;
  }

  get prevBlocks(): PrevBlocksInfo | undefined {
    return this.#prevBlocks?.info;
  }

  /** The result of the last successful transaction, once. */
  take(): CapturedTransaction | undefined {
    const c = this.#captured;
    this.#captured = undefined;
    return c;
  }

  #libsB64(libs: Cell | null | undefined): string | undefined {
    if (!libs) return undefined;
    const hash = libs.hash().toString('hex');
    if (this.#libs?.hash !== hash) this.#libs = { hash, b64: libs.toBoc().toString('base64') };
    return this.#libs.b64;
  }

  #bocB64(c: Cell): string {
    const key = c.hash().toString('latin1');
    let b64 = this.#bocs.get(key);
    if (b64 === undefined) {
      b64 = c.toBoc().toString('base64');
      if (this.#bocs.size >= 4096) this.#bocs.delete(this.#bocs.keys().next().value as string);
      this.#bocs.set(key, b64);
    }
    return b64;
  }

  async runTransaction(args: RunTransactionArgs): Promise<EmulationResult> {
    await this.#sound();
    const key = args.message.hash().toString('hex');
    const original = this.#originals.get(key);
    if (original) {
      this.#originals.delete(key);
      args = { ...args, message: original };
    }
    this.#captured = undefined;
    let res: EmulationResult;
    const x = this.#internals;
    if (x && VERBOSITY[args.verbosity] !== undefined) {
      const params: Record<string, unknown> = {
        utime: args.now,
        lt: args.lt.toString(),
        rand_seed: args.randomSeed === null ? '' : args.randomSeed.toString('hex'),
        ignore_chksig: args.ignoreChksig,
        debug_enabled: args.debugEnabled,
      };
      const prev = args.prevBlocksInfo ? encodePrevBlocksInfo(args.prevBlocksInfo) : this.#prevBlocksB64();
      if (prev !== undefined) params.prev_blocks_info = prev;
      res = x.runCommon([
        x.getEmulatorPointer(args.config, VERBOSITY[args.verbosity]),
        this.#libsB64(args.libs) ?? 0,
        args.shardAccount,
        args.message.toBoc().toString('base64'),
        JSON.stringify(params),
      ]);
    } else {
      res = await this.inner.runTransaction({ ...args, prevBlocksInfo: args.prevBlocksInfo ?? this.#prevBlocks?.info });
    }
    if (res.result.success) {
      this.#captured = { transaction: res.result.transaction, shardAccount: res.result.shardAccount };
    }
    return res;
  }

  async runTickTock(args: RunTickTockArgs): Promise<EmulationResult> {
    await this.#sound();
    return this.inner.runTickTock({ ...args, prevBlocksInfo: args.prevBlocksInfo ?? this.#prevBlocks?.info });
  }

  async runGetMethod(args: GetMethodArgs): Promise<GetMethodResult> {
    await this.#sound();
    const x = this.#internals;
    if (!x || VERBOSITY[args.verbosity] === undefined) {
      return this.inner.runGetMethod({ ...args, prevBlocksInfo: args.prevBlocksInfo ?? this.#prevBlocks?.info });
    }
    const params: Record<string, unknown> = {
      code: this.#bocB64(args.code),
      data: args.data.toBoc().toString('base64'),
      verbosity: VERBOSITY[args.verbosity],
      libs: this.#libsB64(args.libs) ?? '',
      address: args.address.toString(),
      unixtime: args.unixTime,
      balance: args.balance.toString(),
      rand_seed: args.randomSeed.toString('hex'),
      gas_limit: args.gasLimit.toString(),
      method_id: args.methodId,
      debug_enabled: args.debugEnabled,
    };
    if (args.extraCurrency !== undefined) {
      params.extra_currencies = Object.fromEntries(Object.entries(args.extraCurrency).map(([k, v]) => [k, v.toString()]));
    }
    const prev = args.prevBlocksInfo ? encodePrevBlocksInfo(args.prevBlocksInfo) : this.#prevBlocksB64();
    if (prev !== undefined) params.prev_blocks_info = prev;
    const stack = serializeTuple(args.stack).toBoc().toString('base64');
    const resp = JSON.parse(x.extractString(x.invoke('_run_get_method', [JSON.stringify(params), stack, args.config]))) as {
      fail?: boolean;
      output: GetMethodResult['output'];
      logs: string;
    };
    if (resp.fail) throw new Error('Unknown emulation error');
    return { output: resp.output, logs: resp.logs, debugLogs: '' };
  }
}

function internalsOf(inner: IExecutor): ExecutorInternals | undefined {
  const i = inner as unknown as Partial<ExecutorInternals>;
  return typeof i.runCommon === 'function' && typeof i.getEmulatorPointer === 'function' && typeof i.invoke === 'function' && typeof i.extractString === 'function'
    ? (i as ExecutorInternals)
    : undefined;
}

/** Looks an account up in the chain's latest sealed state. */
export type AccountLookup = (address: Address) => RawShardAccount | undefined;

/** The exact ShardAccount cell a SmartContract holds (it keeps it as a base64 BoC). */
function heldCell(sc: SmartContract): Cell {
  const b64 = (sc as unknown as { _account?: unknown })._account;
  if (typeof b64 === 'string') return Cell.fromBase64(b64);
  return beginCell().store(storeShardAccount(sc.account)).endCell();
}

/** SmartContract's own (private) fields: the held ShardAccount BoC and its decoded form. */
interface ContractInternals {
  _account?: unknown;
  parsedAccount?: unknown;
}

/**
 * A ShardAccount that decodes `boc` on first use, except its account's address. Right after every
 * transaction the sandbox's message queue reads `account.account.addr` (only to see whether a
 * masterchain account may have deployed libraries), and SmartContract's getter decodes the whole
 * new account for it, code and data included: ~0.3 ms a transaction, a tenth of a traffic run's
 * CPU. Every other read or write goes to the account decoded from `boc` (what the stock getter
 * would have returned), so callers see no difference. `exists` is whether the account exists
 * (the transaction's end status is not nonexist); the decoding checks it and the address.
 */
export function lazyShardAccount(address: Address, exists: boolean, boc: string): ShardAccount {
  let full: ShardAccount | undefined;
  const decoded = (): ShardAccount => {
    if (full) return full;
    full = loadShardAccount(Cell.fromBase64(boc).beginParse());
    if ((full.account !== undefined) !== exists || (full.account && !full.account.addr.equals(address))) {
      throw new Error(`DevnetContract: the account of ${address.toRawString()} is not what its transaction said`);
    }
    return full;
  };
  const field = <T>(of: () => T, key: keyof T): PropertyDescriptor => ({
    enumerable: true,
    configurable: true,
    get: () => of()[key],
    set: (v: T[keyof T]) => {
      of()[key] = v;
    },
  });
  const fullAccount = () => decoded().account!;
  const account: Account | undefined = exists
    ? (Object.defineProperties({}, {
        addr: { enumerable: true, configurable: true, get: () => full?.account?.addr ?? address, set: (v: Address) => void (fullAccount().addr = v) },
        storageStats: field(fullAccount, 'storageStats'),
        storage: field(fullAccount, 'storage'),
      }) as Account)
    : undefined;
  return Object.defineProperties({}, {
    account: { enumerable: true, configurable: true, get: () => (full ? full.account : account), set: (v: Account | undefined) => void (decoded().account = v) },
    lastTransactionLt: field(decoded, 'lastTransactionLt'),
    lastTransactionHash: field(decoded, 'lastTransactionHash'),
  }) as ShardAccount;
}

/**
 * The devnet's SmartContract: after a transaction it holds the executor's account lazily
 * (lazyShardAccount) instead of leaving the getter to decode it. runCommon is SmartContract's
 * protected hook around every transaction; if its private fields ever change shape, the stock
 * behaviour stays (decode on first read).
 */
export class DevnetContract extends SmartContract {
  protected override async runCommon(run: () => Promise<EmulationResult>, callStack?: string): Promise<SmartContractTransaction> {
    const tx = await super.runCommon(run, callStack);
    const priv = this as unknown as ContractInternals;
    if (typeof priv._account === 'string' && priv.parsedAccount === undefined) {
      priv.parsedAccount = lazyShardAccount(this.address, tx.endStatus !== 'non-existing', priv._account);
    }
    return tx;
  }
}

/**
 * A SmartContract holding exactly `raw`. SmartContract stores the BoC of
 * storeShardAccount(parsed); when that re-encoding is not byte-exact, its private copy is replaced
 * by the state's cell (the executor must see the state's Account, or the transaction's
 * state_update would start from a hash the state never had).
 */
function contractFrom(blockchain: Blockchain, address: Address, raw: RawShardAccount | undefined): SmartContract {
  const sc = new DevnetContract(createEmptyShardAccount(address), blockchain);
  if (!raw) {
    sc.account = NONE_SHARD_ACCOUNT;
    return sc;
  }
  const cell = shardAccountCell(raw);
  sc.account = loadShardAccount(cell.beginParse());
  if (!heldCell(sc).hash().equals(cell.hash())) {
    const priv = sc as unknown as ContractInternals;
    if (typeof priv._account !== 'string') throw new Error('DevnetStorage: cannot hand the sandbox an exact account cell');
    priv._account = cell.toBoc().toString('base64');
    priv.parsedAccount = undefined;
  }
  return sc;
}

export class DevnetStorage implements BlockchainStorage {
  readonly #contracts = new Map<string, SmartContract>();

  constructor(private readonly lookup: AccountLookup) {}

  async getContract(blockchain: Blockchain, address: Address): Promise<SmartContract> {
    const key = address.toRawString();
    let sc = this.#contracts.get(key);
    if (!sc) {
      sc = contractFrom(blockchain, address, this.lookup(address));
      this.#contracts.set(key, sc);
    }
    return sc;
  }

  knownContracts(): SmartContract[] {
    return [...this.#contracts.values()];
  }

  clearKnownContracts(): void {
    this.#contracts.clear();
  }
}

export class DevnetBlockchain extends Blockchain {
  readonly capturing: CapturingExecutor;

  private constructor(executor: CapturingExecutor, storage: DevnetStorage, config: Cell | 'default') {
    super({ executor, storage, config });
    this.capturing = executor;
    this.verbosity = { ...this.verbosity, print: false };
  }

  static async createDevnet(lookup: AccountLookup, config: Cell | 'default' = 'default'): Promise<DevnetBlockchain> {
    const executor = await CapturingExecutor.create();
    return new DevnetBlockchain(executor, new DevnetStorage(lookup), config);
  }

  /** Moves logical time: the next transaction gets lt + 1,000,000. */
  setLt(lt: bigint): void {
    this.currentLt = lt;
  }

  /** Drops the sandbox's own log of transactions (the chain keeps them in blocks). */
  forgetTransactions(): void {
    this.transactions = [];
  }

  /** The account exactly as the sandbox holds it now (includes unsealed transactions). */
  async heldAccount(address: Address): Promise<RawShardAccount> {
    return rawShardAccountFromCell(heldCell(await this.getContract(address)));
  }

  /**
   * Lets go of the sandbox's decoded copy of an account (once anything reads more than its address
   * after a transaction, the decoded account, code included, stays until the next one); it decodes
   * again when asked.
   */
  async dropParsedAccount(address: Address): Promise<void> {
    const sc = (await this.getContract(address)) as unknown as ContractInternals;
    if (typeof sc._account === 'string') sc.parsedAccount = undefined;
  }

  /** Makes an address account_none again (after a transaction deleted the account). */
  async resetToNone(address: Address): Promise<void> {
    const sc = await this.getContract(address);
    sc.account = NONE_SHARD_ACCOUNT;
  }

}
