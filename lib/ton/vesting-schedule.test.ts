// lockedAmount against the vesting contract's own get_locked_amount(at_time), run by the TVM on a
// deployed vesting wallet (the devnet's contract code), at every edge of its schedule and between them.
import { toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { Blockchain } from '@ton/sandbox';
import { describe, expect, it } from 'vitest';
import { vestingInit } from '../devnet/contracts/vesting';
import { lockedAmount, vestingAmounts, type VestingSchedule } from './vesting-schedule';

const DAY = 86_400;
const keys = keyPairFromSeed(Buffer.alloc(32, 7));

/** Deploys a vesting wallet with this schedule; answers its get_locked_amount at a time. */
async function deployed(s: VestingSchedule): Promise<(at: number) => Promise<bigint>> {
  const bc = await Blockchain.create();
  const admin = await bc.treasury('admin');
  const owner = await bc.treasury('owner');
  const v = vestingInit({ publicKey: keys.publicKey, ...s, sender: admin.address, owner: owner.address });
  await admin.send({ to: v.address, value: s.totalAmount + toNano('1'), bounce: false, init: v.init });
  return async (at) => (await bc.runGetMethod(v.address, 'get_locked_amount', [{ type: 'int', value: BigInt(at) }])).stackReader.readBigNumber();
}

/** Times around every edge: before the start, the cliff, each unlock, the end. */
function probes(s: VestingSchedule): number[] {
  const t = [s.startTime - 1, s.startTime, s.startTime + 1, s.startTime + s.totalDuration / 2 + 17];
  for (let k = 0; k * s.unlockPeriod <= s.totalDuration; k++) {
    const edge = s.startTime + k * s.unlockPeriod;
    t.push(edge - 1, edge, edge + 1);
  }
  const cliff = s.startTime + s.cliffDuration;
  const end = s.startTime + s.totalDuration;
  t.push(cliff - 1, cliff, cliff + 1, end - 1, end, end + 1, end + 10 * DAY);
  return [...new Set(t)].sort((a, b) => a - b);
}

describe('lockedAmount', () => {
  // The devnet genesis schedule; one with no cliff and an odd total that does not divide evenly; one whose
  // cliff is the whole duration.
  const schedules: [string, VestingSchedule][] = [
    ['the genesis schedule (48 months, monthly, 3-month cliff)', { startTime: 1_700_000_000, totalDuration: 48 * 30 * DAY, unlockPeriod: 30 * DAY, cliffDuration: 90 * DAY, totalAmount: toNano('1000') }],
    ['no cliff, a total that does not divide evenly', { startTime: 1_600_000_000, totalDuration: 7 * 3_600, unlockPeriod: 3_600, cliffDuration: 0, totalAmount: 1_000_000_007n }],
    ['a cliff as long as the whole duration', { startTime: 1_650_000_000, totalDuration: 4 * DAY, unlockPeriod: DAY, cliffDuration: 4 * DAY, totalAmount: toNano('12.5') }],
  ];
  for (const [name, s] of schedules) {
    it(`equals get_locked_amount at every edge: ${name}`, async () => {
      const getLocked = await deployed(s);
      for (const at of probes(s)) expect(lockedAmount(s, at), `at start ${at >= s.startTime ? '+' : ''}${at - s.startTime} s`).toBe(await getLocked(at));
    });
  }

  const genesis = schedules[0]![1];

  it('locks everything before the cliff, unlocks by whole periods, nothing after the end', () => {
    const s = genesis;
    expect(vestingAmounts(s, s.startTime + 89 * DAY)).toEqual({ locked: toNano('1000'), unlocked: 0n });
    // At the cliff 3 of 48 periods have passed.
    expect(vestingAmounts(s, s.startTime + 90 * DAY)).toEqual({ locked: toNano('1000') - toNano('1000') * 3n / 48n, unlocked: toNano('1000') * 3n / 48n });
    expect(vestingAmounts(s, s.startTime + 48 * 30 * DAY + 1)).toEqual({ locked: 0n, unlocked: toNano('1000') });
  });

  it('is null when the contract itself would divide by zero', () => {
    expect(lockedAmount({ ...genesis, unlockPeriod: 0, cliffDuration: 0 }, genesis.startTime + 10)).toBeNull();
    expect(lockedAmount({ ...genesis, unlockPeriod: genesis.totalDuration * 2, cliffDuration: 0 }, genesis.startTime + 10)).toBeNull();
  });
});
