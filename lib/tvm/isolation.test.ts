// The TVM pool keeps hostile get-method input away from the emulator and the process: inputs past the
// limits are refused before anything runs, a result that would expand exponentially is refused, and a
// worker that dies mid-run, overruns its deadline or finds the queue full costs that one request —
// afterwards get-methods, getTokenData and estimateFee work as before.
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApi } from '../testing/api';
import { startTestChain, type TestChain } from '../testing/chain';
import { createTestDatabase } from '../testing/database';
import { signedTransfer, type TestWallet } from '../testing/devnet';
import { genesisWallet } from '../testing/wallets';
import { accountAt } from '../chain/account-state';
import { runGetMethodOn } from '../chain/get-method';
import { TvmPool } from './pool';

let chain: TestChain;
let alice: TestWallet;
/** A signed transfer from alice, never sent: its fee estimate is asked for after each test. */
let transferBody: Cell;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'tvm-isolation', rounds: 1 });
  alice = await genesisWallet(chain, 'alice');
  transferBody = (await signedTransfer(alice, [{ to: Address.parse(raw('bob')), value: toNano('0.1') }])).body;
}, 60_000);
afterAll(() => chain?.close());

const raw = (name: string) => chain.account(name).address;
const boc = (c: Cell) => c.toBoc().toString('base64');

/** 60 levels, each cell referring to the one below four times: 61 cells, 4^60 paths. */
function dagCell(): Cell {
  let c = beginCell().storeUint(7, 8).endCell();
  for (let i = 0; i < 60; i++) c = beginCell().storeUint(i, 8).storeRef(c).storeRef(c).storeRef(c).storeRef(c).endCell();
  return c;
}

function chainCell(depth: number): Cell {
  let c = beginCell().endCell();
  for (let i = 0; i < depth; i++) c = beginCell().storeRef(c).endCell();
  return c;
}

function nestedTuple(depth: number): unknown {
  let t: unknown = { '@type': 'tvm.stackEntryNumber', number: { number: '1' } };
  for (let i = 0; i < depth; i++) t = { '@type': 'tvm.stackEntryTuple', tuple: { elements: [t] } };
  return t;
}

/** The normal work that must keep going after whatever the test did. */
async function stillWorks(mode: 'post' | 'rpc') {
  const seqno = await chain.callV2(mode, 'runGetMethod', { address: raw('alice'), method: 'seqno', stack: [] });
  expect(seqno.body, JSON.stringify(seqno.body)).toMatchObject({ ok: true, result: { exit_code: 0 } });
  const token = await chain.callV2(mode, 'getTokenData', { address: raw('jetton_minter') });
  expect(token.body, JSON.stringify(token.body)).toMatchObject({ ok: true, result: { contract_type: 'jetton_master' } });
  const fee = await chain.callV2(mode, 'estimateFee', { address: alice.address.toRawString(), body: boc(transferBody) });
  expect(fee.body, JSON.stringify(fee.body)).toMatchObject({ ok: true, result: { '@type': 'query.fees' } });
}

describe.each(['post', 'rpc'] as const)('hostile get-method input over %s', (mode) => {
  const refused = async (params: Record<string, unknown>, message: RegExp, method = 'runGetMethod') => {
    const r = await chain.callV2(mode, method, { address: raw('alice'), method: 'seqno', ...params });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(422);
    expect(r.body).toMatchObject({ ok: false, code: 422 });
    expect(r.body.error).toMatch(message);
  };

  it('refuses oversized, deeply nested and out-of-range stacks, naming the limit, and keeps working', async () => {
    const restarts = chain.tvm.status().restarts;
    // 100,000 entries do not even fit in a request body (LIMITS.bodyBytes); 10,000 do, and are refused unread.
    const huge = await chain.callV2(mode, 'runGetMethod', { address: raw('alice'), method: 'seqno', stack: Array.from({ length: 100_000 }, () => ['num', '1']) });
    expect(huge.status).toBe(413);
    await refused({ stack: Array.from({ length: 10_000 }, () => ['num', '1']) }, /stack has 10000 entries; at most 256 are allowed/);
    await refused({ stack: Array.from({ length: 400 }, () => ['num', '1']) }, /stack has 400 entries; at most 256 are allowed/);
    await refused({ stack: [nestedTuple(1000)] }, /nested 65 deep; at most 64 levels are allowed/, 'runGetMethodStd');
    await refused({ stack: [['tvm.Cell', boc(chainCell(1000))]] }, /1000 cells deep; at most 256 are allowed/);
    await refused({ stack: [['num', '0x' + 'f'.repeat(80)]] }, /does not fit in 257 bits/);
    await refused({ stack: [['num', '9'.repeat(100_000)]] }, /at most 100 are allowed/);
    // Inside tuples the entries count too.
    const wide = { '@type': 'tvm.stackEntryTuple', tuple: { elements: Array.from({ length: 300 }, () => nestedTuple(0)) } };
    await refused({ stack: [wide] }, /more than 256 entries/, 'runGetMethodStd');
    // None of it reached a worker.
    expect(chain.tvm.status()).toMatchObject({ state: 'ok', restarts, queued: 0 });
    await stillWorks(mode);
  });

  it('a result cell shared along 4^60 paths is refused in the legacy object form, answered as a BoC by runGetMethodStd', async () => {
    const dag = dagCell();
    const stack = [['num', '1'], ['tvm.Cell', boc(dag)]];
    const legacy = await chain.callV2(mode, 'runGetMethod', { address: raw('dns_collection'), method: 'get_nft_content', stack });
    expect(legacy.status, JSON.stringify(legacy.body).slice(0, 300)).toBe(422);
    expect(legacy.body.error).toMatch(/more than 10000 cells .* at most 10000 are allowed/);
    const typedStack = [
      { '@type': 'tvm.stackEntryNumber', number: { number: '1' } },
      { '@type': 'tvm.stackEntryCell', cell: { bytes: boc(dag) } },
    ];
    const std = await chain.callV2(mode, 'runGetMethodStd', { address: raw('dns_collection'), method: 'get_nft_content', stack: typedStack });
    expect(std.body, JSON.stringify(std.body).slice(0, 300)).toMatchObject({ ok: true, result: { exit_code: 0 } });
    const out = (std.body.result as { stack: { cell: { bytes: string } }[] }).stack[0]!;
    expect(Cell.fromBase64(out.cell.bytes).hash()).toEqual(dag.hash());
    await stillWorks(mode);
  });
});

describe('worker failures', () => {
  it('a 511-deep cell, which overflowed the stock emulator\'s stack, runs without a crash', async () => {
    // The API holds stack cells to LIMITS.emulatedCellDepth. Given directly to the pool, a 511-deep cell (a
    // message may be that deep) overflowed the stock build's 64 KiB stack and trapped it; it runs now (emulator.ts).
    const before = chain.tvm.status().restarts;
    const acc = await accountAt(chain.lite, Address.parse(raw('alice')));
    const run = await runGetMethodOn(chain.lite, chain.tvm, acc, 'seqno', [{ type: 'cell', cell: chainCell(511) }]);
    expect(run.exitCode).toBe(0);
    expect(chain.tvm.status()).toMatchObject({ state: 'ok', restarts: before });
    await stillWorks('post');
  });

  it('a worker killed mid-run fails that request only; a fresh worker answers the next', async () => {
    const before = chain.tvm.status().restarts;
    chain.tvm.terminateOnNextRun();
    // A stack of its own so the run is not one the get-method cache already holds.
    const r = await chain.callV2('post', 'runGetMethod', { address: raw('dns_collection'), method: 'get_nft_content', stack: [['num', '77'], ['tvm.Cell', boc(chainCell(3))]] });
    // A crash is the run's doing as far as the pool can tell: 422 in words, never a bare 500.
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.error).toMatch(/^the TVM worker running this get-method failed: exited/);
    const status = chain.tvm.status();
    expect(status).toMatchObject({ state: 'ok', restarts: before + 1, busy: 0, queued: 0 });
    expect(status.lastFailure?.reason).toMatch(/TVM worker running this get-method failed/);
    await stillWorks('post');
  });

  it('reports itself degraded after three failures in a row, and ok again once a run finishes', async () => {
    const before = chain.tvm.status().restarts;
    // Three contracts: three crashes of one would put it in backoff (refused before a worker runs it).
    for (const [i, name] of ['wallet_v3r2', 'wallet_v4r2', 'wallet_v5r1'].entries()) {
      chain.tvm.terminateOnNextRun();
      const r = await chain.callV2('post', 'runGetMethod', { address: raw(name), method: 'seqno', stack: [['num', String(90 + i)]] });
      expect(r.status, JSON.stringify(r.body)).toBe(422);
    }
    expect(chain.tvm.status()).toMatchObject({ state: 'degraded', restarts: before + 3, lastFailure: { reason: expect.stringMatching(/TVM worker running this get-method failed/) } });
    await stillWorks('post');
    expect(chain.tvm.status()).toMatchObject({ state: 'ok', restarts: before + 3 });
  });

  it('a run past its deadline is 504 naming the budget, and the worker is replaced', async () => {
    const tvm = new TvmPool({ deadlineMs: 1 });
    const api = testApi({ lite: chain.lite, tvm });
    try {
      const r = await api.callV2('rpc', 'runGetMethod', { address: raw('dns_collection'), method: 'get_nft_content', stack: [['num', '78'], ['tvm.Cell', boc(chainCell(4))]] });
      expect(r.status, JSON.stringify(r.body)).toBe(504);
      expect(r.body).toMatchObject({ ok: false, code: 504, error: 'get-method exceeded its 1 ms budget' });
      expect(tvm.status()).toMatchObject({ state: 'ok', restarts: 1, workers: 0, lastFailure: { reason: 'get-method exceeded its 1 ms budget' } });
    } finally {
      await api.close();
    }
  });

  it('a full queue is 503 with Retry-After, before anything runs', async () => {
    const tvm = new TvmPool({ queue: 0 });
    const db = await createTestDatabase(); // v3's routes are built with a database, though this one reads none
    const api = testApi({ lite: chain.lite, tvm, db: db.db });
    try {
      const r = await api.callV2('post', 'estimateFee', { address: raw('alice'), body: boc(beginCell().endCell()) });
      expect(r.status, JSON.stringify(r.body)).toBe(503);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.body.error).toMatch(/the TVM is busy/);
      // v3's live estimateFee runs the same code and keeps the status and the header.
      const v3 = await api.postV3('estimateFee', { address: raw('alice'), body: boc(beginCell().endCell()) });
      expect(v3.status, v3.text).toBe(503);
      expect(v3.headers.get('retry-after')).toBe('1');
      expect(tvm.status()).toMatchObject({ state: 'ok', restarts: 0, workers: 0 });
    } finally {
      await api.close();
      await db.drop();
    }
  });
});
