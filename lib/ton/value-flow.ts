/**
 * value_flow#b8e48dfb ^[ from_prev_blk to_next_blk imported exported ]
 *   fees_collected ^[ fees_imported recovered created minted ] = ValueFlow;
 * value_flow_v2#3ebf98b7 — the same plus burned:CurrencyCollection after
 *   fees_collected; masterchain blocks use it since fee burning.
 */
import { Builder, CurrencyCollection, Slice, beginCell, loadCurrencyCollection, storeCurrencyCollection } from '@ton/core';

export interface ValueFlow {
  fromPrevBlk: CurrencyCollection;
  toNextBlk: CurrencyCollection;
  imported: CurrencyCollection;
  exported: CurrencyCollection;
  feesCollected: CurrencyCollection;
  /** Present exactly for value_flow_v2. */
  burned?: CurrencyCollection;
  feesImported: CurrencyCollection;
  recovered: CurrencyCollection;
  created: CurrencyCollection;
  minted: CurrencyCollection;
}

const TAG_V1 = 0xb8e48dfb;
const TAG_V2 = 0x3ebf98b7;

export function loadValueFlow(slice: Slice): ValueFlow {
  const tag = slice.loadUint(32);
  if (tag !== TAG_V1 && tag !== TAG_V2) throw new Error(`ValueFlow: bad tag 0x${tag.toString(16)}`);
  const a = slice.loadRef().beginParse();
  const fromPrevBlk = loadCurrencyCollection(a);
  const toNextBlk = loadCurrencyCollection(a);
  const imported = loadCurrencyCollection(a);
  const exported = loadCurrencyCollection(a);
  const feesCollected = loadCurrencyCollection(slice);
  const burned = tag === TAG_V2 ? loadCurrencyCollection(slice) : undefined;
  const b = slice.loadRef().beginParse();
  return {
    fromPrevBlk,
    toNextBlk,
    imported,
    exported,
    feesCollected,
    burned,
    feesImported: loadCurrencyCollection(b),
    recovered: loadCurrencyCollection(b),
    created: loadCurrencyCollection(b),
    minted: loadCurrencyCollection(b),
  };
}

export function storeValueFlow(vf: ValueFlow): (builder: Builder) => void {
  return (builder) => {
    builder.storeUint(vf.burned ? TAG_V2 : TAG_V1, 32);
    builder.storeRef(
      beginCell()
        .store(storeCurrencyCollection(vf.fromPrevBlk))
        .store(storeCurrencyCollection(vf.toNextBlk))
        .store(storeCurrencyCollection(vf.imported))
        .store(storeCurrencyCollection(vf.exported)),
    );
    builder.store(storeCurrencyCollection(vf.feesCollected));
    if (vf.burned) builder.store(storeCurrencyCollection(vf.burned));
    builder.storeRef(
      beginCell()
        .store(storeCurrencyCollection(vf.feesImported))
        .store(storeCurrencyCollection(vf.recovered))
        .store(storeCurrencyCollection(vf.created))
        .store(storeCurrencyCollection(vf.minted)),
    );
  };
}
