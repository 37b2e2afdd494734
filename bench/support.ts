// Shared by the benchmarks: result rows, latency sampling and a scratch PostgreSQL database.
import fs from 'node:fs';
import type { Database } from '../lib/db/database';
import { createScratchDatabase } from '../lib/testing/database';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

/**
 * Runs fn `n` times from `clients` concurrent callers, or fewer when `maxSeconds` pass first (a slow route
 * then gives fewer samples instead of holding a whole benchmark up); returns p50/p99 in ms and requests/s.
 */
export async function sampleConcurrent(n: number, clients: number, fn: (i: number) => Promise<unknown>, maxSeconds = Infinity): Promise<{ p50: number; p99: number; rps: number; n: number }> {
  for (let i = 0; i < Math.min(20, n); i++) await fn(i);
  const times: number[] = [];
  let next = 0;
  const t0 = performance.now();
  const deadline = t0 + maxSeconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < n && performance.now() < deadline; i = next++) {
        const t = performance.now();
        await fn(i);
        times.push(performance.now() - t);
      }
    }),
  );
  const total = (performance.now() - t0) / 1000;
  return { p50: quantile(times, 0.5, 3), p99: quantile(times, 0.99, 3), rps: +(times.length / total).toFixed(0), n: times.length };
}

/**
 * The q-quantile of xs (nearest rank: the value below which a fraction q of the samples lie; q = 1 gives the
 * maximum), rounded to `decimals` places; 0 for no samples, so a run that measured nothing still reports a row.
 */
export function quantile(xs: readonly number[], q: number, decimals = 1): number {
  if (!xs.length) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return +sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(decimals);
}

/** Runs fn `n` times one after another; returns p50/p99 in ms and requests/s. */
export const sample = (n: number, fn: (i: number) => Promise<unknown>, maxSeconds?: number) => sampleConcurrent(n, 1, fn, maxSeconds);

export function latencyRows(name: string, s: { p50: number; p99: number; rps: number }, note?: string): BenchResult[] {
  return [
    { name: `${name} p50`, value: s.p50, unit: 'ms', note },
    { name: `${name} p99`, value: s.p99, unit: 'ms' },
    { name: `${name} throughput`, value: s.rps, unit: 'req/s' },
  ];
}

/** A fresh database on the PostgreSQL server of `baseUrl`, dropped by drop(). */
export const scratchPostgres = (baseUrl: string, prefix = 'atlas_bench') => createScratchDatabase(baseUrl, prefix);

/**
 * CPU seconds of this process's main thread (Linux: /proc/self/task/<pid>/stat), null elsewhere. What the
 * indexer's own thread spends, apart from its parse and TVM workers (process.cpuUsage counts every thread).
 */
export function mainThreadCpuSeconds(): number | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
// USER_HZ: 100 on every Linux Node runs on.
const CLOCK_TICKS = 100;

/**
 * CPU seconds the whole machine has spent busy and in all (every core: Linux /proc/stat), null elsewhere.
 * The difference of two readings shows whether a run was short of CPU, and what the processes besides
 * this one (the PostgreSQL server) took.
 */
export function machineCpuSeconds(): { busy: number; total: number } | null {
  try {
    const ticks = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    const idle = ticks[3]! + (ticks[4] ?? 0); // idle, iowait
    return { busy: (total - idle) / CLOCK_TICKS, total: total / CLOCK_TICKS };
  } catch {
    return null;
  }
}

/** "table n, …" for a few tables (identifiers are the caller's literals): what a run filled. */
export async function tableCounts(db: Database, tables: string[]): Promise<string> {
  const counts = await Promise.all(
    tables.map(async (t) => `${t} ${(await db.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${t}"`))[0]!.n}`),
  );
  return counts.join(', ');
}
