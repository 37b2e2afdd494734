// `npm run indexer [-- --from A --to B | --catch-up]`: the indexer as its own process. Without a range it
// catches up from the cursor and then follows the chain until Ctrl-C (`--catch-up`: exits once caught
// up); with one it indexes the masterchain blocks of A..B not indexed yet, with progress in the log, and
// exits (lib/indexer/range-backfill.ts: resumable, and safe next to a running follower, whose cursor it
// leaves alone). It reads the chain through the configured lite servers (on the devnet: the ADNL server
// of a running `npm start` or `npm run devnet`). Run `npm start` with INDEXER=off next to it; the
// embedded database admits one process at a time, so a separate indexer needs DATABASE_URL.
import { parseArgs } from 'node:util';
import { INDEXER_STATEMENT_TIMEOUT_MS, type Database } from '../lib/db/database';
import { backfillRange } from '../lib/indexer/range-backfill';
import { liteSourceFor } from '../lib/lite';
import { log } from '../lib/log';
import { redisPendingStore } from '../lib/pending/store';
import { redisBus } from '../lib/stream/bus';
import { chainParts, indexerParts, openMigratedDatabase, streamParts } from '../lib/wiring';
import { installFastTonCore } from '../lib/ton/fast-core';
import { loadConfigOrExit } from './cli';

const cfg = loadConfigOrExit();
log.info({ fastTonCore: installFastTonCore() }, '@ton/core fast paths');

function usage(message?: string): never {
  if (message) console.error(`atlas indexer: ${message}`);
  console.error('usage: npm run indexer [-- --from <mc seqno> --to <mc seqno> [--progress-every <seconds>] | --catch-up]');
  process.exit(2);
}

const seqnoArg = (name: string, v: string | undefined) => {
  if (v === undefined) return undefined;
  if (!/^[1-9]\d{0,9}$/.test(v)) usage(`--${name} must be a masterchain seqno (an integer from 1), got "${v}"`);
  return Number(v);
};

let from: number | undefined;
let to: number | undefined;
let catchUp = false;
let progressEvery: string | undefined;
try {
  const { values } = parseArgs({
    options: { from: { type: 'string' }, to: { type: 'string' }, 'catch-up': { type: 'boolean' }, 'progress-every': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) usage();
  catchUp = values['catch-up'] ?? false;
  from = seqnoArg('from', values.from);
  to = seqnoArg('to', values.to);
  progressEvery = values['progress-every'];
} catch (err) {
  usage((err as Error).message);
}
if ((from === undefined) !== (to === undefined)) usage('give both --from and --to, or neither');
if (from !== undefined && to !== undefined && from > to) usage(`--from ${from} is after --to ${to}`);
if (catchUp && from !== undefined) usage('--catch-up follows the cursor; it does not take a range');
if (progressEvery !== undefined && from === undefined) usage('--progress-every goes with a range (--from, --to)');
if (progressEvery !== undefined && !/^\d{1,4}$/.test(progressEvery)) usage(`--progress-every must be a number of seconds from 0 to 9999, got "${progressEvery}"`);
/** Seconds between the range backfill's progress lines (0: after every block). */
const reportEveryMs = progressEvery === undefined ? undefined : Number(progressEvery) * 1000;

let db: Database | undefined;
let code = 0;
try {
  db = await openMigratedDatabase(cfg, INDEXER_STATEMENT_TIMEOUT_MS);
  const { lite, tvm } = chainParts(cfg, liteSourceFor(cfg));
  // A following indexer streams what it commits to the API processes through Redis (lib/stream); without
  // Redis no other process could hear it.
  const bus = from === undefined && cfg.redisUrl ? redisBus(cfg.redisUrl, { log: log.child({ component: 'stream' }) }) : undefined;
  const { pending, publisher } = bus && cfg.redisUrl ? streamParts(cfg, { db, lite, tvm, bus, store: redisPendingStore(cfg.redisUrl) }) : { pending: undefined, publisher: undefined };
  if (from === undefined && !bus) log.info({ component: 'stream' }, 'REDIS_URL is not set: what this indexer commits is not streamed to the API processes');
  // A range run is a one-off backfill; a following indexer also fetches metadata (METADATA_FETCH=on).
  const startSeqno = cfg.indexer.startSeqno ?? (cfg.network === 'devnet' ? 1 : undefined);
  const { indexer, metadata } = await indexerParts(cfg, { db, lite, tvm, publisher, startSeqno, fetchMetadata: from === undefined });
  try {
    if (from !== undefined && to !== undefined) {
      await indexer.claim();
      let stop = false;
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => (stop = true));
      const r = await backfillRange({ prisma: db.prisma, indexer, from, to, log: log.child({ component: 'backfill' }), reportEveryMs, shouldStop: () => stop });
      console.log(
        r.stopped
          ? `atlas indexer: stopped with ${r.alreadyIndexed + r.indexed} of ${r.total} masterchain blocks of ${from}..${to} indexed; run it again to resume`
          : `atlas indexer: masterchain blocks ${from}..${to} indexed (${r.indexed} now, ${r.alreadyIndexed} before, ${r.transactions} transactions)`,
      );
      await indexer.stop();
    } else {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void indexer.stop());
      await indexer.run({ untilLive: catchUp });
      if (catchUp) console.log(`atlas indexer: caught up at masterchain seqno ${indexer.progress.lastIndexedSeqno}`);
    }
  } finally {
    await metadata?.stop();
    await publisher?.close();
    await pending?.close();
    await bus?.close();
    await tvm.close();
    lite.engine.close();
  }
} catch (err) {
  console.error(`atlas indexer: ${(err as Error).message}`);
  code = 1;
} finally {
  await db?.close();
}
process.exit(code);
