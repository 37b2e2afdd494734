// A devnet chain recorded once for the benchmarks (kept under .atlas-bench/ and reused): the genesis
// scenario plus traffic until it holds at least the requested number of transactions.
import fs from 'node:fs';
import path from 'node:path';
import { startDevnet, type Devnet } from '../lib/devnet';
import { createTrafficGenerator } from '../lib/devnet/genesis';

const SEED = 'atlas-bench';

/** `shards`: basechain shards of the recorded devnet (DEVNET_SHARDS; a directory records one shard count). */
export async function recordChain(dataDir: string, targetTx: number, shards = 1): Promise<Devnet> {
  const open = () => startDevnet({ dataDir, seed: SEED, blockMs: 0, tps: 0, traffic: false, adnlPort: 0, shards });
  const devnet = await open();
  const metaFile = path.join(dataDir, 'bench-chain.json');
  let transactions = fs.existsSync(metaFile) ? (JSON.parse(fs.readFileSync(metaFile, 'utf8')) as { transactions: number }).transactions : 0;
  if (transactions >= targetTx) {
    console.log(`bench: recorded chain has ${transactions} transactions in ${devnet.chain.lastSeqno} rounds`);
    return devnet;
  }
  const traffic = createTrafficGenerator(devnet.chain, devnet.genesisAccounts, { seed: `${SEED}:${transactions}`, tps: 150 });
  const t0 = Date.now();
  while (transactions < targetTx) {
    await traffic.step();
    const round = await devnet.chain.seal();
    transactions += round.txs.length;
    if (round.seqno % 20 === 0) console.log(`bench: recording chain: ${transactions}/${targetTx} transactions, round ${round.seqno}`);
  }
  fs.writeFileSync(metaFile, JSON.stringify({ transactions }));
  console.log(`bench: recorded ${transactions} transactions in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  // Reopened from disk, so the benchmarks that follow measure the chain as every later run serves it,
  // not a process still carrying the recording's heap (it halved the indexing rate measured right after).
  await devnet.close();
  return open();
}
