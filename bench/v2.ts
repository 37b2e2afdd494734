// /api/v2 overhead: the same reads through the v2 handlers (callV2: parameter parsing, the lite call,
// response shaping, JSON) and directly with ton-lite-client, on the same devnet engine, the lite cache
// off. v2's own memo of immutable work (get-method runs by block and account state) stays on; a second
// runGetMethod row measures the run without it.
import { Address } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { clearGetMethodRuns } from '../lib/chain/get-method';
import { testApi } from '../lib/testing/api';
import type { Devnet } from '../lib/devnet';
import { latencyRows, quantile, type BenchResult } from './support';

const N = 300;

/**
 * The two calls alternately, `n` times each after a warm-up: load from elsewhere on the machine (it is
 * shared) then falls on both alike instead of on whichever ran during a busy spell. Throughput counts
 * each call's own time.
 */
async function sampleBoth(n: number, viaApi: () => Promise<unknown>, direct: () => Promise<unknown>) {
  const times = { api: [] as number[], raw: [] as number[] };
  const timed = async (fn: () => Promise<unknown>, into: number[] | null) => {
    const t = performance.now();
    await fn();
    into?.push(performance.now() - t);
  };
  for (let i = 0; i < n + 20; i++) {
    const warm = i < 20; // caches and JIT
    await timed(viaApi, warm ? null : times.api);
    await timed(direct, warm ? null : times.raw);
  }
  const stats = (v: number[]) => {
    const total = v.reduce((a, b) => a + b, 0) / 1000;
    return { p50: quantile(v, 0.5, 3), p99: quantile(v, 0.99, 3), rps: +(v.length / total).toFixed(0) };
  };
  return { api: stats(times.api), raw: stats(times.raw) };
}

export async function benchV2(lite: LiteClient, devnet: Devnet): Promise<BenchResult[]> {
  const { callV2 } = testApi({ lite });
  const wallet = devnet.genesisAccounts.find((a) => a.name === 'alice')!;
  const addr = Address.parseRaw(wallet.address);
  const ok = (r: { status: number }) => {
    if (r.status !== 200) throw new Error(`bench request failed with ${r.status}`);
  };
  const head = async () => (await lite.getMasterchainInfo()).last;
  const out: BenchResult[] = [];
  const pair = async (name: string, viaApi: () => Promise<unknown>, direct: () => Promise<unknown>) => {
    const { api, raw } = await sampleBoth(N, viaApi, direct);
    out.push(...latencyRows(`v2 ${name}`, api), ...latencyRows(`lite-client ${name}`, raw));
    out.push({ name: `v2 ${name} overhead p50`, value: +(api.p50 - raw.p50).toFixed(3), unit: 'ms', note: 'target ≤ 1 ms' });
  };
  await pair(
    'getAddressInformation',
    async () => ok(await callV2('get', 'getAddressInformation', { address: wallet.address })),
    async () => lite.getAccountState(addr, await head()),
  );
  await pair(
    'runGetMethod seqno',
    async () => ok(await callV2('post', 'runGetMethod', { address: wallet.address, method: 'seqno', stack: [] })),
    async () => lite.runMethod(addr, 'seqno', Buffer.alloc(0), await head()),
  );
  // The same, each run on a fresh TVM pass (the finished-run cache emptied first): what a get-method
  // costs the first time it is asked for at a block. Most of it is the emulator reading the config.
  await pair(
    'runGetMethod seqno, first run at its block',
    async () => {
      clearGetMethodRuns();
      ok(await callV2('post', 'runGetMethod', { address: wallet.address, method: 'seqno', stack: [] }));
    },
    async () => lite.runMethod(addr, 'seqno', Buffer.alloc(0), await head()),
  );
  await pair(
    'getTransactions limit 10',
    async () => ok(await callV2('get', 'getTransactions', { address: wallet.address, limit: 10 })),
    async () => {
      const st = await lite.getAccountState(addr, await head());
      const last = st.lastTx!;
      return lite.getAccountTransactions(addr, last.lt.toString(), Buffer.from(last.hash.toString(16).padStart(64, '0'), 'hex'), 10);
    },
  );
  return out;
}
