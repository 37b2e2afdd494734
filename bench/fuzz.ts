// The fuzz benchmark: starts Atlas as a user would (`npm start`, a fresh data directory, a free port,
// the seeded devnet with 1 s blocks, as playwright.config.ts does), runs lib/fuzz against it and reports
// throughput, latency, failures, the server's memory and the indexer's progress.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { getJson } from '../lib/fuzz/client';
import { formatReport, runFuzz, saveReport, type FuzzReport } from '../lib/fuzz/run';
import type { BenchResult } from './support';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

async function waitUntilLive(base: URL, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    const h = await getJson<{ indexer?: string }>(base, '/api/health').catch(() => undefined);
    if (h?.indexer?.startsWith('ok: live')) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`Atlas at ${base.origin} did not become healthy with a live indexer in ${deadlineMs / 1000} s`);
}

const SERVER_LOG = '.reports/fuzz-server.log';
const REPORT_FILE = '.reports/fuzz.json';

export async function benchFuzz(requests: number, seed: string, concurrency: number): Promise<{ results: BenchResult[]; report: FuzzReport }> {
  const port = await freePort();
  fs.mkdirSync(path.dirname(SERVER_LOG), { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atlas-fuzz-'));
  const server = spawn('npm', ['start'], {
    detached: true, // its own process group, so the whole tree stops with it
    // The server's own log of the failures the fuzzer provokes would drown the bench output.
    stdio: ['ignore', 'ignore', fs.openSync(SERVER_LOG, 'w')],
    env: { ...process.env, PORT: String(port), ATLAS_DATA_DIR: dataDir, LOG_LEVEL: 'error', DEVNET_SEED: 'atlas-fuzz', DEVNET_BLOCK_MS: '1000', DEVNET_ADNL_PORT: '0', RATE_LIMIT_ANON_RPS: '1000000' },
  });
  const base = new URL(`http://127.0.0.1:${port}`);
  try {
    console.log(`  fuzz: starting Atlas on port ${port} (builds first if the sources changed)…`);
    await waitUntilLive(base, 600_000);
    const report = await runFuzz({ url: base.href, requests, seed, concurrency, pid: server.pid, progress: (l) => console.log(`  ${l}`) });
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
    if (server.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 2000));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
