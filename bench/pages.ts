// Explorer pages as visitors get them, against a fresh `npm start`: time to first byte of a render of every
// page kind on an idle server (one started with PAGE_CACHE=off, so nothing is shared), then 50 connections asking
// for the home, a block and a transaction page (bench/edge.ts) — where shared renders
// (lib/http/page-cache.ts) carry the load.
import fs from 'node:fs';
import path from 'node:path';
import { toUrlSafe } from '../lib/format/hash';
import { benchEdge } from './edge';
import { startAtlas } from './atlas-server';
import { quantile, type BenchResult } from './support';

const SERVER_LOG = '.reports/pages-server.log';


async function ttfb(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url);
  const ms = performance.now() - t0; // fetch resolves once the status line and headers are in
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`pages bench: ${url} answered ${res.status}`);
  return ms;
}

interface Tx {
  hash: string;
  account: string;
  trace_id: string | null;
  mc_block_seqno: number;
  block_ref: { workchain: number; shard: string; seqno: number };
}

const urlSafe = (b64: string) => encodeURIComponent(toUrlSafe(b64));

/** One URL per page kind the explorer has (the kinds e2e/layout.spec.ts checks), on the server's seeded devnet. */
async function pageKinds(base: string, dataDir: string): Promise<[string, string][]> {
  const genesis = JSON.parse(fs.readFileSync(path.join(dataDir, 'devnet', 'genesis.json'), 'utf8')) as { name: string; friendly: { bounceable: string } }[];
  const friendly = (name: string) => encodeURIComponent(genesis.find((g) => g.name === name)!.friendly.bounceable);
  // "Live" can come before the first block is in: wait for the genesis scenario's basechain traffic.
  let tx: Tx | undefined;
  for (const until = Date.now() + 300_000; !tx; await new Promise((r) => setTimeout(r, 1000))) {
    if (Date.now() > until) throw new Error('pages bench: the genesis transactions were not indexed in 5 minutes');
    const txs = (await (await fetch(`${base}/api/v3/transactions?limit=200&sort=asc`)).json()) as { transactions: Tx[] };
    tx = txs.transactions.find((t) => t.block_ref.workchain === 0 && t.trace_id);
  }
  const info = (await (await fetch(`${base}/api/v3/masterchainInfo`)).json()) as { last: { seqno: number } };
  const b = tx.block_ref;
  return [
    ['home', '/'],
    ['blocks list', '/blocks'],
    ['masterchain block', `/block/-1/8000000000000000/${Math.max(1, info.last.seqno - 1)}`],
    ['basechain block', `/block/${b.workchain}/${b.shard}/${b.seqno}`],
    ['transactions list', '/transactions'],
    ['transaction', `/tx/${urlSafe(tx.hash)}`],
    ['trace', `/trace/${urlSafe(tx.trace_id ?? tx.hash)}`],
    ['account', `/account/${encodeURIComponent(tx.account)}`],
    ['account (wallet)', `/account/${friendly('alice')}`],
    ['account (jetton wallet)', `/account/${friendly('alice_jetton')}`],
    ['account (NFT item)', `/account/${friendly('nft_item_2')}`],
    ['account (nonexistent)', `/account/${friendly('bounce_target')}`],
    ['account (vesting)', `/account/${friendly('vesting')}`],
    ['account (multisig)', `/account/${friendly('multisig')}`],
    ['top accounts', '/accounts'],
    ['jettons', '/jettons'],
    ['jetton', `/jetton/${friendly('jetton_minter')}`],
    ['nfts', '/nfts'],
    ['nft collection', `/nft/collection/${friendly('nft_collection')}`],
    ['nft item', `/nft/${friendly('nft_item_2')}`],
    ['dns', '/dns/alice.ton'],
    ['search', '/search?q=atlas'],
    ['emulate', '/emulate'],
    ['api docs', '/api-docs'],
  ];
}

export async function benchPages(opts: { seconds?: number } = {}): Promise<BenchResult[]> {
  // Renders first, on a server that keeps none: a URL's query string no longer tells renders apart (a page
  // is cached by what it reads, lib/http/page-query.ts), so sharing is turned off to time every render.
  const results = await renderTimes();
  const atlas = await startAtlas({ name: 'pages', seed: 'atlas-pages', logFile: SERVER_LOG });
  const base = atlas.base.origin;
  try {
    const pages = await pageKinds(base, atlas.dataDir);
    for (const [name, page] of pages.filter(([n]) => ['home', 'masterchain block', 'transaction'].includes(n))) {
      const rows = await benchEdge({ url: base, path: page, conns: 50, seconds: opts.seconds ?? 15 });
      results.push(...rows.filter((r) => !r.name.includes('/api/health')).map((r) => ({ ...r, name: r.name.replace(`GET ${page}`, `page ${name}`) })));
    }
    return results;
  } finally {
    await atlas.stop();
  }
}

/** TTFB of 20 renders of every page kind, on an idle server with PAGE_CACHE=off. */
async function renderTimes(): Promise<BenchResult[]> {
  const atlas = await startAtlas({ name: 'pages', seed: 'atlas-pages', logFile: SERVER_LOG, env: { PAGE_CACHE: 'off' } });
  const base = atlas.base.origin;
  try {
    const results: BenchResult[] = [];
    for (const [name, page] of await pageKinds(base, atlas.dataDir)) {
      await ttfb(`${base}${page}`); // the first render of a kind warms Next's code for it
      const times: number[] = [];
      for (let i = 0; i < 20; i++) times.push(await ttfb(`${base}${page}`));
      results.push({ name: `page ${name}: TTFB of a render, idle`, value: quantile(times, 0.5), unit: 'ms', note: `p99 ${quantile(times, 0.99)} ms over 20 renders` });
    }
    return results;
  } finally {
    await atlas.stop();
  }
}
