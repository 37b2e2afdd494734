/**
 * Arithmetic on CurrencyCollection and the small value types used as
 * augmentation extras (ImportFees, DepthBalanceInfo). Sums must serialize
 * exactly like the node's add_values: extra currencies are merged key by key
 * and every key of either side is kept, even if its sum is zero.
 */
import {
  Builder,
  CurrencyCollection,
  DepthBalanceInfo,
  Dictionary,
  Slice,
  loadCurrencyCollection,
  storeCurrencyCollection,
} from '@ton/core';
import type { AugDictCodec } from './hashmap-aug';

export function zeroCurrencyCollection(): CurrencyCollection {
  return { coins: 0n };
}

export function addCurrencyCollections(a: CurrencyCollection, b: CurrencyCollection): CurrencyCollection {
  const coins = a.coins + b.coins;
  if (!a.other?.size && !b.other?.size) return { coins };
  const other = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
  for (const src of [a.other, b.other]) {
    if (!src) continue;
    for (const [id, amount] of src) other.set(id, (other.get(id) ?? 0n) + amount);
  }
  return { coins, other };
}

export function currencyCollectionsEqual(a: CurrencyCollection, b: CurrencyCollection): boolean {
  if (a.coins !== b.coins) return false;
  const ka = a.other ? [...a.other] : [];
  const kb = b.other ? [...b.other] : [];
  if (ka.length !== kb.length) return false;
  const mb = new Map(kb);
  return ka.every(([k, v]) => mb.get(k) === v);
}

/** Extra codec pieces for dictionaries augmented with CurrencyCollection (sum at forks). */
export const currencyCollectionExtra = {
  loadExtra: (s: Slice): CurrencyCollection => loadCurrencyCollection(s),
  storeExtra: (e: CurrencyCollection) => storeCurrencyCollection(e),
  combine: addCurrencyCollections,
  empty: zeroCurrencyCollection,
} satisfies Pick<AugDictCodec<unknown, CurrencyCollection>, 'loadExtra' | 'storeExtra' | 'combine' | 'empty'>;

// ---------------------------------------------------------------------------
// ImportFees
// ---------------------------------------------------------------------------

/** import_fees$_ fees_collected:Grams value_imported:CurrencyCollection = ImportFees; */
export interface ImportFees {
  feesCollected: bigint;
  valueImported: CurrencyCollection;
}

export function loadImportFees(slice: Slice): ImportFees {
  const feesCollected = slice.loadCoins();
  return { feesCollected, valueImported: loadCurrencyCollection(slice) };
}

export function storeImportFees(fees: ImportFees): (builder: Builder) => void {
  return (builder) => {
    builder.storeCoins(fees.feesCollected);
    builder.store(storeCurrencyCollection(fees.valueImported));
  };
}

export function addImportFees(a: ImportFees, b: ImportFees): ImportFees {
  return {
    feesCollected: a.feesCollected + b.feesCollected,
    valueImported: addCurrencyCollections(a.valueImported, b.valueImported),
  };
}

export function zeroImportFees(): ImportFees {
  return { feesCollected: 0n, valueImported: zeroCurrencyCollection() };
}

// ---------------------------------------------------------------------------
// DepthBalanceInfo (@ton/core has the type and loadDepthBalanceInfo / storeDepthBalanceInfo)
// ---------------------------------------------------------------------------

/** Fork extra of ShardAccounts: the deeper split depth, the summed balance. */
export function addDepthBalanceInfo(a: DepthBalanceInfo, b: DepthBalanceInfo): DepthBalanceInfo {
  return {
    splitDepth: Math.max(a.splitDepth, b.splitDepth),
    balance: addCurrencyCollections(a.balance, b.balance),
  };
}

export function zeroDepthBalanceInfo(): DepthBalanceInfo {
  return { splitDepth: 0, balance: zeroCurrencyCollection() };
}
