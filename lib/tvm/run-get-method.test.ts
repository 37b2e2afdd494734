// runGetMethodRaw hands the job's BoCs to the emulator as they came; it must answer exactly what
// @ton/sandbox's Executor.runGetMethod answers for the same job (stack, exit code, gas, VM log), with
// and without arguments, for a failing method and with a VM log asked for.
import { Address, beginCell, Cell, parseTuple, serializeTuple, type TupleItem } from '@ton/core';
import { Executor, type ExecutorVerbosity } from '@ton/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { jettonMinterCode, jettonMinterInit, jettonWalletCode } from '../devnet/contracts/jetton';
import { methodId } from '../ton/contract-methods';
import { fixtureRoot } from '../testing/fixtures';
import type { GetMethodJob } from './jobs';
import { runGetMethodRaw } from './run-get-method';

let ex: Executor;
beforeAll(async () => {
  ex = await Executor.create();
});

const config = fixtureRoot('config_mainnet.boc').toBoc().toString('base64');
const owner = Address.parseRaw('0:' + '11'.repeat(32));
const minter = jettonMinterInit(owner, { name: 'Test', symbol: 'TST', decimals: 9, description: 'a test jetton', image: '' });
const walletData = beginCell().storeCoins(12345n).storeAddress(owner).storeAddress(minter.address).storeRef(jettonWalletCode()).endCell();

/** The emulator's log lines carry the time they were written. */
const withoutTimes = <T extends { logs: string }>(r: T): T => ({ ...r, logs: r.logs.replace(/\[\d{4}-\d\d-\d\d [\d:.]+\]/g, '[time]') });

function both(code: Cell, data: Cell, method: string, stack: TupleItem[], verbosity: ExecutorVerbosity = 'short') {
  const address = Address.parseRaw('0:' + '22'.repeat(32));
  const job: GetMethodJob = {
    kind: 'get',
    code: code.toBoc().toString('base64'),
    data: data.toBoc().toString('base64'),
    methodId: methodId(method),
    stack: stack.length ? serializeTuple(stack).toBoc().toString('base64') : '',
    config,
    address: address.toRawString(),
    unixTime: 1_700_000_000,
    balance: 10n ** 9n,
    gasLimit: 1_000_000n,
    verbosity,
  };
  const raw = runGetMethodRaw(ex, job);
  return ex
    .runGetMethod({ code, data, methodId: job.methodId, stack, config, verbosity, address, unixTime: job.unixTime, balance: job.balance, randomSeed: Buffer.alloc(32), gasLimit: job.gasLimit, debugEnabled: false })
    .then((viaCells) => ({ raw: withoutTimes(raw), viaCells: withoutTimes(viaCells) }));
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
