// The configuration the derive stage's get-methods run with: the mainnet configuration without its
// validator sets, every other parameter untouched. That the derived tables still equal get-methods run
// with the whole configuration is verify.test.ts (index:verify derives with fullConfig).
import { describe, expect, it } from 'vitest';
import { loadConfigDict } from '../../ton/config';
import { fixtureRoot } from '../../testing/fixtures';
import { gettersConfig } from './getters';

describe('gettersConfig', () => {
  it('drops the validator sets of the mainnet configuration and keeps every other parameter as it is', () => {
    const full = fixtureRoot('config_mainnet.boc');
    const slim = gettersConfig(full);
    const before = loadConfigDict(full);
    const after = loadConfigDict(slim);
    expect([...before.keys()].filter((k) => !after.has(k)).sort((a, b) => a - b)).toEqual([32, 34, 36]);
    for (const k of after.keys()) expect(after.get(k)!.hash()).toEqual(before.get(k)!.hash());
    // The prices and limits TVM unpacks into c7 stay.
    for (const k of [18, 19, 20, 21, 24, 25, 43].filter((k) => before.has(k))) expect(after.has(k)).toBe(true);
    expect(slim.toBoc().length).toBeLessThan(full.toBoc().length / 5);
  });
});
