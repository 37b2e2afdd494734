// The devnet's own numbers: sustained throughput (traffic executed and sealed into blocks, transactions/s)
// on a fresh chain of one basechain shard and of four (DEVNET_SHARDS=4: messages between shards wait in
// queues and run in the next round), and getAccountState / runSmcMethod latency over its ADNL lite
// server, as any TON client sees it (ton-lite-client through Atlas's pool; caches off).
import { Address } from '@ton/core';
import { startDevnet } from '../lib/devnet';
import { createTrafficGenerator } from '../lib/devnet/genesis';
import { rmDir, tempDir } from '../lib/testing/devnet';
import { createLiteClient } from '../lib/lite';
import { latencyRows, sample, type BenchResult } from './support';

/** Traffic at 300 messages a round, executed and sealed, on a devnet of `shards` basechain shards (timed once they all exist). */
async function throughput(shards: number, rounds: number): Promise<BenchResult> {
  const dir = tempDir('atlas-bench-devnet-');
  const devnet = await startDevnet({ dataDir: dir, seed: 'atlas-bench-devnet', blockMs: 0, tps: 0, traffic: false, adnlPort: 0, shards });
  try {
    while (devnet.chain.shardTops().length < shards) await devnet.chain.seal();
    const traffic = createTrafficGenerator(devnet.chain, devnet.genesisAccounts, { seed: 'atlas-bench-devnet', tps: 300 });
    let txs = 0;
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) {
      await traffic.step();
      txs += (await devnet.chain.seal()).txs.length;
    }
    const s = (performance.now() - t0) / 1000;
    const name = `devnet sustained throughput, ${shards} shard${shards > 1 ? 's' : ''}`;
    return { name, value: +(txs / s).toFixed(0), unit: 'tx/s', note: `${txs} transactions in ${rounds} rounds, ${s.toFixed(1)} s (target ≥ 300)` };
  } finally {
    await devnet.close();
    rmDir(dir);
  }
}

export async function benchDevnet(rounds: number): Promise<BenchResult[]> {
  const out: BenchResult[] = [await throughput(1, rounds), await throughput(4, rounds)];
  const dir = tempDir('atlas-bench-devnet-');
  const devnet = await startDevnet({ dataDir: dir, seed: 'atlas-bench-devnet', blockMs: 0, tps: 0, traffic: false, adnlPort: 0 });
  try {

    const client = createLiteClient(
      { kind: 'servers', servers: [{ host: devnet.adnl.host, port: devnet.adnl.port, publicKey: devnet.adnl.publicKey }] },
      { cache: false },
    );
    try {
      const alice = Address.parseRaw(devnet.genesisAccounts.find((a) => a.name === 'alice')!.address);
      const head = (await client.getMasterchainInfo()).last;
      out.push(...latencyRows('ADNL getAccountState', await sample(300, () => client.getAccountState(alice, head)), 'target p50 ≤ 2 ms'));
      out.push(...latencyRows('ADNL runSmcMethod seqno', await sample(300, () => client.runMethod(alice, 'seqno', Buffer.alloc(0), head)), 'target p50 ≤ 2 ms'));
    } finally {
      client.engine.close();
    }
    return out;
  } finally {
    await devnet.close();
    rmDir(dir);
  }
}
