// Get-methods first run on the configuration without the large parameters they hardly ever read
// (getter-config.ts: validator sets, suspended addresses, bridges, …). A run must answer exactly what it
// answers with the whole configuration — stack, exit code, gas, VM log — whether the method never looks
// at a left-out parameter (the common case: then it runs once, on the smaller config) or reads one,
// reads one inside TRY, or hands one back (then it runs again with the whole config).
import { beginCell, Cell } from '@ton/core';
import { Executor } from '@ton/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { jettonWalletCode } from '../devnet/contracts/jetton';
import { configDictCell, loadConfigDict } from '../ton/config';
import { fixtureRoot } from '../testing/fixtures';
import { getMethodJob, viaExecutor, withoutTimes } from '../testing/tvm-jobs';
import { getterConfig, withoutLeftOut } from './getter-config';
import type { GetMethodJob } from './jobs';
import { runGetMethodRaw } from './run-get-method';

const configCell = fixtureRoot('config_mainnet.boc');
const config = configCell.toBoc().toString('base64');

let ex: Executor;
beforeAll(async () => {
  ex = await Executor.create();
});

// TVM code by hand (each starts with DROP: the method id the get-method call pushes).
const code = (hex: string) => beginCell().storeBuffer(Buffer.from('30' + hex, 'hex')).endCell();
const READ_PARAM = (n: number) => `80${n.toString(16).padStart(2, '0')}f833d0d749`; // PUSHINT n CONFIGOPTPARAM CTOS SBITS
// Each probe, and whether it reaches a left-out parameter (then it runs a second time, on the whole config).
const PROBES: Record<string, [Cell, boolean]> = {
  'reads the current validator set (34)': [code(READ_PARAM(34)), true],
  'reads the suspended addresses (44)': [code(READ_PARAM(44)), true],
  'reads gas prices (20)': [code(READ_PARAM(20)), false],
  'hands the current validator set back': [code('8022f833'), true],
  'asks whether param 37 is there': [code('8025f8336e'), false], // PUSHINT 37 CONFIGOPTPARAM ISNULL
  'reads a validator set inside TRY, catching the failure': [code(`97${READ_PARAM(34)}925b70f2ff`), true], // PUSHCONT{..} PUSHCONT{2DROP 0} TRY
  'throws 77': [code('f2c04d'), false],
};
// What the mainnet configuration of the fixture holds of getter-config.ts's LEFT_OUT.
const MAINNET_LEFT_OUT = [9, 10, 32, 34, 36, 44, 71, 72, 79];

const job = (c: Cell, data: Cell, method: string | number, cfg = config) => getMethodJob({ code: c, data, method, config: cfg, verbosity: 'full' });

/** The run through runGetMethodRaw, and the configs its emulator calls were handed (by length). */
function traced(j: GetMethodJob) {
  const lengths: number[] = [];
  const priv = ex as unknown as { invoke(m: string, args: unknown[]): number; module: { UTF8ToString(p: number): string } };
  const invoke = priv.invoke;
  priv.invoke = (m, args) => {
    const cfg = args[2];
    lengths.push(typeof cfg === 'number' ? priv.module.UTF8ToString(cfg).length : String(cfg).length);
    return invoke.call(ex, m, args);
  };
  try {
    return { result: runGetMethodRaw(ex, j), lengths };
  } finally {
    priv.invoke = invoke;
  }
}

describe('the configuration without the parameters get-methods hardly read', () => {
  it('keeps every other parameter as it is and names each left-out one by its hash', () => {
    const whole = loadConfigDict(configCell);
    const slim = withoutLeftOut(config)!;
    const cut = loadConfigDict(Cell.fromBase64(slim.config));
    expect(cut.keys().sort()).toEqual(whole.keys().sort());
    expect(cut.keys().filter((k) => cut.get(k)!.isExotic).sort((a, b) => a - b)).toEqual(MAINNET_LEFT_OUT);
    for (const k of whole.keys()) {
      const kept = cut.get(k)!;
      if (!MAINNET_LEFT_OUT.includes(k)) expect(kept.hash().equals(whole.get(k)!.hash())).toBe(true);
      else {
        expect(kept.isExotic).toBe(true);
        expect(kept.bits.length).toBe(8 + 256);
        expect(slim.missing.has(whole.get(k)!.hash().toString('hex').toUpperCase())).toBe(true);
      }
    }
    expect(slim.config.length).toBeLessThan(config.length / 15);
  });

  it('is not made for a configuration without any of them, nor for bytes that are not one', () => {
    const dict = loadConfigDict(configCell);
    for (const k of MAINNET_LEFT_OUT) dict.delete(k);
    const none = beginCell().storeDictDirect(dict).endCell().toBoc().toString('base64');
    expect(withoutLeftOut(none)).toBeUndefined();
    expect(withoutLeftOut(beginCell().storeUint(7, 8).endCell().toBoc().toString('base64'))).toBeUndefined();
    expect(withoutLeftOut('not base64 at all')).toBeUndefined();
    expect(getterConfig(config)).toBe(getterConfig(config)); // made once per configuration
  });
});

describe('a get-method run answers as with the whole configuration', () => {
  it('get_wallet_data: runs once, on the smaller configuration', async () => {
    const data = beginCell().storeCoins(777n).storeAddress(null).storeAddress(null).storeRef(jettonWalletCode()).endCell();
    const j = job(jettonWalletCode(), data, 'get_wallet_data');
    const { result, lengths } = traced(j);
    expect(lengths).toEqual([getterConfig(config)!.config.length]);
    expect(withoutTimes(result)).toEqual(await viaExecutor(ex, j));
  });

  for (const [name, [c, reaches]] of Object.entries(PROBES)) {
    it(`a method that ${name}`, async () => {
      const j = job(c, beginCell().endCell(), 0);
      const { result, lengths } = traced(j);
      expect(withoutTimes(result)).toEqual(await viaExecutor(ex, j));
      // Reaching a left-out parameter costs a second run with the whole configuration; failing otherwise does not.
      expect(lengths.length).toBe(reaches ? 2 : 1);
      if (reaches) expect(lengths[1]).toBe(config.length);
    });
  }

  it('the probes are what they say: with the smaller configuration alone, those reaching a left-out parameter answer otherwise', async () => {
    const slim = getterConfig(config)!.config;
    for (const [name, [c]] of Object.entries(PROBES).filter(([, [, reaches]]) => reaches)) {
      const j = job(c, beginCell().endCell(), 0, slim);
      const cut = await viaExecutor(ex, j);
      const whole = await viaExecutor(ex, { ...j, config });
      expect(cut.output, name).not.toEqual(whole.output);
    }
  });

  // The emulator parses some parameters itself to build a get-method's context, and a library cell in one
  // of those makes it throw (the worker is then replaced): none may be in the list. Checked one at a time,
  // and against one it does parse (gas prices, 20), so this test would see an emulator that reads more.
  it('the emulator runs get_wallet_data with any left-out parameter as a library cell, and throws for one it parses itself', async () => {
    const data = beginCell().storeCoins(5n).storeAddress(null).storeAddress(null).storeRef(jettonWalletCode()).endCell();
    const asLibrary = (param: number) => {
      const dict = loadConfigDict(configCell);
      dict.set(param, new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(dict.get(param)!.hash()).endCell().bits, refs: [] }));
      return job(jettonWalletCode(), data, 'get_wallet_data', configDictCell(dict).toBoc().toString('base64'));
    };
    for (const param of MAINNET_LEFT_OUT) {
      const out = await viaExecutor(ex, asLibrary(param));
      expect(out.output.success && out.output.vm_exit_code, `param ${param}`).toBe(0);
    }
    const spare = await Executor.create();
    await expect(viaExecutor(spare, asLibrary(20))).rejects.toBeDefined();
  });
});
