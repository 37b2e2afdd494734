/**
 * ShardAccounts kept as raw cells.
 *
 *   account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64 = ShardAccount;
 *   _ (HashmapAugE 256 ShardAccount DepthBalanceInfo) = ShardAccounts;
 *
 * lib/ton's ShardAccountsDict takes parsed ShardAccount objects and re-serializes the Account with
 * @ton/core's storeAccount. The devnet must not re-encode anything: every transaction's state_update
 * names the hash of the exact Account cell the executor produced, so the state keeps that cell as is.
 * The layout (and so every dictionary cell) is the same as ShardAccountsDict's.
 */
import { Cell, DepthBalanceInfo, beginCell, loadAccount, loadDepthBalanceInfo, storeDepthBalanceInfo, type Slice } from '@ton/core';
import {
  accountDepthBalance,
  addDepthBalanceInfo,
  augDictDelete,
  augDictGet,
  augDictRootExtra,
  augDictSet,
  dictKeyPath,
  loadAugDictRootE,
  storeAugDictRootE,
  zeroDepthBalanceInfo,
  type AugDictCodec,
} from '../ton';

export interface RawShardAccount {
  /** The Account cell (account_none$0 or account$1 ...), exactly as the executor returned it. */
  account: Cell;
  lastTransHash: Buffer;
  lastTransLt: bigint;
}

/** The cell of account_none$0. */
export const ACCOUNT_NONE: Cell = beginCell().storeBit(0).endCell();

export function isAccountNone(account: Cell): boolean {
  return account.bits.length === 1 && account.refs.length === 0 && !account.bits.at(0);
}

/** DepthBalanceInfo of an Account cell: split depth of its StateInit and its balance (zero for account_none). */
export function accountCellDepthBalance(account: Cell): DepthBalanceInfo {
  const s = account.beginParse();
  if (!s.loadBit()) return zeroDepthBalanceInfo();
  return accountDepthBalance(loadAccount(s));
}

function loadRawShardAccount(s: Slice): RawShardAccount {
  return { account: s.loadRef(), lastTransHash: s.loadBuffer(32), lastTransLt: s.loadUintBig(64) };
}

export const rawShardAccountAug: AugDictCodec<RawShardAccount, DepthBalanceInfo> = {
  loadValue: loadRawShardAccount,
  storeValue: (v) => (b) => {
    b.storeRef(v.account).storeBuffer(v.lastTransHash, 32).storeUint(v.lastTransLt, 64);
  },
  loadExtra: loadDepthBalanceInfo,
  storeExtra: storeDepthBalanceInfo,
  combine: addDepthBalanceInfo,
  empty: zeroDepthBalanceInfo,
  leafExtra: (v) => accountCellDepthBalance(v.account),
};

/** A ShardAccount cell (what the sandbox and the executor exchange). */
export function shardAccountCell(sa: RawShardAccount): Cell {
  return beginCell().store(rawShardAccountAug.storeValue(sa)).endCell();
}

export function rawShardAccountFromCell(cell: Cell): RawShardAccount {
  return loadRawShardAccount(cell.beginParse());
}

/**
 * A ShardAccounts dictionary updated in place: set/delete rebuild only the cells on the path to the
 * key (lib/ton's augDictSet), so a block costs O(changed accounts × depth), not O(accounts).
 * Immutable roots: an older root stays valid after later updates (old states share their cells).
 */
export class RawShardAccounts {
  constructor(public root: Cell | null = null) {}

  /** Reads the ^ShardAccounts cell of a state. */
  static fromCell(cell: Cell): RawShardAccounts {
    return new RawShardAccounts(loadAugDictRootE(cell.beginParse(), rawShardAccountAug));
  }

  get(id: bigint): RawShardAccount | undefined {
    return augDictGet(this.root, 256, id, rawShardAccountAug)?.value;
  }

  set(id: bigint, sa: RawShardAccount): void {
    this.root = augDictSet(this.root, 256, id, sa, rawShardAccountAug);
  }

  delete(id: bigint): void {
    this.root = augDictDelete(this.root, 256, id, rawShardAccountAug);
  }

  /** Split depth and total balance of all accounts (the root's extra: O(1)). */
  total(): DepthBalanceInfo {
    return augDictRootExtra(this.root, 256, rawShardAccountAug);
  }

  /** Cells from the dictionary root down to the account's leaf (empty when absent). */
  path(id: bigint): Cell[] {
    return dictKeyPath(this.root, 256, id);
  }

  /** The ^ShardAccounts cell for ShardStateUnsplit.accounts. */
  toCell(): Cell {
    return beginCell().store(storeAugDictRootE(this.root, 256, rawShardAccountAug)).endCell();
  }

  clone(): RawShardAccounts {
    return new RawShardAccounts(this.root);
  }
}

/** 256-bit account id of an address hash. */
export function accountId(hash: Buffer): bigint {
  return BigInt('0x' + hash.toString('hex'));
}

export function accountIdBuffer(id: bigint): Buffer {
  return Buffer.from(id.toString(16).padStart(64, '0'), 'hex');
}

/**
 * Shares the code (and other repeated) cells of account states. Every account state the chain
 * seals is decoded from the executor's BoC, so without this each version of each account would
 * carry its own copy of its contract's code (~50 cells for a wallet): most of the devnet's memory.
 * Only the Account cell's direct references are looked up (StateInit's code and data live there);
 * the table is an LRU, so data cells (unique) age out while code cells (hit constantly) stay.
 */
export class CellInterner {
  readonly #cells = new Map<string, Cell>();

  constructor(private readonly capacity = 20_000) {}

  #intern(c: Cell): Cell {
    const key = c.hash().toString('latin1');
    const hit = this.#cells.get(key);
    if (hit) {
      this.#cells.delete(key);
      this.#cells.set(key, hit);
      return hit;
    }
    this.#cells.set(key, c);
    if (this.#cells.size > this.capacity) this.#cells.delete(this.#cells.keys().next().value as string);
    return c;
  }

  /** The account cell with its references replaced by shared copies (same hash). */
  account(account: Cell): Cell {
    if (account.refs.length === 0) return account;
    const refs = account.refs.map((r) => this.#intern(r));
    return refs.every((r, i) => r === account.refs[i]) ? account : new Cell({ exotic: account.isExotic, bits: account.bits, refs });
  }
}
