/**
 * The ledger of lite reads (provenance.ts) on a real devnet lite server: work is `proven` only when it
 * read something and every read, cache hits included, was of a function the verifier checks.
 */
import { toNano } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnetLiteHandler } from '../devnet/lite-handler';
import { InProcessLiteEngine } from '../devnet/transport/in-process-engine';
import { openScenario, rmDir, signedTransfer, type Scenario } from '../testing/devnet';
import { createLiteClient } from './client';
import { withLiteReads } from './provenance';

let s: Scenario;

beforeAll(async () => {
  s = await openScenario({ seed: 'lite-provenance' });
  await s.chain.sendExternal(await signedTransfer(s.faucet, [{ to: s.wallets.alice.address, value: toNano(1) }]));
  await s.chain.seal();
});

afterAll(async () => {
  await s.chain.close();
  rmDir(s.dir);
});

function client(verify: boolean): LiteClient {
  const zero = s.chain.identity!.zeroState.masterchain;
  const engine = new InProcessLiteEngine(createDevnetLiteHandler(s.chain));
  return createLiteClient({ kind: 'engine', engine, anchor: { seqno: 0, rootHash: zero.rootHash, fileHash: zero.fileHash } }, { verify });
}

const readAlice = (c: LiteClient) => async () => {
  const last = (await c.getMasterchainInfo()).last;
  return (await c.getAccountState(s.wallets.alice.address, last)).balance.coins;
};

describe('withLiteReads', () => {
  it('proves work that read only checked answers through a verifying client, from the cache too', async () => {
    const c = client(true);
    const first = await withLiteReads(readAlice(c));
    expect(first.proven).toBe(true);
    expect(first.value).toBeGreaterThan(0n);
    expect(await withLiteReads(readAlice(c))).toEqual({ value: first.value, proven: true });
    c.engine.close();
  });

  it('does not prove work that also read an unchecked answer, read nothing, or read through a client that does not verify', async () => {
    const c = client(true);
    const withConfig = await withLiteReads(async () => {
      await readAlice(c)();
      return c.getConfig((await c.getMasterchainInfo()).last);
    });
    expect(withConfig.proven).toBe(false);
    expect((await withLiteReads(async () => 1)).proven).toBe(false);
    const plain = client(false);
    expect((await withLiteReads(readAlice(plain))).proven).toBe(false);
    // concurrent work keeps its own ledger
    const [a, b] = await Promise.all([withLiteReads(readAlice(c)), withLiteReads(readAlice(plain))]);
    expect([a.proven, b.proven]).toEqual([true, false]);
    c.engine.close();
    plain.engine.close();
  });
});
