// `npm run bench [-- --only devnet,index,v3,v3-http,v2,classify,getters,pending,fuzz,pages,stream,edge,hostile,page-bypass,heavy-reads] [--tx 50000] [--rows 1000000] [--rounds 60]
// [--v3-database URL] [--v3-routes traces,nft/items] [--engines postgresql,pglite] [--db-prefix atlas_bench] [--requests 100000] [--seed S] [--concurrency C] [--url http://127.0.0.1:3000] [--path /]
// [--seconds 30] [--data-dir DIR] [--warmup 180] [--route-seconds 10]`:
// Atlas's performance numbers.
//   devnet — sustained devnet throughput on a fresh chain, getAccountState / runSmcMethod over ADNL
//   index — indexing throughput (transactions/s) of a recorded devnet chain (one basechain shard, and four) into PostgreSQL and PGlite, with
//           every stage the follower runs in production: traces and actions (store) and derive (a TVM pool)
//   v3    — p50/p99 and requests/s of every /api/v3 GET route that reads the index, at 1 and 32 clients,
//           on a realistic --rows-transaction PostgreSQL index (bench/v3-seed.ts), with a verdict per
//           route class against issue 16's targets; --v3-database keeps (and resumes) the seeded index
//   v3-http — `npm start` on a fresh PostgreSQL database and on PGlite (--engines), its devnet left running
//           with its traffic for --warmup seconds, then 32 keep-alive connections for --route-seconds on each of
//           /transactions?limit=100, /transactions?account=<busiest>&limit=20, /traces?limit=20 and
//           /events?account=<busiest>: served req/s, p50, p99 over real HTTP (API_WORKERS etc. pass through)
//   v2    — p50/p99 of v2 calls against the devnet next to the same reads made directly with ton-lite-client
//   classify — action classifier throughput (traces/s on one core) over the ton-actions fixture traces
//   pending — p50/p99 of emulating and classifying a 3-hop jetton transfer as a pending trace (lib/pending)
//   fuzz  — `npm start` on a free port, then --requests fuzz requests (lib/fuzz): throughput, p50/p99,
//           unexpected 5xx, hangs, server RSS, indexer progress; the bench exits 1 if the fuzz run fails
//   pages — `npm start` on a free port: TTFB of page renders on the idle server, then 50 connections on the
//           home, a block and a transaction page (served req/s, latency, shed and timed-out shares)
//   edge  — 50 concurrent connections against a running Atlas (--url; not in the default set): served
//           req/s, shed and timed-out shares, latency, /api/health latency under that load
//   stream — 1,000 WebSocket subscribers of the Streaming API on one server process (its own process: an
//           indexed devnet publishing to the streams): delivery latency from commit to client, RSS per idle stream
//   heavy-reads — (not in the default set) issue 25's heavy-read attack on an indexed devnet of --rounds rounds, in a
//           server process of its own behind the HTTP edge: 8 anonymous connections on the 10 MB v3 lists for
//           --seconds while a keyed client and /api/health are sampled, against the edge without and with the
//           per-client in-flight cap and answer budget; keyed p50/p99, its 503/429s, health's slowest answer
//   hostile — (not in the default set) `npm start` with TRUST_PROXY=on, or the Atlas at --url whose
//           ATLAS_DATA_DIR is --data-dir: hostile contracts deployed, then 4 clients for --seconds run
//           get-methods with 600-deep, DAG and nested-tuple results and send deep externals; the honest
//           get-method's p50/p99, 5xx, worker restarts, indexer lag, health, a signed transfer after
//   page-bypass — (not in the default set) `npm start` with TRUST_PROXY=on: 16 clients ask for account pages
//           meant to miss the page cache (junk query strings, fresh addresses) for --seconds while curl samples
//           /api/health and a v3 route: API latency idle and under that load, page answers, renders, RSS
// The recorded chain is kept in .atlas-bench/ so later runs skip recording. PostgreSQL comes from
// DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres; a scratch database named
// <db-prefix>_<random> is created and dropped). `--engines` picks the index targets. Results print as a table and go to .reports/bench.json.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { LiteClient } from 'ton-lite-client';
import { config } from '../lib/config';
import { migrate } from '../lib/db/migrate';
import { openDatabase } from '../lib/db/database';
import { Indexer } from '../lib/indexer/follower';
import { createLiteClient } from '../lib/lite';
import { log } from '../lib/log';
import { installFastTonCore } from '../lib/ton/fast-core';
import { TvmPool } from '../lib/tvm/pool';
import { recordChain } from './chain';
import { benchClassify } from './classify';
import { benchDevnet } from './devnet';
import { benchFuzz } from './fuzz';
import { benchPending } from './pending';
import { benchEdge } from './edge';
import { benchPages } from './pages';
import { benchPageBypass } from './page-bypass';
import { benchStream } from './stream';
import { benchHostile } from './hostile';
import { benchGetters } from './getters';
import { benchHeavyReads } from './heavy-reads';
import { benchV2 } from './v2';
import { benchV3, type V3Report } from './v3';
import { benchV3Http } from './v3-http';
import { machineCpuSeconds, mainThreadCpuSeconds, scratchPostgres, tableCounts, type BenchResult } from './support';

// Measured as the production processes run: with @ton/core's fast paths (lib/ton/fast-core.ts).
installFastTonCore();

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    tx: { type: 'string', default: '50000' },
    rows: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '60' },
    'v3-database': { type: 'string' },
    'v3-routes': { type: 'string' },
    requests: { type: 'string', default: '100000' },
    seed: { type: 'string', default: 'atlas-bench' },
    concurrency: { type: 'string', default: '8' },
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    path: { type: 'string', default: '/' },
    engines: { type: 'string', default: 'postgresql,pglite' },
    'db-prefix': { type: 'string', default: 'atlas_bench' },
    seconds: { type: 'string', default: '30' },
    'data-dir': { type: 'string' },
    warmup: { type: 'string', default: '180' },
    'route-seconds': { type: 'string', default: '10' },
  },
  strict: true,
});
const only = new Set((values.only ?? 'devnet,index,v3,v3-http,v2,classify,getters,pending,fuzz,pages,stream').split(','));
const targetTx = Number(values.tx);
const targetRows = Number(values.rows);
if (!Number.isSafeInteger(targetRows) || targetRows < 1) throw new Error(`--rows must be a positive integer, not ${values.rows}`);
const results: BenchResult[] = [];
let v3: V3Report | undefined;
const baseUrl = config().databaseUrl ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

if (only.has('devnet')) results.push(...(await benchDevnet(Number(values.rounds))));
if (only.has('classify')) results.push(...benchClassify());
if (only.has('getters')) results.push(...(await benchGetters()));
if (only.has('pending')) results.push(...(await benchPending()));
if (only.has('edge')) results.push(...(await benchEdge({ url: values.url!, path: values.path })));
if (only.has('v3-http')) {
  const engines = (values.engines ?? '').split(',').filter((e): e is 'postgresql' | 'pglite' => e === 'postgresql' || e === 'pglite');
  results.push(...(await benchV3Http({ engines, baseUrl, dbPrefix: values['db-prefix']!, warmupSeconds: Number(values.warmup), routeSeconds: Number(values['route-seconds']) })));
}
if (only.has('pages')) results.push(...(await benchPages()));
if (only.has('page-bypass')) results.push(...(await benchPageBypass({ seconds: Number(values.seconds) })));
if (only.has('stream')) results.push(...(await benchStream()));
if (only.has('heavy-reads')) results.push(...(await benchHeavyReads({ seconds: Number(values.seconds), rounds: Number(values.rounds) })));
if (only.has('hostile')) results.push(...(await benchHostile({ seconds: Number(values.seconds), url: values['data-dir'] ? values.url : undefined, dataDir: values['data-dir'] })));

// The index, v3 and v2 benchmarks share one recorded chain.
if (['index', 'v3', 'v2'].some((b) => only.has(b))) await onRecordedChain();

async function onRecordedChain() {
  const devnet = await recordChain(path.resolve('.atlas-bench'), targetTx);
  const lite = createLiteClient({ kind: 'engine', engine: devnet.engine }, { cache: false });
  const head = devnet.chain.lastSeqno;

  try {
    if (only.has('index')) {
      const engines = (values.engines ?? '').split(',').filter((e): e is 'postgresql' | 'pglite' => e === 'postgresql' || e === 'pglite');
      for (const engine of engines) results.push(await benchIndex(engine, lite, head, '1 shard'));
      // The same traffic on four basechain shards (DEVNET_SHARDS=4): more, smaller shard blocks per masterchain block.
      const sharded = await recordChain(path.resolve('.atlas-bench-4-shards'), targetTx, 4);
      const shardedLite = createLiteClient({ kind: 'engine', engine: sharded.engine }, { cache: false });
      try {
        for (const engine of engines) results.push(await benchIndex(engine, shardedLite, sharded.chain.lastSeqno, '4 shards'));
      } finally {
        shardedLite.engine.close();
        await sharded.close();
      }
    }
    if (only.has('v3')) v3 = await benchV3(baseUrl, lite, head, targetRows, values['v3-database'], values['v3-routes']?.split(','));
    if (only.has('v2')) results.push(...(await benchV2(lite, devnet)));
  } finally {
    lite.engine.close();
    await devnet.close();
  }
}

/** Indexing a recorded chain from its first block into a fresh database of `engine`, as the indexer process does. */
async function benchIndex(engine: 'postgresql' | 'pglite', lite: LiteClient, head: number, chainLabel: string) {
  const pg = engine === 'postgresql' ? await scratchPostgres(baseUrl, values['db-prefix']) : undefined;
  const db = pg ? pg.db : await openDatabase({ engine: 'pglite', dir: null });
  // As lib/runtime.ts and scripts/indexer.ts build it: with a TVM pool the derive stage runs
  // (interfaces, jetton/NFT/DNS tables); traces and actions are assembled and classified in store.
  const tvm = new TvmPool({ log });
  try {
    await migrate(db);
    const indexer = new Indexer({ prisma: db.prisma, client: lite, log, network: 'devnet', tvm });
    await indexer.claim();
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const main0 = mainThreadCpuSeconds();
    const machine0 = machineCpuSeconds();
    let txs = 0;
    for (let seqno = 1; seqno <= head; seqno++) {
      txs += await indexer.indexMasterchainBlock(seqno);
      if (seqno % 200 === 0) console.log(`  index → ${engine} (${chainLabel}): ${seqno}/${head} blocks, ${txs} transactions`);
    }
    const s = (performance.now() - t0) / 1000;
    // This process's CPU time (every thread: parse and TVM workers too; not the PostgreSQL server's):
    // the rate a shared, busy machine hides.
    const cpu = process.cpuUsage(cpu0);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    const mainS = main0 === null ? null : mainThreadCpuSeconds()! - main0;
    const machine1 = machineCpuSeconds();
    const cpuNote = [
      `${cpuS.toFixed(1)} s of CPU`,
      ...(mainS === null ? [] : [`main thread ${mainS.toFixed(1)} s`]),
      // Every core's busy time, this process's included: the rest is mostly the PostgreSQL server.
      ...(machine0 && machine1 ? [`machine busy ${(machine1.busy - machine0.busy).toFixed(1)} of ${(machine1.total - machine0.total).toFixed(1)} cpu-s`] : []),
    ].join(', ');
    const derived = await tableCounts(db, ['traces', 'actions', 'jetton_wallets', 'nft_items']);
    await indexer.stop();
    return { name: `index → ${engine}, ${chainLabel}`, value: +(txs / s).toFixed(0), unit: 'tx/s', note: `${txs} transactions, ${head} masterchain blocks in ${s.toFixed(1)} s (${cpuNote}); ${derived}` };
  } finally {
    await tvm.close();
    await (pg ? pg.drop() : db.close());
  }
}

let fuzzFailed = false;
if (only.has('fuzz')) {
  const { results: rows, report } = await benchFuzz(Number(values.requests), values.seed, Number(values.concurrency));
  results.push(...rows);
  fuzzFailed = report.failures.length > 0;
}

if (results.length) console.table(results.map((r) => ({ benchmark: r.name, value: r.value, unit: r.unit, note: r.note ?? '' })));
// v3 measures ~70 routes twice: one row per route (its p50/p99/req/s rows are in bench.json), then the verdicts.
if (v3) {
  console.table(v3.table);
  for (const line of v3.verdicts) console.log(line);
}
fs.mkdirSync('.reports', { recursive: true });
fs.writeFileSync('.reports/bench.json', JSON.stringify({ at: new Date().toISOString(), results: [...results, ...(v3?.results ?? [])], verdicts: v3?.verdicts ?? [] }, null, 2));
process.exit(fuzzFailed ? 1 : 0);
