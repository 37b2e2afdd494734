// runGetMethodRaw hands the job's BoCs to the emulator as they came; it must answer exactly what
// @ton/sandbox's Executor.runGetMethod answers for the same job (stack, exit code, gas, VM log), with
// and without arguments, for a failing method and with a VM log asked for.
import { Address, beginCell, Cell, parseTuple, type TupleItem } from '@ton/core';
import { Executor, type ExecutorVerbosity } from '@ton/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { jettonMinterCode, jettonMinterInit, jettonWalletCode } from '../devnet/contracts/jetton';
import { fixtureRoot } from '../testing/fixtures';
import { getMethodJob, viaExecutor, withoutTimes } from '../testing/tvm-jobs';
import { runGetMethodRaw } from './run-get-method';

let ex: Executor;
beforeAll(async () => {
  ex = await Executor.create();
});

const config = fixtureRoot('config_mainnet.boc').toBoc().toString('base64');
const owner = Address.parseRaw('0:' + '11'.repeat(32));
const minter = jettonMinterInit(owner, { name: 'Test', symbol: 'TST', decimals: 9, description: 'a test jetton', image: '' });
const walletData = beginCell().storeCoins(12345n).storeAddress(owner).storeAddress(minter.address).storeRef(jettonWalletCode()).endCell();

/** The job through runGetMethodRaw and through Executor.runGetMethod. */
async function both(code: Cell, data: Cell, method: string, stack: TupleItem[], verbosity: ExecutorVerbosity = 'short') {
  const job = getMethodJob({ code, data, method, stack, config, verbosity });
  return { raw: withoutTimes(runGetMethodRaw(ex, job)), viaCells: await viaExecutor(ex, job) };
}

describe('runGetMethodRaw', () => {
  it('answers get_wallet_data as Executor.runGetMethod does', async () => {
    const { raw, viaCells } = await both(jettonWalletCode(), walletData, 'get_wallet_data', []);
    expect(raw).toEqual(viaCells);
    expect(raw.output.success && parseTuple(Cell.fromBase64(raw.output.stack))[0]).toEqual({ type: 'int', value: 12345n });
  });

  it('passes a slice argument through (get_wallet_address of the minter)', async () => {
    const arg: TupleItem[] = [{ type: 'slice', cell: beginCell().storeAddress(owner).endCell() }];
    const { raw, viaCells } = await both(jettonMinterCode(), minter.init.data, 'get_wallet_address', arg);
    expect(raw).toEqual(viaCells);
    expect(raw.output.success && raw.output.vm_exit_code).toBe(0);
  });

  it('reports a method the code lacks, with its VM log, as Executor does', async () => {
    const { raw, viaCells } = await both(jettonWalletCode(), walletData, 'no_such_method', [], 'full');
    expect(raw).toEqual(viaCells);
    expect(raw.output.success && raw.output.vm_exit_code).toBe(11);
    expect(raw.output.success && raw.output.vm_log.length).toBeGreaterThan(0);
  });
});
