// Explorer pages forced to render (issue 25, item 5), against a fresh `npm start` with TRUST_PROXY=on:
// 16 connections, each a client of its own (its X-Forwarded-For), ask for account pages for --seconds (30)
// on URLs meant to miss the page cache — a known account with a junk query string (`?cb=N`) and accounts
// nobody asked for before (a fresh random address each time) — while another process (curl) samples
// /api/health and a v3 route every 250 ms. Reports the API's latency idle and under that load, what the
// pages answered (200 rendered or shared, 429, 503), the renders they cost and the server's RSS growth.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startAtlas } from './atlas-server';
import { quantile, type BenchResult } from './support';

const run = promisify(execFile);
const SERVER_LOG = '.reports/page-bypass-server.log';
const CONNS = 16;
const SAMPLE_EVERY_MS = 250;
const V3_ROUTE = '/api/v3/transactions?limit=10';


/** One request timed by curl in its own process, so the bench's 16 clients do not slow the clock. */
async function curlMs(url: string): Promise<{ status: number; ms: number }> {
  try {
    const { stdout } = await run('curl', ['-s', '-o', '/dev/null', '--max-time', '20', '-w', '%{http_code} %{time_total}', url]);
    const [status, seconds] = stdout.trim().split(' ');
    return { status: Number(status), ms: Number(seconds) * 1000 };
  } catch {
    return { status: 0, ms: 20_000 };
  }
}

async function sample(base: string, until: number) {
  const health: number[] = [];
  const v3: number[] = [];
  let failed = 0;
  while (Date.now() < until) {
    const [h, v] = await Promise.all([curlMs(`${base}/api/health`), curlMs(`${base}${V3_ROUTE}`)]);
    health.push(h.ms);
    v3.push(v.ms);
    if (h.status !== 200) failed++;
    if (v.status !== 200) failed++;
    await new Promise((r) => setTimeout(r, SAMPLE_EVERY_MS));
  }
  return { health, v3, failed };
}

const rss = async (base: string) => ((await (await fetch(`${base}/api/health`)).json()) as { memory?: { rss?: number } }).memory?.rss ?? 0;
const randomAddress = () => `0:${randomBytes(32).toString('hex')}`;

export async function benchPageBypass(opts: { seconds?: number } = {}): Promise<BenchResult[]> {
  const seconds = opts.seconds ?? 30;
  const atlas = await startAtlas({ name: 'page-bypass', seed: 'atlas-page-bypass', logFile: SERVER_LOG, env: { TRUST_PROXY: 'on' } });
  const base = atlas.base.origin;
  try {
    const genesis = JSON.parse(fs.readFileSync(path.join(atlas.dataDir, 'devnet', 'genesis.json'), 'utf8')) as { name: string; friendly: { bounceable: string } }[];
    const known = encodeURIComponent(genesis.find((g) => g.name === 'alice')!.friendly.bounceable);
    // Warm Next's code for the page and the route, and let the start-up work settle, before the idle samples.
    for (let i = 0; i < 5; i++) {
      await fetch(`${base}/account/${randomAddress()}`).then((r) => r.arrayBuffer());
      await curlMs(`${base}${V3_ROUTE}`);
    }
    await new Promise((r) => setTimeout(r, 5000));
    const idle = await sample(base, Date.now() + 10_000);
    const rssBefore = await rss(base);

    const until = Date.now() + seconds * 1000;
    const statuses = new Map<string, number>();
    const page: number[] = [];
    let n = 0;
    const client = async (c: number) => {
      const headers = { 'x-forwarded-for': `198.51.100.${c + 1}` };
      while (Date.now() < until) {
        const i = n++;
        const target = i % 2 ? `/account/${known}?cb=${i}` : `/account/${randomAddress()}`;
        const t0 = performance.now();
        try {
          const res = await fetch(`${base}${target}`, { headers, signal: AbortSignal.timeout(20_000) });
          await res.arrayBuffer();
          const kind = res.status === 200 ? `200 ${res.headers.get('x-atlas-cache') ?? 'uncached'}` : String(res.status);
          statuses.set(kind, (statuses.get(kind) ?? 0) + 1);
          if (res.status === 200) page.push(performance.now() - t0);
        } catch {
          statuses.set('no answer', (statuses.get('no answer') ?? 0) + 1);
        }
      }
    };
    const [load] = await Promise.all([sample(base, until), ...Array.from({ length: CONNS }, (_, c) => client(c))]);
    const rssAfter = await rss(base);
    const answers = [...statuses].sort().map(([k, v]) => `${k}: ${v}`).join(', ');
    const renders = [...statuses].filter(([k]) => k === '200 miss' || k === '200 uncached').reduce((s, [, v]) => s + v, 0);
    const name = `page-bypass ${CONNS} conns ${seconds} s`;
    return [
      { name: `${name}: ${V3_ROUTE} p50 idle`, value: quantile(idle.v3, 0.5), unit: 'ms', note: `p99 ${quantile(idle.v3, 0.99)} ms; /api/health p50 ${quantile(idle.health, 0.5)} ms` },
      { name: `${name}: ${V3_ROUTE} p50 under load`, value: quantile(load.v3, 0.5), unit: 'ms', note: `p90 ${quantile(load.v3, 0.9)}, p99 ${quantile(load.v3, 0.99)} ms over ${load.v3.length} samples (curl)` },
      { name: `${name}: /api/health p50 under load`, value: quantile(load.health, 0.5), unit: 'ms', note: `p99 ${quantile(load.health, 0.99)} ms; ${load.failed} samples not 200` },
      { name: `${name}: page answers`, value: n, unit: 'requests', note: answers },
      { name: `${name}: full renders`, value: renders, unit: 'renders', note: `page p50 ${quantile(page, 0.5)} ms, p99 ${quantile(page, 0.99)} ms (200s)` },
      { name: `${name}: RSS growth`, value: Math.round((rssAfter - rssBefore) / 1024 / 1024), unit: 'MB', note: `${Math.round(rssBefore / 1024 / 1024)} → ${Math.round(rssAfter / 1024 / 1024)} MB` },
    ];
  } finally {
    await atlas.stop();
  }
}
