// Get-methods on indexed states, in the TVM pool: with the configuration of the masterchain block
// (read through the lite client once per key block: the configuration changes only in key blocks) and
// the libraries a code reaches (fetched from the lite client once each). A run that fails for what the
// contract is (it crashed the emulator, ran past its budget twice, returned a result past the limits, or
// the contract is in the pool's backoff) answers null like a failing exit code and is reported as a skip:
// the block is indexed without what that get-method would have told. Only a failure of the pool itself
// (full queue, shutting down) fails the block, which is then tried again.
import { beginCell, Cell, CellType, Dictionary, parseTuple, serializeTuple, type TupleItem } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema';
import { isStateGone } from '../../lite';
import { cellFromBase64, deserializeBoc } from '../../ton';
import { configDictCell, loadConfigDict } from '../../ton/config';
import { configRootFromProof } from '../../ton/config-proof';
import { methodId } from '../../ton/contract-methods';
import { TvmRefused, type TvmPool } from '../../tvm/pool';
import type { DerivedAccount } from './detector';

/** Gas for one get-method of a detector, tonlib's limit (also the pending traces' get_nft_data, lib/pending/deployed.ts). */
export const GETTER_GAS_LIMIT = 1_000_000n;
/** Libraries fetched for one run at most (each missing one costs a rerun). */
const MAX_LIBRARY_FETCHES = 8;
const CONFIGS_KEPT = 4;

/**
 * Configuration parameters the derive stage's get-methods run without: the validator sets (32–37) and
 * their temporary keys (39), ~85% of mainnet's configuration. The emulator build parses the whole
 * configuration on every run (see lib/tvm/run-get-method.ts): with them a run costs ~9 ms of CPU, without
 * ~1.5 ms, and indexing runs several per block. The get-methods of the interfaces derived here never
 * read them: TVM's c7 carries only the unpacked prices and limits (params 18–25 and 43), and reading a
 * validator set by CONFIGPARAM is what the elector does, not a token. index:verify derives with the full
 * configuration (`fullConfig`), so the tables are checked against answers that keep them.
 */
const PARAMS_GETTERS_SKIP = [32, 33, 34, 35, 36, 37, 39];

/** The masterchain block get-methods run at. */
export interface GetterBlock {
  id: tonNode_blockIdExt;
  utime: number;
  /** The key block whose configuration is in force: the block itself if it is one, else its prev_key_block_seqno. */
  keySeqno: number;
}

const boc64 = (c: Cell) => c.toBoc().toString('base64');

export class ChainReader {
  private readonly configs = new Map<number, Promise<string>>();
  private readonly libraries = new Map<string, Promise<Cell | null>>();

  /** `fullConfig`: get-methods run with every configuration parameter (index:verify), not the getters' subset. */
  constructor(
    private readonly lite: LiteClient,
    private readonly fullConfig = false,
  ) {}

  /** The configuration get-methods run with at `block`, as a base64 BoC; read once per key block. */
  config(block: GetterBlock): Promise<string> {
    let config = this.configs.get(block.keySeqno);
    if (!config) {
      const read = (id: tonNode_blockIdExt) =>
        this.lite.engine
          .query(Functions.liteServer_getConfigAll, { kind: 'liteServer.getConfigAll', mode: 0, id })
          .then((res) => boc64(this.fullConfig ? configRootFromProof(res.configProof) : gettersConfig(configRootFromProof(res.configProof))));
      // A liteserver that no longer keeps the block's state (non-archival, a devnet reopened from disk)
      // gets asked at its head: the indexer reads such blocks' account states there too (follower.ts).
      config = read(block.id).catch(async (err: unknown) => {
        if (!isStateGone(err)) throw err;
        return read({ ...(await this.lite.getMasterchainInfo()).last, kind: 'tonNode.blockIdExt' });
      });
      config.catch(() => this.configs.delete(block.keySeqno));
      this.configs.set(block.keySeqno, config);
      if (this.configs.size > CONFIGS_KEPT) this.configs.delete(this.configs.keys().next().value!);
    }
    return config;
  }

  /** A library's root cell by hash, or null when the lite server does not know it. */
  library(hash: Buffer): Promise<Cell | null> {
    const key = hash.toString('hex');
    let lib = this.libraries.get(key);
    if (!lib) {
      lib = this.lite.getLibraries([hash]).then((r) => {
        const found = r.result.find((e) => e.hash.equals(hash));
        return found ? Cell.fromBoc(found.data)[0]! : null;
      });
      lib.catch(() => this.libraries.delete(key));
      this.libraries.set(key, lib);
    }
    return lib;
  }

  /** The code that runs: a library cell (how many jetton wallets are deployed) is the library's code. */
  async resolveCode(code: Cell): Promise<Cell> {
    if (code.type !== CellType.Library) return code;
    return (await this.library(code.bits.subbuffer(8, 256)!)) ?? code;
  }
}

/** `root` (a configuration's Hashmap 32 ^Cell) without PARAMS_GETTERS_SKIP. */
export function gettersConfig(root: Cell): Cell {
  const dict = loadConfigDict(root);
  for (const id of PARAMS_GETTERS_SKIP) dict.delete(id);
  return configDictCell(dict);
}

// An account's code and data go to the pool with each of its get-methods (several per block, and a
// code is shared by every wallet of a kind): serialized once per cell, or never when the cell was read
// from a BoC (stateCell).
const serialized = new WeakMap<Cell, string>();
const cellBoc64 = (c: Cell) => {
  let b = serialized.get(c);
  if (b === undefined) serialized.set(c, (b = boc64(c)));
  return b;
};

/**
 * The root cell of an account state's code or data BoC, remembered with that BoC: its get-methods send
 * the BoC as read, where serializing each cell again took 0.9 s of the indexer's 24 s main thread on the
 * recorded 50k-transaction chain.
 */
export function stateCell(boc: Buffer): Cell {
  const cell = deserializeBoc(boc)[0]!;
  serialized.set(cell, boc.toString('base64'));
  return cell;
}

/** A get-method the derive stage could not use, and why (TvmRefused's words). */
export interface GetterSkip {
  account: DerivedAccount;
  method: string;
  reason: string;
}

/**
 * A get-method runner for one masterchain block: each (account, method, arguments) runs once, however
 * many detectors ask (confirming an interface and deriving rows read the same getter). `onSkip` hears of
 * each run that answered null because of what the contract did (see above).
 */
export function blockGetters(reader: ChainReader, tvm: TvmPool, block: GetterBlock, onSkip: (skip: GetterSkip) => void = () => {}) {
  const done = new Map<string, Promise<TupleItem[] | null>>();
  return (account: DerivedAccount, method: string, stack: TupleItem[] = []): Promise<TupleItem[] | null> => {
    const args = stack.length ? boc64(serializeTuple(stack)) : '';
    const key = `${account.state.account}:${method}:${args}`;
    let run = done.get(key);
    if (!run) {
      run = execute(reader, tvm, block, account, methodId(method), args).catch((err: unknown) => {
        if (!(err instanceof TvmRefused) || !err.fromContract) throw err;
        onSkip({ account, method, reason: err.message });
        return null;
      });
      done.set(key, run);
    }
    return run;
  };
}

/** One run in the pool; a deadline is given a second chance (a busy machine), not a third. */
async function getMethod(tvm: TvmPool, job: Parameters<TvmPool['getMethod']>[0]) {
  try {
    return await tvm.getMethod(job);
  } catch (err) {
    if (err instanceof TvmRefused && err.kind === 'deadline') return tvm.getMethod(job);
    throw err;
  }
}

async function execute(reader: ChainReader, tvm: TvmPool, block: GetterBlock, account: DerivedAccount, id: number, stack: string): Promise<TupleItem[] | null> {
  const config = await reader.config(block);
  const libs: Cell[] = [];
  for (let fetched = 0; ; fetched++) {
    const res = await getMethod(tvm, {
      code: cellBoc64(account.code),
      data: cellBoc64(account.data),
      libs: libs.length ? boc64(librariesDict(libs)) : undefined,
      methodId: id,
      stack,
      config,
      verbosity: 'short',
      address: account.state.account,
      unixTime: block.utime,
      balance: account.state.balance,
      gasLimit: GETTER_GAS_LIMIT,
    });
    const out = res.output;
    if (!out.success) return null;
    if (out.missing_library && fetched < MAX_LIBRARY_FETCHES) {
      const lib = await reader.library(Buffer.from(out.missing_library, 'hex'));
      if (lib) {
        libs.push(lib);
        continue;
      }
    }
    if (out.vm_exit_code !== 0 && out.vm_exit_code !== 1) return null;
    return parseTuple(cellFromBase64(out.stack));
  }
}

function librariesDict(libs: Cell[]): Cell {
  // The executor takes libraries as a Hashmap 256 ^Cell keyed by the library's hash.
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  for (const l of libs) dict.set(l.hash(), l);
  return beginCell().storeDictDirect(dict).endCell();
}
