// The server side of `npm run bench -- --only stream`, in a process of its own (its memory is what is
// measured): an indexed devnet whose pipeline publishes to the Streaming API, behind the HTTP edge. Driven
// by lines on stdin: `rss` → `rss <bytes>` (settled, after full collections), `round <n>` → n transfers sent through
// sendBoc, the round sealed and indexed → `committed <norm> <ms> <ms>` for each finalized trace (when its
// database transaction committed, when its event was published), then `done`. Prints `listening <url>` when ready.
import { Address, toNano } from '@ton/core';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { unlimitedAccess } from '../lib/auth/access';
import { parseConfig } from '../lib/config';
import { createAtlasServer } from '../lib/server/server';
import { log } from '../lib/log';
import { installFastTonCore } from '../lib/ton/fast-core';
import { memoryBus } from '../lib/stream/bus';
import { streamGateway } from '../lib/stream/gateway';
import { StreamHub } from '../lib/stream/hub';
import { messageBoc, signedTransfer } from '../lib/testing/devnet';
import { startStreamChain } from '../lib/testing/stream';
import { genesisWallet } from '../lib/testing/wallets';

const gc = (globalThis as { gc?: () => void }).gc;

/** RSS once it stops moving: after full collections, sampled until four samples in a row agree within 512 KB. */
async function settledRss(): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 40; i++) {
    for (let j = 0; j < 3; j++) gc?.();
    samples.push(process.memoryUsage().rss);
    const last = samples.slice(-4);
    if (last.length === 4 && Math.max(...last) - Math.min(...last) < 512 * 1024) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return samples.at(-1)!;
}

/**
 * `--lean`: only what holds the streams (the HTTP edge, the gateway, a hub on a bus), as an API process
 * that serves streams next to a separate indexer: the memory an idle stream costs, without a chain and
 * an embedded database moving the process's RSS by tens of megabytes on their own.
 */
async function lean() {
  const config = parseConfig({ STREAM_MAX_CONNECTIONS_PER_IP: '100000' });
  const hub = new StreamHub({ limits: config.stream, log });
  memoryBus(log).subscribe((e) => hub.dispatch(e));
  const edge = createAtlasServer({ config, handle: (_req, res) => res.writeHead(404).end(), log, streams: streamGateway({ hub, config, access: async () => unlimitedAccess, log }) });
  await new Promise<void>((resolve) => edge.server.listen(0, '127.0.0.1', resolve));
  console.log(`listening http://127.0.0.1:${(edge.server.address() as AddressInfo).port} -`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'rss') console.log(`rss ${await settledRss()}`);
    if (line === 'quit') break;
  }
  hub.close();
  await edge.close();
  process.exit(0);
}

async function main() {
  const s = await startStreamChain({ seed: 'atlas-bench-stream' });
  // When each finalized trace's database transaction committed, and when its event reached the bus
  // (before the served hub's fan-out: this listener is the first the bus calls).
  s.bus.subscribe((e) => {
    if (e.kind === 'trace' && e.finality === 'finalized') console.log(`committed ${e.norm} ${e.at} ${Date.now()}`);
  });
  const server = await s.serve({ STREAM_MAX_CONNECTIONS_PER_IP: '100000', RATE_LIMIT_ANON_RPS: '1000000' });
  const alice = await genesisWallet(s.chain, 'alice');
  const bob = Address.parse(s.chain.account('bob').address);
  console.log(`listening ${server.url} ${alice.address.toRawString().toUpperCase()}`);
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    const [cmd, arg] = line.split(' ');
    if (cmd === 'rss') {
      console.log(`rss ${await settledRss()}`);
    } else if (cmd === 'round') {
      for (let i = 0; i < Number(arg); i++) {
        const msg = await signedTransfer(alice, [{ to: bob, value: toNano('0.001'), body: `bench ${i}` }]);
        await s.chain.callV2('post', 'sendBoc', { boc: messageBoc(msg).toString('base64') });
      }
      await s.sealAndIndex();
      console.log('done');
    } else if (cmd === 'quit') break;
  }
  await server.close();
  await s.close();
  process.exit(0);
}

installFastTonCore(); // this process's entry point: it runs a devnet, as `npm start` does
await (process.argv.includes('--lean') ? lean() : main());
