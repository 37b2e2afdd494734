// `npm run devnet [-- --seed X]`: the local devnet alone (no explorer): blocks every DEVNET_BLOCK_MS,
// traffic at DEVNET_TPS (DEVNET_TRAFFIC), lite server on 127.0.0.1:DEVNET_ADNL_PORT. Prints where to
// connect and the genesis accounts, then runs until Ctrl-C. Data: $ATLAS_DATA_DIR/devnet/.
import { parseArgs } from 'node:util';
import { DevnetIdentityError, DevnetLockedError, startDevnet } from '../lib/devnet';
import { scheduleText } from '../lib/devnet/chain-files';
import { log } from '../lib/log';
import { installFastTonCore } from '../lib/ton/fast-core';
import { loadConfigOrExit } from './cli';

const cfg = loadConfigOrExit();
log.info({ fastTonCore: installFastTonCore() }, '@ton/core fast paths');

function usage(): never {
  console.error('usage: node --import tsx scripts/devnet.ts [--seed <seed>]');
  process.exit(2);
}

async function main() {
  let seed: string | undefined;
  try {
    const { values } = parseArgs({ options: { seed: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
    if (values.help) usage();
    seed = values.seed ?? cfg.devnet.seed;
  } catch {
    usage();
  }
  const devnet = await startDevnet({
    dataDir: cfg.dataDir,
    seed,
    blockMs: cfg.devnet.blockMs,
    tps: cfg.devnet.tps,
    traffic: cfg.devnet.traffic,
    adnlPort: cfg.devnet.adnlPort,
    shards: cfg.devnet.shards,
    shardSchedule: cfg.devnet.shardSchedule,
    log: log.child({ component: 'devnet' }),
  });
  const lines = [
    `atlas devnet: masterchain seqno ${devnet.chain.lastSeqno}, a block every ${cfg.devnet.blockMs} ms` +
      (cfg.devnet.traffic ? `, traffic ${cfg.devnet.tps} tx/s` : ', no traffic'),
    `  lite server (ADNL)  ${devnet.adnl.host}:${devnet.adnl.port}  key ${devnet.adnl.publicKey.toString('base64')}`,
    `  global config       ${devnet.globalConfigPath}`,
    `  zero state          ${devnet.zeroState.rootHash.toString('hex')}`,
    `  seed                ${devnet.seed}${devnet.chain.seeded ? '' : ' (random)'}`,
    `  basechain shards    ${devnet.chain.shardTops().map((b) => b.shard.toString(16)).join(' ')} (DEVNET_SHARDS ${devnet.chain.identity!.shards}, schedule ${scheduleText(devnet.chain.identity!.shardSchedule)})`,
    `  genesis accounts    ${devnet.genesisPath}`,
  ];
  for (const a of devnet.genesisAccounts) lines.push(`    ${a.name.padEnd(18)} ${a.kind.padEnd(20)} ${a.friendly.nonBounceable}`);
  console.log(lines.join('\n'));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`atlas devnet: ${signal}, stopping (state saved; a restart continues the chain)`);
    await devnet.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  if (err instanceof DevnetIdentityError || err instanceof DevnetLockedError) console.error(`atlas devnet: ${err.message}`);
  else console.error(`atlas devnet: ${(err as Error).stack ?? (err as Error).message}`);
  process.exit(1);
});
