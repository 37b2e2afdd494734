'use client';

import { useSyncExternalStore } from 'react';
import { formatRelative, formatUtc } from '@/lib/format/time';

// One shared clock ticking every 5 s for every relative time on the page.
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
function subscribe(cb: () => void) {
  listeners.add(cb);
  timer ??= setInterval(() => {
    now = Date.now();
    listeners.forEach((l) => l());
  }, 5000);
  return () => {
    listeners.delete(cb);
    if (!listeners.size && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}
const snapshot = () => now;
const serverSnapshot = () => Date.now();

/**
 * Relative time ("3 min ago", "in 11 months") with the absolute UTC time beside it (or as its tooltip
 * when compact). A time a few seconds ahead of this browser's clock is clock skew and reads "just now".
 */
export function Time({ utime, compact = false }: { utime: number | string; compact?: boolean }) {
  const current = useSyncExternalStore(subscribe, snapshot, serverSnapshot);
  const abs = formatUtc(utime);
  const iso = new Date(Number(utime) * 1000).toISOString();
  return (
    <time dateTime={iso} title={abs} className="whitespace-nowrap text-sm" suppressHydrationWarning>
      {formatRelative(utime, current)}
      {!compact && <span className="ml-1 text-slate-500 dark:text-slate-400">({abs})</span>}
    </time>
  );
}
