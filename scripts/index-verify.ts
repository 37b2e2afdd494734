// `npm run index:verify [-- --from A --to B]`: compares the database with the chain for masterchain
// blocks A..B (default: 1 to the indexer's cursor), the jetton tables with the contracts' get-methods at
// the cursor, and the NFT and DNS tables with the get-methods at the newest indexed block, and exits 1 on
// any difference, listing each.
import { parseArgs } from 'node:util';
import { configuredTarget, openDatabase } from '../lib/db/database';
import { migrate } from '../lib/db/migrate';
import { Deriver } from '../lib/indexer/derive';
import { verifyDerived } from '../lib/indexer/derive/verify';
import { verifyJettons, verifyRange } from '../lib/indexer/verify';
import { log } from '../lib/log';
import { TvmPool } from '../lib/tvm/pool';
import { createLiteClient, liteSourceFor } from '../lib/lite';
import { installFastTonCore } from '../lib/ton/fast-core';
import { loadConfigOrExit } from './cli';

const cfg = loadConfigOrExit();
log.info({ fastTonCore: installFastTonCore() }, '@ton/core fast paths');

function usage(message?: string): never {
  if (message) console.error(`atlas index:verify: ${message}`);
  console.error('usage: npm run index:verify [-- --from <mc seqno> --to <mc seqno>]');
  process.exit(2);
}

let args: { from?: string; to?: string } = {};
try {
  const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
  if (values.help) usage();
  args = values;
} catch (err) {
  usage((err as Error).message);
}
for (const [k, v] of Object.entries(args)) if (!/^[1-9]\d{0,9}$/.test(v)) usage(`--${k} must be a masterchain seqno, got "${v}"`);

const db = await openDatabase(configuredTarget(cfg));
let code = 0;
try {
  await migrate(db);
  const cursor = (await db.prisma.indexerState.findUnique({ where: { id: 'main' } }))?.lastMcSeqno ?? null;
  const from = args.from ? Number(args.from) : 1;
  const to = args.to ? Number(args.to) : cursor;
  if (to === null) throw new Error('the index is empty; nothing to verify (give --to to check a range anyway)');
  const client = createLiteClient(liteSourceFor(cfg), { timeoutMs: cfg.liteTimeoutMs, verify: cfg.liteVerify });
  try {
    const report = await verifyRange({
      prisma: db.prisma,
      client,
      from,
      to,
      onBlock: (seqno) => {
        if ((seqno - from) % 100 === 0) console.log(`atlas index:verify: at ${seqno} of ${to}`);
      },
    });
    for (const d of report.differences) console.log(`DIFF ${d}`);
    console.log(
      `atlas index:verify: masterchain ${from}..${to}: ${report.blocks} blocks, ${report.transactions} transactions, ${report.differences.length} differences`,
    );
    if (report.differences.length) code = 1;
    // The token tables hold the latest states: they are compared at the cursor only.
    if (cursor !== null) {
      const tvm = new TvmPool();
      try {
        const tokens = await verifyJettons({ prisma: db.prisma, client, tvm, seqno: cursor });
        for (const d of tokens.differences) console.log(`DIFF ${d}`);
        for (const s of tokens.skipped) console.log(`SKIP ${s}`);
        console.log(
          `atlas index:verify: jettons at ${cursor}: ${tokens.masters} masters, ${tokens.wallets} wallets, ${tokens.differences.length} differences, ${tokens.skipped.length} skipped`,
        );
        if (tokens.differences.length) code = 1;
        const deriver = new Deriver({ prisma: db.prisma, lite: client, tvm, log: log.child({ component: 'verify' }), fullConfig: true });
        const nft = await verifyDerived({ prisma: db.prisma, deriver });
        for (const d of nft.differences) console.log(`DIFF ${d}`);
        for (const s of nft.skipped) console.log(`SKIP ${s}`);
        console.log(`atlas index:verify: NFT and DNS tables: ${nft.rows} rows, ${nft.differences.length} differences, ${nft.skipped.length} skipped`);
        if (nft.differences.length) code = 1;
      } finally {
        await tvm.close();
      }
    }
  } finally {
    client.engine.close();
  }
} catch (err) {
  console.error(`atlas index:verify: ${(err as Error).message}`);
  code = 1;
} finally {
  await db.close();
}
process.exit(code);
