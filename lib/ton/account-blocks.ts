/**
 * acc_trans#5 account_addr:bits256
 *   transactions:(HashmapAug 64 ^Transaction CurrencyCollection)
 *   state_update:^(HASH_UPDATE Account) = AccountBlock;
 * _ (HashmapAugE 256 AccountBlock CurrencyCollection) = ShardAccountBlocks;
 *
 * Extras are total fees: a transaction leaf carries its total_fees, an
 * AccountBlock the sum over its transactions.
 */
import {
  Builder,
  Cell,
  CurrencyCollection,
  HashUpdate,
  Slice,
  beginCell,
  loadCurrencyCollection,
  loadHashUpdate,
  storeHashUpdate,
} from '@ton/core';
import { addCurrencyCollections, currencyCollectionExtra, zeroCurrencyCollection } from './currency';
import {
  AugDict,
  AugDictCodec,
  AugEntriesInput,
  AugEntry,
  AugEntryInput,
  loadHashmapAug,
  loadHashmapAugE,
  storeHashmapAug,
  storeHashmapAugE,
} from './hashmap-aug';

/** total_fees of a Transaction cell, read without decoding the rest of it. */
export function transactionTotalFees(tx: Cell): CurrencyCollection {
  const s = tx.beginParse();
  if (s.loadUint(4) !== 0b0111) throw new Error('Transaction: bad tag');
  // account_addr lt prev_trans_hash prev_trans_lt now outmsg_cnt orig_status end_status
  s.skip(256 + 64 + 256 + 64 + 32 + 15 + 2 + 2);
  s.loadRef();
  return loadCurrencyCollection(s);
}

/** Transactions of one account keyed by lt; values are the Transaction cells. */
export const accountTransactionsAug: AugDictCodec<Cell, CurrencyCollection> = {
  loadValue: (s) => s.loadRef(),
  storeValue: (tx) => (b) => {
    b.storeRef(tx);
  },
  ...currencyCollectionExtra,
  leafExtra: transactionTotalFees,
};

/** What the writers need: transaction extras may be left out and are then computed. */
export interface AccountBlockInput {
  accountAddr: bigint;
  /** Non-empty: an AccountBlock exists only for accounts with transactions. Keys are lts. */
  transactions: { entries: AugEntriesInput<Cell, CurrencyCollection> };
  stateUpdate: HashUpdate;
}

export interface AccountBlock extends AccountBlockInput {
  transactions: AugDict<Cell, CurrencyCollection>;
}

export function loadAccountBlock(slice: Slice): AccountBlock {
  const tag = slice.loadUint(4);
  if (tag !== 5) throw new Error(`AccountBlock: bad tag ${tag}`);
  const accountAddr = slice.loadUintBig(256);
  const transactions = loadHashmapAug(slice, 64, accountTransactionsAug);
  const stateUpdate = loadHashUpdate(slice.loadRef().beginParse());
  return { accountAddr, transactions, stateUpdate };
}

/** Transaction extras are taken from the entries (or computed from total_fees), forks recomputed. */
export function storeAccountBlock(ab: AccountBlockInput): (builder: Builder) => void {
  return (builder) => {
    builder.storeUint(5, 4);
    builder.storeUint(ab.accountAddr, 256);
    builder.store(storeHashmapAug(ab.transactions.entries, 64, accountTransactionsAug));
    builder.storeRef(beginCell().store(storeHashUpdate(ab.stateUpdate)));
  };
}

/** Sum of the fees of an account block's transactions: its extra in ShardAccountBlocks. */
export function accountBlockFees(ab: AccountBlockInput): CurrencyCollection {
  let total = zeroCurrencyCollection();
  for (const [, e] of ab.transactions.entries as Iterable<readonly [bigint, AugEntryInput<Cell, CurrencyCollection>]>) {
    total = addCurrencyCollections(total, e.extra ?? transactionTotalFees(e.value));
  }
  return total;
}

const accountBlockCodec = {
  loadValue: loadAccountBlock,
  storeValue: storeAccountBlock,
  ...currencyCollectionExtra,
  leafExtra: accountBlockFees,
};

export const shardAccountBlocksAug: AugDictCodec<AccountBlock, CurrencyCollection> = accountBlockCodec;
const shardAccountBlocksWriteAug: AugDictCodec<AccountBlockInput, CurrencyCollection> = accountBlockCodec;

export type ShardAccountBlocks = AugDict<AccountBlock, CurrencyCollection>;

export function loadShardAccountBlocks(slice: Slice): ShardAccountBlocks {
  return loadHashmapAugE(slice, 256, shardAccountBlocksAug);
}

export function storeShardAccountBlocks(
  entries: AugEntriesInput<AccountBlockInput, CurrencyCollection>,
): (builder: Builder) => void {
  return storeHashmapAugE(entries, 256, shardAccountBlocksWriteAug);
}

/** Account, lt and state hashes of a Transaction cell (the fields an AccountBlock repeats). */
function transactionHeader(tx: Cell): { account: bigint; lt: bigint; oldHash: Buffer; newHash: Buffer } {
  const s = tx.beginParse();
  if (s.loadUint(4) !== 0b0111) throw new Error('Transaction: bad tag');
  const account = s.loadUintBig(256);
  const lt = s.loadUintBig(64);
  const update = loadHashUpdate(tx.refs[tx.refs.length - 2].beginParse());
  return { account, lt, oldHash: update.oldHash, newHash: update.newHash };
}

/**
 * ShardAccountBlocks entries for a block from its transaction cells alone:
 * grouped by account, keyed by lt, with the account's state_update spanning
 * its first transaction's old state to its last one's new state.
 */
export function accountBlocksFromTransactions(txs: Iterable<Cell>): Map<bigint, AugEntry<AccountBlock, CurrencyCollection>> {
  const byAccount = new Map<bigint, { lt: bigint; tx: Cell; oldHash: Buffer; newHash: Buffer }[]>();
  for (const tx of txs) {
    const h = transactionHeader(tx);
    const list = byAccount.get(h.account) ?? [];
    list.push({ ...h, tx });
    byAccount.set(h.account, list);
  }
  const out = new Map<bigint, AugEntry<AccountBlock, CurrencyCollection>>();
  for (const [account, list] of byAccount) {
    list.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
    const entries = new Map<bigint, AugEntry<Cell, CurrencyCollection>>();
    let total = zeroCurrencyCollection();
    for (const t of list) {
      const fees = transactionTotalFees(t.tx);
      entries.set(t.lt, { value: t.tx, extra: fees });
      total = addCurrencyCollections(total, fees);
    }
    const stateUpdate = { oldHash: list[0].oldHash, newHash: list[list.length - 1].newHash };
    out.set(account, { value: { accountAddr: account, transactions: { entries, extra: total }, stateUpdate }, extra: total });
  }
  return out;
}
