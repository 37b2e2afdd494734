// Vesting wallet get-method answers (ton-blockchain/vesting-contract) read from a TVM stack: the
// derive stage (lib/indexer/derive/vesting.ts) and index:verify read them here.
import { Address, type TupleItem } from '@ton/core';
import { stackAddress, stackInt } from './jetton-getters';

export interface VestingData {
  startTime: bigint;
  totalDuration: bigint;
  unlockPeriod: bigint;
  cliffDuration: bigint;
  totalAmount: bigint;
  sender: Address | null;
  owner: Address | null;
}

/**
 * get_vesting_data: (vesting_start_time, vesting_total_duration, unlock_period, cliff_duration,
 * vesting_total_amount, vesting_sender_address, owner_address, whitelist). Throws when it is not one.
 */
export function readVestingData(s: TupleItem[]): VestingData {
  // The schedule is not checked for sense (e.g. durations that are multiples of the period): a deployed
  // contract is listed as its get-method answers, however odd its schedule.
  return {
    startTime: stackInt(s[0]),
    totalDuration: stackInt(s[1]),
    unlockPeriod: stackInt(s[2]),
    cliffDuration: stackInt(s[3]),
    totalAmount: stackInt(s[4]),
    sender: stackAddress(s[5]),
    owner: stackAddress(s[6]),
  };
}

/**
 * get_whitelist: a cons list (null or [head, tail]) of [workchain, address hash] pairs. A flat tuple of
 * pairs (how some stack serializers render a list) is read as well. Throws when it is not one.
 */
export function readWhitelist(s: TupleItem[]): Address[] {
  const out: Address[] = [];
  const pair = (item: TupleItem): Address => {
    if (item.type !== 'tuple' || item.items.length !== 2) throw new Error('expected a [workchain, hash] pair');
    const wc = stackInt(item.items[0]);
    const hash = stackInt(item.items[1]);
    return new Address(Number(wc), Buffer.from(hash.toString(16).padStart(64, '0'), 'hex'));
  };
  let node: TupleItem | undefined = s[0];
  if (node === undefined) throw new Error('get_whitelist answered nothing');
  while (node.type !== 'null') {
    if (node.type !== 'tuple') throw new Error('expected a list');
    const [head, tail]: TupleItem[] = node.items;
    if (node.items.length === 2 && head?.type === 'tuple' && (tail?.type === 'tuple' || tail?.type === 'null') && head.items.length === 2 && head.items[0]?.type === 'int') {
      out.push(pair(head));
      node = tail;
    } else {
      for (const item of node.items) out.push(pair(item));
      break;
    }
  }
  return out;
}
