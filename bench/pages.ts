// Explorer pages as visitors get them, against a fresh `npm start`: time to first byte of a page render on
// an idle server (each request a new URL, so nothing is shared: `?r=<n>`), then 50 connections asking
// for the home, a block and a transaction page (bench/edge.ts) — where shared renders
// (lib/http/page-cache.ts) carry the load.
import { benchEdge } from './edge';
import { startAtlas } from './atlas-server';
import type { BenchResult } from './support';

const SERVER_LOG = '.reports/pages-server.log';

const pct = (v: number[], q: number) => +[...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(q * v.length))]!.toFixed(1);

async function ttfb(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url);
  const ms = performance.now() - t0; // fetch resolves once the status line and headers are in
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`pages bench: ${url} answered ${res.status}`);
  return ms;
}

export async function benchPages(opts: { seconds?: number } = {}): Promise<BenchResult[]> {
  const atlas = await startAtlas({ name: 'pages', seed: 'atlas-pages', logFile: SERVER_LOG });
  const base = atlas.base.origin;
  try {
    const info = (await (await fetch(`${base}/api/v3/masterchainInfo`)).json()) as { last: { seqno: number } };
    const txs = (await (await fetch(`${base}/api/v3/transactions?limit=1&sort=asc`)).json()) as { transactions: { hash: string; account: string }[] };
    const tx = txs.transactions[0]!;
    const pages: [string, string][] = [
      ['home', '/'],
      ['blocks list', '/blocks'],
      ['masterchain block', `/block/-1/8000000000000000/${Math.max(1, info.last.seqno - 1)}`],
      ['transaction', `/tx/${encodeURIComponent(tx.hash.replace(/\+/g, '-').replace(/\//g, '_'))}`],
      ['account', `/account/${encodeURIComponent(tx.account)}`],
      ['jettons', '/jettons'],
    ];
    const results: BenchResult[] = [];
    for (const [name, path] of pages) {
      await ttfb(`${base}${path}`); // the first render of a kind warms Next's code for it
      const times: number[] = [];
      for (let i = 0; i < 20; i++) times.push(await ttfb(`${base}${path}${path.includes('?') ? '&' : '?'}r=${i}`));
      results.push({ name: `page ${name}: TTFB of a render, idle`, value: pct(times, 0.5), unit: 'ms', note: `p99 ${pct(times, 0.99)} ms over 20 renders` });
    }
    for (const [name, path] of pages.filter(([n]) => ['home', 'masterchain block', 'transaction'].includes(n))) {
      const rows = await benchEdge({ url: base, path, conns: 50, seconds: opts.seconds ?? 15 });
      results.push(...rows.filter((r) => !r.name.includes('/api/health')).map((r) => ({ ...r, name: r.name.replace(`GET ${path}`, `page ${name}`) })));
    }
    return results;
  } finally {
    await atlas.stop();
  }
}
