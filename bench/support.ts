// Shared by the benchmarks: result rows, latency sampling and a scratch PostgreSQL database.
import type { Database } from '../lib/db/database';
import { createScratchDatabase } from '../lib/testing/database';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

/** Runs fn `n` times from `clients` concurrent callers; returns p50/p99 in ms and requests/s. */
export async function sampleConcurrent(n: number, clients: number, fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number; rps: number }> {
  for (let i = 0; i < Math.min(20, n); i++) await fn(i);
  const times: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < n; i = next++) {
        const t = performance.now();
        await fn(i);
        times.push(performance.now() - t);
      }
    }),
  );
  const total = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  const at = (q: number) => +times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(3);
  return { p50: at(0.5), p99: at(0.99), rps: +(n / total).toFixed(0) };
}

/** Runs fn `n` times one after another; returns p50/p99 in ms and requests/s. */
export const sample = (n: number, fn: (i: number) => Promise<unknown>) => sampleConcurrent(n, 1, fn);

export function latencyRows(name: string, s: { p50: number; p99: number; rps: number }, note?: string): BenchResult[] {
  return [
    { name: `${name} p50`, value: s.p50, unit: 'ms', note },
    { name: `${name} p99`, value: s.p99, unit: 'ms' },
    { name: `${name} throughput`, value: s.rps, unit: 'req/s' },
  ];
}

/** A fresh database on the PostgreSQL server of `baseUrl`, dropped by drop(). */
export const scratchPostgres = (baseUrl: string) => createScratchDatabase(baseUrl, 'atlas_bench');

/** "table n, …" for a few tables (identifiers are the caller's literals): what a run filled. */
export async function tableCounts(db: Database, tables: string[]): Promise<string> {
  const counts = await Promise.all(
    tables.map(async (t) => `${t} ${(await db.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${t}"`))[0]!.n}`),
  );
  return counts.join(', ');
}
