// In the isolated 'ton-core-patches' project (vitest.config.ts): this file starts with @ton/core unpatched.
// Opening and running a devnet must leave it so — the fast paths are installed by process entry points
// only (lib/ton/fast-core.ts), never as a side effect of constructing a chain.
import { createRequire } from 'node:module';
import { toNano } from '@ton/core';
import { afterAll, describe, expect, it } from 'vitest';
import { openScenario, rmDir, signedTransfer, type Scenario } from '../testing/devnet';
import { installFastTonCore } from './fast-core';

const require = createRequire(import.meta.url);
const internals = () => ({
  sha256: (require('@ton/crypto/dist/primitives/sha256') as { sha256_sync: unknown }).sha256_sync,
  wonders: (require('@ton/core/dist/boc/cell/wonderCalculator') as { wonderCalculator: unknown }).wonderCalculator,
});

describe('@ton/core fast paths are installed by entry points only', () => {
  let s: Scenario | undefined;
  afterAll(async () => {
    await s?.chain.close();
    if (s) rmDir(s.dir);
  });

  it('opening a devnet and sealing rounds leaves @ton/core as it was; installFastTonCore() changes it', async () => {
    const original = internals();
    s = await openScenario();
    await s.chain.sendExternal(await signedTransfer(s.faucet, [{ to: s.wallets.alice.address, value: toNano(1), body: 'hi' }]));
    await s.chain.seal();
    expect(internals()).toEqual(original);

    expect(installFastTonCore()).toEqual({ paddedBits: true, cellHash: true, bitReader: true, bitBuilder: true, bocWriter: true });
    const patched = internals();
    expect(patched.sha256).not.toBe(original.sha256);
    expect(patched.wonders).not.toBe(original.wonders);
  });
});
