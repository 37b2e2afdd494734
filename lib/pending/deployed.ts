// What the index cannot know yet about accounts a pending trace deploys or changes: the indexer learns an
// NFT item's collection and index from its get_nft_data once the item is on chain, and a GetGems sale's or
// auction's terms from its get_sale_data at the block that ran the trace (the derive stage), so an
// emulated mint would classify as a bare deploy and an emulated listing as plain transfers. The same
// get-methods are run here on the emulated end states, and the classifier gets what the derive stage
// would have written (a sale or auction the trace changed: its state after the trace, as at the block).
import { Cell, loadShardAccount, parseTuple, type Address, type TupleItem } from '@ton/core';
import type { AccountInterfaces } from '../actions/model';
import { contractMethods, methodId } from '../ton/contract-methods';
import { rawUpper } from '../ton/address';
import { readAuctionData, readNftData, readSaleData } from '../ton/nft-getters';
import { GETTER_GAS_LIMIT } from '../indexer/derive/getters';
import { auctionRow, saleInterfaces, saleRow, type SaleRow } from '../indexer/derive/nft';
import type { TvmPool } from '../tvm/pool';
import type { EmulatedTrace } from './emulate';

const GET_NFT_DATA = methodId('get_nft_data');
const GET_SALE_DATA = methodId('get_sale_data');

const raw = (a: Address | null) => (a ? rawUpper(a) : null);

/**
 * Adds `nftItem` for each NFT item of the trace the index does not know as one, and `nftSale` /
 * `nftAuction` for each GetGems sale or auction as the trace left it. Returns the items those sales
 * and auctions sell that `interfaces` does not know (the caller asks the index about them).
 */
export async function addDeployedItems(tvm: TvmPool, emulated: EmulatedTrace, interfaces: Map<string, AccountInterfaces>): Promise<string[]> {
  const sold: string[] = [];
  await Promise.all(
    [...emulated.endStates].map(async ([address, shardAccount]) => {
      const account = loadShardAccount(shardAccount.beginParse()).account;
      const state = account?.storage.state;
      if (!account || state?.type !== 'active' || !state.state.code || !state.state.data) return;
      const methods = contractMethods(state.state.code) ?? [];
      const run = async (method: number) => {
        const res = await tvm.getMethod({
          code: state.state.code!.toBoc().toString('base64'),
          data: state.state.data!.toBoc().toString('base64'),
          methodId: method,
          stack: '',
          config: emulated.config,
          address,
          unixTime: emulated.now,
          balance: account.storage.balance.coins,
          gasLimit: GETTER_GAS_LIMIT,
          verbosity: 'short',
        });
        const out = res.output;
        return out.success && (out.vm_exit_code === 0 || out.vm_exit_code === 1) ? parseTuple(Cell.fromBase64(out.stack)) : null;
      };
      const info = interfaces.get(address) ?? {};
      if (!info.nftItem && methods.includes(GET_NFT_DATA)) {
        const stack = await run(GET_NFT_DATA);
        try {
          const d = stack && readNftData(stack);
          if (d) info.nftItem = { collection: raw(d.collection), index: d.index, owner: raw(d.owner), init: d.init };
        } catch {
          // not an NFT item after all
        }
      }
      if (methods.includes(GET_SALE_DATA)) {
        const stack = await run(GET_SALE_DATA);
        const trade = stack ? saleOrAuction(stack) : null;
        if (trade?.nftSale) info.nftSale = trade.nftSale;
        if (trade?.nftAuction) info.nftAuction = trade.nftAuction;
        const nft = trade?.nftSale?.nft ?? trade?.nftAuction?.nft;
        if (nft && !interfaces.get(nft)?.nftItem) sold.push(nft);
      }
      if (Object.keys(info).length) interfaces.set(address, info);
    }),
  );
  return [...new Set(sold)].filter((a) => !interfaces.get(a)?.nftItem);
}

/**
 * get_sale_data as the derive stage records it (its nft_sales row, lib/indexer/derive/nft.ts) and
 * trace-input.ts reads it back: the classifier sees a pending sale as it will see the indexed one.
 */
function saleOrAuction(stack: TupleItem[]): Pick<AccountInterfaces, 'nftSale' | 'nftAuction'> | null {
  const row = getterRow(stack, readSaleData, saleRow) ?? getterRow(stack, readAuctionData, auctionRow);
  return row && saleInterfaces(row);
}

/** The row of what `read` makes of the stack, or null when the stack is not that contract's. */
function getterRow<T>(stack: TupleItem[], read: (s: TupleItem[]) => T, row: (d: T) => SaleRow): SaleRow | null {
  try {
    return row(read(stack));
  } catch {
    return null;
  }
}
