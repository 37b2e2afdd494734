// The devnet takes external messages as a validator does and survives any of them. A 511-deep external
// and DAG-shaped ones sent through /api/v2/sendBoc over real HTTP (what made the emulator trap and every
// later message fail, signed transfers included) are run on their account and refused by it, as on the
// real chain; what a validator would not take at all (too deep, too large, too many cells, not an
// external, a workchain that does not exist) is refused before the emulator sees it, with the
// validator's words. After each, a signed transfer is accepted and lands. An emulator that traps anyway
// is replaced, and health says so; a block producer that stops sealing makes health degraded.
import { Address, beginCell, Cell, external, storeMessage, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../testing/chain';
import { messageBoc, rmDir, signedTransfer, tempDir, type TestWallet } from '../testing/devnet';
import type { HttpTestServer } from '../testing/http-server';
import { chainCell, dagCell } from '../testing/hostile';
import { genesisWallet } from '../testing/wallets';
import { startDevnet } from './index';

let chain: TestChain;
let server: HttpTestServer;
let alice: TestWallet;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'devnet-hostile-externals', rounds: 1 });
  server = await chain.serve();
  alice = await genesisWallet(chain, 'alice');
}, 120_000);
afterAll(async () => {
  await server?.close();
  await chain?.close();
});

async function sendBoc(boc: Buffer) {
  const res = await fetch(`${server.url}/api/v2/sendBoc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc: boc.toString('base64') }) });
  return { status: res.status, body: (await res.json()) as { ok: boolean; error?: string; code?: number } };
}

const toAlice = (body: Cell) => messageBoc(external({ to: alice.address, body }));

/** An external to alice whose root is `depth` deep (its body, a chain of cells, is stored inline). */
function deepExternal(depth: number): Buffer {
  const boc = toAlice(chainCell(depth));
  expect(Cell.fromBoc(boc)[0]!.depth()).toBe(depth);
  return boc;
}

/** A binary tree of 2^(depth+1) - 1 distinct cells, each with `bytes` bytes of its own. */
function tree(depth: number, bytes: number, tag = 1): Cell {
  const b = beginCell().storeUint(tag, 16).storeBuffer(Buffer.alloc(bytes, tag % 251));
  return (depth === 0 ? b : b.storeRef(tree(depth - 1, bytes, tag * 2)).storeRef(tree(depth - 1, bytes, tag * 2 + 1))).endCell();
}

/** A signed transfer to bob over HTTP: accepted, and in the next block. */
async function transferLands() {
  const before = chain.devnet.chain.lastSeqno;
  const sent = await sendBoc(messageBoc(await signedTransfer(alice, [{ to: Address.parse(chain.account('bob').address), value: toNano('0.01') }])));
  expect(sent, JSON.stringify(sent.body)).toMatchObject({ status: 200, body: { ok: true } });
  await chain.seal();
  const state = await chain.lite.getAccountState(alice.address, (await chain.lite.getMasterchainInfo()).last);
  expect(chain.devnet.chain.lastSeqno).toBe(before + 1);
  expect(state.lastTx?.lt).toBeGreaterThan(0n);
  expect(await chain.lite.open(alice.contract).getSeqno()).toBe(alice.seqno);
}

describe('externals a validator would run', () => {
  it.each([
    ['a 511-deep external (the deepest a validator takes)', () => deepExternal(511)],
    ['a 500-level DAG, 4 refs a cell', () => toAlice(dagCell(500, 4))],
    ['a 60-level DAG, 4 refs a cell', () => toAlice(dagCell(60, 4))],
  ])('%s is run on the account and refused by it; a signed transfer lands right after', async (_, make) => {
    const r = await sendBoc(make());
    // toncenter's answer for a message the chain refuses (README: Fuzzing), with the executor's words.
    expect(r.status).toBe(500);
    expect(r.body.error).toMatch(/^LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message not accepted by smart contract \(exit code \d+\)$/);
    await transferLands();
    expect(chain.devnet.status()).toMatchObject({ state: 'ok', emulator: { roomyStack: true, replaced: 0 } });
  });
});

describe('externals a validator would not take', () => {
  const refusedWith = async (boc: Buffer, words: RegExp) => {
    await expect(chain.lite.sendMessage(boc)).rejects.toThrow(words);
    await transferLands();
  };

  it('a root 512 deep', () => refusedWith(deepExternal(512), /failed to parse external message: external message is too deep \(512; less than 512 is allowed\)/));

  it('more than 65535 bytes', async () => {
    const boc = toAlice(beginCell().storeRef(tree(9, 100)).endCell());
    expect(boc.length).toBeGreaterThan(65535);
    await refusedWith(boc, /external message too large \(\d+ bytes; at most 65535\)/);
  });

  it('more than 8192 cells besides its root', async () => {
    // A binary tree of 8191 distinct cells, plus a chain of 2: 8193 under the root (in 60 KB).
    const body = beginCell().storeRef(tree(12, 0)).storeRef(chainCell(2)).endCell();
    await refusedWith(toAlice(body), /inbound external message too large \(8193 cells, \d+ bits besides its root; at most 8192 cells, 2097152 bits\)/);
  });

  it('an internal message, and an external to a workchain that does not exist', async () => {
    const internalMessage = beginCell().store(storeMessage({ info: { type: 'internal', src: alice.address, dest: alice.address, value: { coins: 1n }, bounce: false, bounced: false, ihrDisabled: true, ihrFee: 0n, forwardFee: 0n, createdLt: 0n, createdAt: 0 }, body: beginCell().endCell() }));
    await refusedWith(internalMessage.endCell().toBoc(), /external message must begin with ext_in_msg_info\$10/);
    await refusedWith(messageBoc(external({ to: new Address(7, alice.address.hash), body: beginCell().endCell() })), /destination of an inbound external message is in workchain 7, which does not exist/);
  });
});

describe('an emulator that traps anyway', () => {
  it('fails that message only: the next runs on a fresh emulator, and health shows it', async () => {
    // A trap of the real emulator: its get-method entry handed pointers past its memory.
    const inner = chain.devnet.chain.blockchain.capturing.inner as unknown as { invoke(m: string, a: number[]): number };
    expect(() => inner.invoke('_run_get_method', [0x7ffffff0, 0x7ffffff0, 0x7ffffff0])).toThrow();
    await transferLands();
    const status = chain.devnet.status();
    expect(status).toMatchObject({ state: 'ok', emulator: { replaced: 1, lastFailure: { reason: expect.any(String) } } });
  });
});

describe('a block producer that stops sealing', () => {
  it('is reported degraded, saying since when and why', async () => {
    const dir = tempDir('atlas-producer-');
    const devnet = await startDevnet({ dataDir: dir, seed: 'producer-stuck', blockMs: 50, tps: 0, traffic: false, adnlPort: 0 });
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(devnet.status()).toMatchObject({ state: 'ok', producer: { failuresInRow: 0 } });
      // The chain closes under the producer: every seal fails from now on.
      await devnet.chain.close();
      await new Promise((r) => setTimeout(r, 300));
      expect(devnet.status().producer?.failuresInRow).toBeGreaterThan(0);
      // Ten seconds on (the least a producer is given), it is stuck.
      expect(devnet.status(Date.now() + 11_000)).toMatchObject({
        state: 'degraded',
        reason: expect.stringMatching(/^block producer: no block sealed for 1[12] s \(every 50 ms expected\); \d+ seals failed in a row, the last: /),
      });
    } finally {
      await devnet.close().catch(() => undefined);
      rmDir(dir);
    }
  });
});
