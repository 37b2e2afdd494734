// How much of a vesting wallet (ton-blockchain/vesting-contract) is still locked at a time, computed as
// its get_locked_amount(at_time) get-method does, so a page can show locked and unlocked amounts "now"
// without running the contract: everything until the cliff ends, then the total minus the share of whole
// unlock periods elapsed, nothing after the total duration. Pure bigint arithmetic (browser and server).

export interface VestingSchedule {
  /** Unix time vesting starts. */
  startTime: number;
  /** Seconds from the start until everything is unlocked. */
  totalDuration: number;
  /** Seconds between unlocks. */
  unlockPeriod: number;
  /** Seconds from the start before the first unlock. */
  cliffDuration: number;
  /** Nanotons vested. */
  totalAmount: bigint;
}

/**
 * Nanotons locked at `at` (unix seconds); null when the contract itself cannot answer (its formula
 * divides by the unlock period and by the number of periods, and throws when either is zero).
 */
export function lockedAmount(s: VestingSchedule, at: number): bigint | null {
  const now = BigInt(Math.floor(at));
  const start = BigInt(s.startTime);
  const total = BigInt(s.totalDuration);
  const period = BigInt(s.unlockPeriod);
  if (now > start + total) return 0n;
  if (now < start + BigInt(s.cliffDuration)) return s.totalAmount;
  if (period === 0n || total / period === 0n) return null;
  // muldiv rounds toward −∞; (now − start) ≥ 0 here (the cliff is never negative), so every operand is.
  return s.totalAmount - (s.totalAmount * ((now - start) / period)) / (total / period);
}

/** Locked and unlocked nanotons at `at`; unlocked counts the total only (not what the wallet holds beyond it). */
export function vestingAmounts(s: VestingSchedule, at: number): { locked: bigint; unlocked: bigint } | null {
  const locked = lockedAmount(s, at);
  return locked === null ? null : { locked, unlocked: s.totalAmount - locked };
}
