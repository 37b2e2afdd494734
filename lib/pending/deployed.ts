// What the index cannot know yet about accounts a pending trace deploys: the indexer learns an NFT
// item's collection and index from its get_nft_data once the item is on chain (the derive stage), so an
// emulated mint would classify as a bare deploy. The same get-method is run here on the item's
// emulated end state, and the classifier gets what the derive stage would have written.
import { Cell, loadShardAccount, parseTuple } from '@ton/core';
import type { AccountInterfaces } from '../actions/model';
import { contractMethods, methodId } from '../ton/contract-methods';
import { rawUpper } from '../ton/address';
import { readNftData } from '../ton/nft-getters';
import { GETTER_GAS_LIMIT } from '../indexer/derive/getters';
import type { TvmPool } from '../tvm/pool';
import type { EmulatedTrace } from './emulate';

const GET_NFT_DATA = methodId('get_nft_data');

/** Adds `nftItem` to `interfaces` for each NFT item of the trace the index does not know as one. */
export async function addDeployedItems(tvm: TvmPool, emulated: EmulatedTrace, interfaces: Map<string, AccountInterfaces>): Promise<void> {
  await Promise.all(
    [...emulated.endStates].map(async ([address, shardAccount]) => {
      if (interfaces.get(address)?.nftItem) return;
      const account = loadShardAccount(shardAccount.beginParse()).account;
      const state = account?.storage.state;
      if (!account || state?.type !== 'active' || !state.state.code || !state.state.data) return;
      if (!contractMethods(state.state.code)?.includes(GET_NFT_DATA)) return;
      const res = await tvm.getMethod({
        code: state.state.code.toBoc().toString('base64'),
        data: state.state.data.toBoc().toString('base64'),
        methodId: GET_NFT_DATA,
        stack: '',
        config: emulated.config,
        address,
        unixTime: emulated.now,
        balance: account.storage.balance.coins,
        gasLimit: GETTER_GAS_LIMIT,
        verbosity: 'short',
      });
      const out = res.output;
      if (!out.success || (out.vm_exit_code !== 0 && out.vm_exit_code !== 1)) return;
      try {
        const d = readNftData(parseTuple(Cell.fromBase64(out.stack)));
        const info = interfaces.get(address) ?? {};
        info.nftItem = { collection: d.collection && rawUpper(d.collection), index: d.index, owner: d.owner && rawUpper(d.owner), init: d.init };
        interfaces.set(address, info);
      } catch {
        // not an NFT item after all
      }
    }),
  );
}
