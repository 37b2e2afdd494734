// The fuzz benchmark: starts Atlas as a user would (`npm start`, a fresh data directory, a free port,
// the seeded devnet with 1 s blocks, as playwright.config.ts does), runs lib/fuzz against it and reports
// throughput, latency, failures, the server's memory and the indexer's progress.
import { formatReport, runFuzz, saveReport, type FuzzReport } from '../lib/fuzz/run';
import { startAtlas } from './atlas-server';
import type { BenchResult } from './support';

const SERVER_LOG = '.reports/fuzz-server.log';
const REPORT_FILE = '.reports/fuzz.json';

export async function benchFuzz(requests: number, seed: string, concurrency: number): Promise<{ results: BenchResult[]; report: FuzzReport }> {
  const atlas = await startAtlas({ name: 'fuzz', seed: 'atlas-fuzz', logFile: SERVER_LOG, env: { RATE_LIMIT_ANON_RPS: '1000000' } });
  const base = atlas.base;
  try {
    const report = await runFuzz({ url: base.href, requests, seed, concurrency, pid: atlas.pid, progress: (l) => console.log(`  ${l}`) });
    for (const line of formatReport(report, base.origin)) console.log(line);
    saveReport(report, REPORT_FILE);
    console.log(`  fuzz: every finding in ${REPORT_FILE}, the server's log in ${SERVER_LOG}`);
    const sent = report.requests < requests ? `${report.requests} of ${requests} requests (the run stopped)` : `${requests} requests`;
    const note = `${sent}, seed ${seed}, concurrency ${concurrency}`;
    const results: BenchResult[] = [
      { name: 'fuzz throughput', value: +(report.requests / report.seconds).toFixed(0), unit: 'req/s', note },
      { name: 'fuzz p50', value: report.latencyMs.p50, unit: 'ms' },
      { name: 'fuzz p99', value: report.latencyMs.p99, unit: 'ms', note: `max ${report.latencyMs.max} ms` },
      { name: 'fuzz unexpected 5xx', value: report.verdicts['unexpected 5xx'] ?? 0, unit: 'answers', note: `${report.verdicts['documented 5xx'] ?? 0} documented liteserver 5xx` },
      { name: 'fuzz hangs (> 5 s)', value: report.verdicts.hang ?? 0, unit: 'requests' },
      { name: 'fuzz server RSS max', value: report.rss?.maxMb ?? 0, unit: 'MB', note: report.rss ? `${report.rss.beforeMb} MB before, ${report.rss.afterMb} MB after` : 'unknown' },
      {
        name: 'fuzz indexer',
        value: report.indexer?.after != null && report.indexer.before != null ? report.indexer.after - report.indexer.before : 0,
        unit: 'blocks',
        note: report.indexer?.advanced ? 'advancing' : `STALLED${report.indexer?.after == null ? ' (no progress reported after the run)' : ''}`,
      },
    ];
    return { results, report };
  } finally {
    await atlas.stop();
  }
}
