// An account's state as a liteserver returns it (an Account cell) → the rows of account_states (history,
// keyed by the state hash that transactions' state_update refers to) and latest_account_states.
import { beginCell, loadAccount } from '@ton/core';
import { deserializeBoc } from '../ton';
import { extraCurrencies } from '../chain/parse-transaction';
import type { AccountStatusName } from '../chain/records';

export interface AccountStateRecord {
  hash: Buffer;
  account: string;
  balance: bigint;
  balanceExtraCurrencies: Record<string, string> | null;
  accountStatus: AccountStatusName;
  frozenHash: Buffer | null;
  dataHash: Buffer | null;
  codeHash: Buffer | null;
  dataBoc: Buffer | null;
  codeBoc: Buffer | null;
  lastTransLt: bigint;
  lastTransHash: Buffer;
  /** gen_utime of the masterchain block the state was read at */
  timestamp: number;
}

// account_none$0: a single zero bit. Its hash is the state hash of an account that does not exist.
const ACCOUNT_NONE = beginCell().storeBit(0).endCell();

export function parseAccountState(
  account: string,
  raw: Buffer,
  lastTx: { lt: bigint; hash: Buffer } | null,
  timestamp: number,
): AccountStateRecord {
  const base = { account, lastTransLt: lastTx?.lt ?? 0n, lastTransHash: lastTx?.hash ?? Buffer.alloc(32), timestamp };
  const none = { balanceExtraCurrencies: null, frozenHash: null, dataHash: null, codeHash: null, dataBoc: null, codeBoc: null };
  const cell = raw.length ? deserializeBoc(raw)[0]! : ACCOUNT_NONE;
  const slice = cell.beginParse();
  // account_none$0 | account$1 addr:MsgAddressInt ... (@ton/core's loadAccount starts after the tag).
  if (!slice.loadBit()) return { ...base, ...none, hash: ACCOUNT_NONE.hash(), balance: 0n, accountStatus: 'nonexist' };
  const acc = loadAccount(slice);
  const st = acc.storage.state;
  const record: AccountStateRecord = {
    ...base,
    ...none,
    hash: cell.hash(),
    balance: acc.storage.balance.coins,
    balanceExtraCurrencies: extraCurrencies(acc.storage.balance),
    accountStatus: st.type === 'active' ? 'active' : st.type === 'frozen' ? 'frozen' : 'uninit',
  };
  if (st.type === 'frozen') record.frozenHash = Buffer.from(st.stateHash.toString(16).padStart(64, '0'), 'hex');
  if (st.type === 'active') {
    const { code, data } = st.state;
    if (code) Object.assign(record, { codeHash: code.hash(), codeBoc: code.toBoc() });
    if (data) Object.assign(record, { dataHash: data.hash(), dataBoc: data.toBoc() });
  }
  return record;
}

/**
 * The newest state of each account (the highest last transaction lt) among `states`: the row
 * latest_account_states keeps, and the state the derive stage runs get-methods on.
 */
export function latestByAccount(states: AccountStateRecord[]): Map<string, AccountStateRecord> {
  const latest = new Map<string, AccountStateRecord>();
  for (const s of states) {
    const seen = latest.get(s.account);
    if (!seen || seen.lastTransLt < s.lastTransLt) latest.set(s.account, s);
  }
  return latest;
}
