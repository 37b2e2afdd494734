import { Cell, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { loadGlobalVersion } from './block-info';
import { configDictCell, loadConfigDict, loadConfigParams, loadWorkchains, storeConfigParams, workchainsCell } from './config';
import { fixtureRoot } from '../testing/fixtures';

describe('ConfigParams', () => {
  it('config_46991999.boc: ConfigParams with every parameter as a cell', () => {
    const root = fixtureRoot('config_46991999.boc');
    expect(root.hash().toString('hex')).toBe('7387cdffe272d6b17bf25efd2c4119e1fbe6aa7637b9bec70b874fc7c2eedb1b');
    const params = loadConfigParams(root.beginParse());
    expect(params.configAddress).toBe(BigInt('0x' + '5'.repeat(64)));
    const ids = [...params.config.keys()].sort((a, b) => a - b);
    // Keys are int32: mainnet has negative (non-standard) parameters too.
    expect(ids).toEqual([
      -999, -71, 0, 1, 2, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 21, 22, 23, 24, 25, 28, 29, 31, 32, 34,
      44, 45, 71, 72, 79,
    ]);
    for (const id of ids) expect(params.config.get(id)).toBeInstanceOf(Cell);
    // Param 0 repeats the config address; 1 is the elector; 8 the network's global version,
    // which lags the software version the block headers report (gen_software 10).
    expect(params.config.get(0)!.beginParse().loadUintBig(256)).toBe(params.configAddress);
    expect(params.config.get(1)!.beginParse().loadUintBig(256)).toBe(BigInt('0x' + '3'.repeat(64)));
    expect(loadGlobalVersion(params.config.get(8)!.beginParse())).toEqual({ version: 9, capabilities: 494n });
    // validators#11/12 tag of the current validator set, not decoded further.
    expect([0x11, 0x12]).toContain(params.config.get(34)!.beginParse().loadUint(8));
    expect(beginCell().store(storeConfigParams(params)).endCell().hash()).toEqual(root.hash());
  });

  it('config_mainnet.boc: a bare Hashmap 32 ^Cell', () => {
    const root = fixtureRoot('config_mainnet.boc');
    const dict = loadConfigDict(root);
    const ids = [...dict.keys()].sort((a, b) => a - b);
    expect(ids).toEqual([
      -1000, -999, -90, -71, 0, 1, 2, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 28,
      29, 30, 31, 32, 34, 36, 44, 45, 71, 72, 79,
    ]);
    for (const id of ids) expect(dict.get(id)).toBeInstanceOf(Cell);
    expect(dict.get(1)!.beginParse().loadUintBig(256)).toBe(BigInt('0x' + '3'.repeat(64)));
    const gv = loadGlobalVersion(dict.get(8)!.beginParse());
    expect(gv.version).toBeGreaterThanOrEqual(10);
    expect(configDictCell(dict).hash()).toEqual(root.hash());
  });
});

describe('ConfigParam 12 (workchains)', () => {
  it('reads mainnet\'s basechain description (workchain and workchain_v2) and writes it back bit for bit', () => {
    const recent = loadConfigDict(fixtureRoot('config_mainnet.boc')).get(12)!;
    const older = loadConfigParams(fixtureRoot('config_46991999.boc').beginParse()).config.get(12)!;
    const base = loadWorkchains(recent).get(0)!;
    expect(base).toMatchObject({ minSplit: 0, maxSplit: 4, basic: true, active: true, acceptMsgs: true });
    expect(base.v2?.timings).toEqual({ splitMergeDelay: 100, splitMergeInterval: 100, minSplitMergeInterval: 30, maxSplitMergeDelay: 1000 });
    // Masterchain block 46991999's configuration still had workchain#a6 and kept at least four shards.
    expect(loadWorkchains(older).get(0)).toMatchObject({ minSplit: 2, maxSplit: 4, monitorMinSplit: 2 });
    expect(loadWorkchains(older).get(0)?.v2).toBeUndefined();
    for (const p12 of [recent, older]) expect(workchainsCell(loadWorkchains(p12)).hash().toString('hex')).toBe(p12.hash().toString('hex'));
  });
});
