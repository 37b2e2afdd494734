// Get-method runs as a TVM worker makes them (runGetMethodRaw), on mainnet's configuration: first on the
// configuration without its rarely read parameters (getter-config.ts: validator sets, suspended addresses,
// bridges), and on the whole one for comparison.
import { beginCell } from '@ton/core';
import { Executor } from '@ton/sandbox';
import { jettonWalletCode } from '../lib/devnet/contracts/jetton';
import { fixtureRoot } from '../lib/testing/fixtures';
import { getMethodJob } from '../lib/testing/tvm-jobs';
import { runGetMethodRaw } from '../lib/tvm/run-get-method';
import type { BenchResult } from './support';

export async function benchGetters(runs = 2000): Promise<BenchResult[]> {
  const ex = await Executor.create();
  const data = beginCell().storeCoins(10n ** 9n).storeAddress(null).storeAddress(null).storeRef(jettonWalletCode()).endCell();
  const config = fixtureRoot('config_mainnet.boc').toBoc().toString('base64');
  const job = getMethodJob({ code: jettonWalletCode(), data, method: 'get_wallet_data', config });
  const perRun = (slimFirst: boolean) => {
    for (let i = 0; i < 50; i++) runGetMethodRaw(ex, job, slimFirst); // warm up
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) runGetMethodRaw(ex, job, slimFirst);
    return (performance.now() - t0) / runs;
  };
  const whole = perRun(false);
  const slim = perRun(true);
  return [
    { name: 'get_wallet_data on mainnet config', value: +slim.toFixed(3), unit: 'ms/run', note: `${runs} runs on one core; ${whole.toFixed(3)} ms with the whole configuration parsed each run` },
  ];
}
