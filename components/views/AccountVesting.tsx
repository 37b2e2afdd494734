'use client';

import { useState } from 'react';
import type { AddressBookJson } from '@/lib/api/v3/models/common';
import type { VestingInfoJson } from '@/lib/api/v3/models/vesting';
import { vestingParams } from '@/lib/client/filters';
import { useResource } from '@/lib/client/queries';
import { formatDuration } from '@/lib/format/time';
import { vestingAmounts, type VestingSchedule } from '@/lib/ton/vesting-schedule';
import { Address } from '../entity/Address';
import { Amount } from '../entity/Amount';
import { Time } from '../entity/Time';
import { Card, Fields } from '../ui/Card';
import { SkeletonLine } from '../ui/Skeleton';
import { ErrorNote } from '../ui/States';

const scheduleOf = (v: VestingInfoJson): VestingSchedule => ({
  startTime: v.start_time,
  totalDuration: v.total_duration,
  unlockPeriod: v.unlock_period,
  cliffDuration: v.cliff_duration,
  totalAmount: BigInt(v.total_amount),
});

/** A vesting wallet's schedule, and how much of it is locked and unlocked now (as get_locked_amount computes it). */
export function AccountVesting({ address }: { address: string }) {
  const q = useResource('vesting', vestingParams(address));
  // "Now" is the time the page was opened: amounts change only at unlock steps (days or months apart).
  const [now] = useState(() => Math.floor(Date.now() / 1000));
  const v = q.data?.vesting_contracts[0];
  return (
    <Card title="Vesting" id="vesting">
      {q.error ? (
        <ErrorNote error={q.error} />
      ) : !q.data ? (
        <div role="status" aria-label="Loading the vesting schedule" className="space-y-3">
          {Array.from({ length: 6 }, (_, i) => (
            <SkeletonLine key={i} className="w-full" />
          ))}
        </div>
      ) : !v ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">The index has not read this vesting wallet&apos;s schedule yet.</p>
      ) : (
        <VestingFields v={v} book={q.data.address_book} now={now} />
      )}
    </Card>
  );
}

function VestingFields({ v, book, now }: { v: VestingInfoJson; book: AddressBookJson; now: number }) {
  const s = scheduleOf(v);
  const amounts = vestingAmounts(s, now);
  const cliffEnd = v.start_time + v.cliff_duration;
  const end = v.start_time + v.total_duration;
  const steps = v.unlock_period > 0 ? Math.floor(v.total_duration / v.unlock_period) : 0;
  const unlockedShare = amounts && s.totalAmount > 0n ? Number((amounts.unlocked * 10_000n) / s.totalAmount) / 100 : null;
  return (
    <div className="space-y-4">
      {amounts && unlockedShare !== null && (
        <div>
          <div className="mb-1 flex flex-wrap justify-between gap-2 text-sm">
            <span>
              <span className="font-medium">Unlocked now:</span> <Amount value={amounts.unlocked.toString()} maxFraction={4} />
            </span>
            <span>
              <span className="font-medium">Locked now:</span> <Amount value={amounts.locked.toString()} maxFraction={4} />
            </span>
          </div>
          <div
            role="meter"
            aria-label="Share of the vested total unlocked now"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={unlockedShare}
            aria-valuetext={`${unlockedShare}% unlocked`}
            className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
          >
            <div className="h-full bg-brand-600" style={{ width: `${unlockedShare}%` }} />
          </div>
        </div>
      )}
      <Fields
        rows={[
          ['Total vested', <Amount key="t" value={v.total_amount} />],
          ['Locked now', amounts ? <Amount key="l" value={amounts.locked.toString()} /> : 'cannot be computed: the schedule divides by zero in the contract'],
          ['Unlocked now', amounts ? <Amount key="u" value={amounts.unlocked.toString()} /> : '—'],
          ['Vesting starts', <Time key="s" utime={v.start_time} />],
          ['Cliff', v.cliff_duration ? <span key="c">{formatDuration(v.cliff_duration)}, until <Time utime={cliffEnd} /></span> : 'none'],
          ['Unlock period', <span key="p">every {formatDuration(v.unlock_period)}{steps ? ` (${steps} steps)` : ''}</span>],
          ['Total duration', <span key="d">{formatDuration(v.total_duration)}, fully unlocked <Time utime={end} /></span>],
          ['Owner', v.owner_address ? <Address key="o" raw={v.owner_address} book={book} /> : 'none'],
          ['Sender', v.sender_address ? <Address key="f" raw={v.sender_address} book={book} /> : 'none'],
          [
            'Whitelist',
            v.whitelist.length ? (
              <ul key="w" className="space-y-1" aria-label="Whitelisted addresses">
                {v.whitelist.map((a) => (
                  <li key={a}>
                    <Address raw={a} book={book} />
                  </li>
                ))}
              </ul>
            ) : (
              'empty (locked coins can be sent to no one)'
            ),
          ],
        ]}
      />
    </div>
  );
}
