// Vesting wallets (ton-blockchain/vesting-contract) in the derive stage: the schedule as get_vesting_data
// answers at the indexed block and the whitelist as get_whitelist answers. Like jettons.ts, a contract's
// row is replaced only by a newer state of the account; the contract only ever adds to its whitelist,
// so whitelist rows are only added too.
import type { Address } from '@ton/core';
import { rawUpper } from '../../ton/address';
import { methodId } from '../../ton/contract-methods';
import { WALLET_VESTING } from '../../ton/interface-names';
import { readVestingData, readWhitelist, type VestingData } from '../../ton/vesting-getters';
import { optHex, type Row, type TableRows } from '../sql';
import { declaredBy, newerState, readGetter, type DerivedAccount, type DeriveBlock, type Detector, type GetterRun } from './detector';

const DECLARES: Record<string, number[]> = {
  [WALLET_VESTING]: ['get_vesting_data', 'get_whitelist'].map(methodId),
};

const CONTRACT_COLUMNS = [
  'address', 'vesting_start_time', 'vesting_total_duration', 'unlock_period', 'cliff_duration', 'vesting_total_amount', 'vesting_sender_address',
  'owner_address', 'code_hash', 'data_hash', 'last_transaction_lt',
] as const;
const WHITELIST_COLUMNS = ['vesting_contract_address', 'wallet_address'] as const;

const NEWER = newerState('vesting_contracts', CONTRACT_COLUMNS);

const raw = (a: Address | null) => (a ? rawUpper(a) : null);

const vestingData = (account: DerivedAccount, run: GetterRun): Promise<VestingData | null> => readGetter(account, run, 'get_vesting_data', readVestingData);
const whitelist = (account: DerivedAccount, run: GetterRun): Promise<Address[] | null> => readGetter(account, run, 'get_whitelist', readWhitelist);

export const vestingDetector: Detector = {
  name: 'vesting',

  candidates: (methods) => declaredBy(DECLARES, methods),

  async confirm(iface, account, run) {
    if (iface !== WALLET_VESTING) return false;
    return (await vestingData(account, run)) !== null && (await whitelist(account, run)) !== null;
  },

  async derive(block: DeriveBlock): Promise<TableRows[]> {
    const contracts: Row[] = [];
    const members: Row[] = [];
    for (const account of block.accounts.values()) {
      if (!account.interfaces.includes(WALLET_VESTING)) continue;
      const address = account.state.account;
      const [d, list] = await Promise.all([vestingData(account, block.run), whitelist(account, block.run)]);
      if (!d || !list) continue;
      contracts.push({
        address,
        vesting_start_time: d.startTime.toString(),
        vesting_total_duration: d.totalDuration.toString(),
        unlock_period: d.unlockPeriod.toString(),
        cliff_duration: d.cliffDuration.toString(),
        vesting_total_amount: d.totalAmount.toString(),
        vesting_sender_address: raw(d.sender),
        owner_address: raw(d.owner),
        code_hash: optHex(account.state.codeHash),
        data_hash: optHex(account.state.dataHash),
        last_transaction_lt: account.state.lastTransLt.toString(),
      });
      for (const a of list) members.push({ vesting_contract_address: address, wallet_address: rawUpper(a) });
    }
    return [
      { table: 'vesting_contracts', columns: CONTRACT_COLUMNS, rows: contracts, onConflict: NEWER },
      { table: 'vesting_whitelist', columns: WHITELIST_COLUMNS, rows: members },
    ];
  },
};
