// Get-methods first run on the configuration without its validator sets (getter-config.ts). A run must
// answer exactly what it answers with the whole configuration — stack, exit code, gas, VM log — whether
// the method never looks at a validator set (the common case: then it runs once, on the smaller config)
// or reads one, reads one inside TRY, or hands one back (then it runs again with the whole config).
import { beginCell, Cell } from '@ton/core';
import { Executor } from '@ton/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { jettonWalletCode } from '../devnet/contracts/jetton';
import { loadConfigDict } from '../ton/config';
import { fixtureRoot } from '../testing/fixtures';
import { getMethodJob, viaExecutor, withoutTimes } from '../testing/tvm-jobs';
import { getterConfig, withoutValidatorSets } from './getter-config';
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
const PROBES: Record<string, Cell> = {
  'reads the current validator set (34)': code(READ_PARAM(34)),
  'reads gas prices (20)': code(READ_PARAM(20)),
  'hands the current validator set back': code('8022f833'),
  'asks whether param 37 is there': code('8025f8336e'), // PUSHINT 37 CONFIGOPTPARAM ISNULL
  'reads a validator set inside TRY, catching the failure': code(`97${READ_PARAM(34)}925b70f2ff`), // PUSHCONT{..} PUSHCONT{2DROP 0} TRY
  'throws 77': code('f2c04d'),
};

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

describe('the configuration without validator sets', () => {
  it('keeps every other parameter as it is and names each left-out set by its hash', () => {
    const whole = loadConfigDict(configCell);
    const slim = withoutValidatorSets(config)!;
    const cut = loadConfigDict(Cell.fromBase64(slim.config));
    expect(cut.keys().sort()).toEqual(whole.keys().sort());
    const sets = whole.keys().filter((k) => k >= 32 && k <= 37);
    expect(sets.length).toBeGreaterThan(0);
    for (const k of whole.keys()) {
      const kept = cut.get(k)!;
      if (!sets.includes(k)) expect(kept.hash().equals(whole.get(k)!.hash())).toBe(true);
      else {
        expect(kept.isExotic).toBe(true);
        expect(kept.bits.length).toBe(8 + 256);
        expect(slim.missing.has(whole.get(k)!.hash().toString('hex').toUpperCase())).toBe(true);
      }
    }
    expect(slim.config.length).toBeLessThan(config.length / 4);
  });

  it('is not made for a configuration without validator sets, nor for bytes that are not one', () => {
    const dict = loadConfigDict(configCell);
    for (const k of [32, 33, 34, 35, 36, 37]) dict.delete(k);
    const noSets = beginCell().storeDictDirect(dict).endCell().toBoc().toString('base64');
    expect(withoutValidatorSets(noSets)).toBeUndefined();
    expect(withoutValidatorSets(beginCell().storeUint(7, 8).endCell().toBoc().toString('base64'))).toBeUndefined();
    expect(withoutValidatorSets('not base64 at all')).toBeUndefined();
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

  for (const [name, c] of Object.entries(PROBES)) {
    it(`a method that ${name}`, async () => {
      const j = job(c, beginCell().endCell(), 0);
      const { result, lengths } = traced(j);
      expect(withoutTimes(result)).toEqual(await viaExecutor(ex, j));
      const reachesSets = /validator set/.test(name);
      // Reaching a validator set costs a second run with the whole configuration; failing otherwise does not.
      expect(lengths.length).toBe(reachesSets ? 2 : 1);
      if (reachesSets) expect(lengths[1]).toBe(config.length);
    });
  }

  it('the probes are what they say: with the smaller configuration alone, those reaching a set answer otherwise', async () => {
    const slim = getterConfig(config)!.config;
    for (const name of ['reads the current validator set (34)', 'hands the current validator set back', 'reads a validator set inside TRY, catching the failure']) {
      const j = job(PROBES[name], beginCell().endCell(), 0, slim);
      const cut = await viaExecutor(ex, j);
      const whole = await viaExecutor(ex, { ...j, config });
      expect(cut.output, name).not.toEqual(whole.output);
    }
  });
});
