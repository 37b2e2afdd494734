import { Address, beginCell, Cell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { methodIdOf } from '../../../chain/get-method';
import { type Mode } from '../../../testing/api';

let chain: TestChain;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v2-run-method', rounds: 1 });
});
afterAll(() => chain?.close());

const raw = (name: string) => chain.account(name).address;
const addressBoc = (name: string) => beginCell().storeAddress(Address.parse(raw(name))).endCell().toBoc().toString('base64');
type Obj = Record<string, unknown> & { [k: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function run(mode: Mode, params: Record<string, unknown>, method = 'runGetMethod'): Promise<Obj> {
  const r = await chain.callV2(mode, method, params);
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ ok: true });
  expect(r.status).toBe(200);
  return r.body.result as Obj;
}

async function fails(mode: Mode, params: Record<string, unknown>, code: number, message: RegExp, method = 'runGetMethod') {
  const r = await chain.callV2(mode, method, params);
  expect(r.status, JSON.stringify(r.body)).toBe(code);
  expect(r.body).toMatchObject({ ok: false, code });
  expect(r.body.error).toMatch(message);
}

const cellOf = (entry: unknown) => {
  expect(entry).toMatchObject(['cell', { bytes: expect.any(String), object: { data: { b64: expect.any(String), len: expect.any(Number) } } }]);
  return Cell.fromBase64((entry as [string, { bytes: string }])[1].bytes);
};

describe.each(['post', 'rpc'] as const)('run get-method over %s', (mode) => {
  it('a wallet seqno, by name, numeric id or numeric string, at the latest block', async () => {
    const info = await chain.callV2(mode, 'getWalletInformation', { address: raw('bob') });
    const seqno = (info.body.result as Obj).seqno as number;
    const byName = await run(mode, { address: raw('bob'), method: 'seqno', stack: [] });
    expect(byName).toMatchObject({ '@type': 'smc.runResult', exit_code: 0, stack: [['num', `0x${seqno.toString(16)}`]] });
    // The method ran in the TVM here: a wallet's seqno getter costs a few hundred gas.
    expect(byName.gas_used).toBeGreaterThan(100);
    expect(byName.gas_used).toBeLessThan(10_000);
    expect(byName.block_id).toMatchObject({ '@type': 'ton.blockIdExt', workchain: -1, seqno: chain.devnet.chain.lastSeqno });
    expect(byName.last_transaction_id).toEqual((info.body.result as Obj).last_transaction_id);
    const id = Number(methodIdOf('seqno'));
    expect((await run(mode, { address: raw('bob'), method: id, stack: [] })).stack).toEqual(byName.stack);
    expect((await run(mode, { address: raw('bob'), method: String(id), stack: [] })).stack).toEqual(byName.stack);
  });

  it('runs at an older masterchain block with seqno', async () => {
    const r = await run(mode, { address: raw('alice'), method: 'seqno', stack: [], seqno: 1 });
    expect(r.block_id.seqno).toBe(1);
    expect(r.exit_code).toBe(0);
  });

  it("jetton master get_wallet_address with an address argument gives alice's jetton wallet", async () => {
    for (const arg of [
      ['tvm.Slice', addressBoc('alice')],
      ['slice', { bytes: addressBoc('alice') }],
    ]) {
      const r = await run(mode, { address: raw('jetton_minter'), method: 'get_wallet_address', stack: [arg] });
      expect(r.exit_code).toBe(0);
      expect(r.stack).toHaveLength(1);
      expect(cellOf(r.stack[0]).beginParse().loadAddress().toRawString()).toBe(raw('alice_jetton'));
    }
  });

  it('a repeated call answers for its own arguments and block (finished runs are reused only when they match)', async () => {
    const owners = ['alice', 'bob', 'alice', 'carol', 'bob'];
    for (const owner of owners) {
      const r = await run(mode, { address: raw('jetton_minter'), method: 'get_wallet_address', stack: [['tvm.Slice', addressBoc(owner)]] });
      const wallet = cellOf(r.stack[0]).beginParse().loadAddress().toRawString();
      expect(wallet).toBe(raw(`${owner}_jetton`));
    }
    const latest = await run(mode, { address: raw('alice'), method: 'seqno', stack: [] });
    const first = await run(mode, { address: raw('alice'), method: 'seqno', stack: [], seqno: 1 });
    const again = await run(mode, { address: raw('alice'), method: 'seqno', stack: [] });
    expect(first.block_id.seqno).toBe(1);
    expect(again).toEqual(latest);
    const seqnoAt = (r: Obj) => BigInt(r.stack[0][1]);
    // A wallet's seqno only grows: block 1's answer is its own, not the latest one's reused.
    expect(seqnoAt(first)).toBeLessThanOrEqual(seqnoAt(latest));
  });

  it('get_jetton_data: numbers as 0x hex (negative with -0x), cells with their object form', async () => {
    const r = await run(mode, { address: raw('jetton_minter'), method: 'get_jetton_data', stack: [] });
    expect(r.stack).toHaveLength(5);
    const token = await chain.callV2(mode, 'getTokenData', { address: raw('jetton_minter') });
    expect(r.stack[0]).toEqual(['num', `0x${BigInt((token.body.result as Obj).total_supply).toString(16)}`]);
    expect(r.stack[1]).toEqual(['num', '-0x1']);
    const admin = cellOf(r.stack[2]);
    expect(admin.beginParse().loadAddress().toRawString()).toBe(raw('admin'));
    expect(r.stack[2][1].object).toEqual({ data: { b64: expect.any(String), len: 267 }, refs: [], special: false });
    const content = cellOf(r.stack[3]);
    expect(r.stack[3][1].object.refs.length).toBe(content.refs.length);
    expect(cellOf(r.stack[4]).toBoc().toString('base64')).toBe((token.body.result as Obj).jetton_wallet_code);
  });

  it('runGetMethodStd answers typed entries', async () => {
    const r = await run(mode, { address: raw('jetton_minter'), method: 'get_jetton_data', stack: [] }, 'runGetMethodStd');
    expect(Object.keys(r).sort()).toEqual(['@type', 'exit_code', 'gas_used', 'stack']);
    expect(r.gas_used).toBeGreaterThan(0);
    expect(r.stack[1]).toEqual({ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '-1' } });
    expect(r.stack[2]).toMatchObject({ '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice' } });
    expect(r.stack[3]).toMatchObject({ '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell' } });
    const typedArg = { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: addressBoc('bob') } };
    const w = await run(mode, { address: raw('jetton_minter'), method: 'get_wallet_address', stack: [typedArg] }, 'runGetMethodStd');
    expect(Cell.fromBase64(w.stack[0].slice.bytes).beginParse().loadAddress().toRawString()).toBe(raw('bob_jetton'));
  });

  it('numbers and cells as arguments: the collection builds an item content', async () => {
    const individual = beginCell().storeStringTail('7.json').endCell().toBoc().toString('base64');
    for (const n of [['num', 7], ['int', '7'], ['number', '0x7']]) {
      const r = await run(mode, { address: raw('nft_collection'), method: 'get_nft_content', stack: [n, ['tvm.Cell', individual]] });
      const c = cellOf(r.stack[0]).beginParse();
      expect(c.loadUint(8)).toBe(1);
      expect(c.loadStringTail()).toBe('https://atlas.devnet/nft/7.json');
    }
  });

  it('a null result is an empty list', async () => {
    const self = beginCell().storeUint(0, 8).endCell().toBoc().toString('base64');
    const r = await run(mode, { address: raw('dns_collection'), method: 'dnsresolve', stack: [['tvm.Slice', self], ['num', 0]] });
    expect(r.stack).toEqual([['num', '0x8'], ['list', { '@type': 'tvm.list', elements: [] }]]);
  });

  it('a failing method is still 200, with its exit code', async () => {
    const r = await run(mode, { address: raw('alice'), method: 'no_such_method', stack: [] });
    // 11: the method dictionary has no such id.
    expect(r.exit_code).toBe(11);
    const uninit = await run(mode, { address: raw('uninit_receiver'), method: 'seqno', stack: [] });
    expect(uninit).toMatchObject({ exit_code: -13, stack: [], gas_used: 0 });
  });

  it.each([
    ['no address', { method: 'seqno', stack: [] }, 422, /address is required/],
    ['no method', { address: '0:' + '11'.repeat(32), stack: [] }, 422, /method is required/],
    ['no stack', { address: '0:' + '11'.repeat(32), method: 'seqno' }, 422, /stack is required/],
    ['an entry that is not a pair', { address: '0:' + '11'.repeat(32), method: 'seqno', stack: [['num']] }, 422, /stack\[0\]: expected \[type, value\]/],
    ['a bad number', { address: '0:' + '11'.repeat(32), method: 'seqno', stack: [['num', 'xyz']] }, 422, /stack\[0\]: expected an integer/],
    ['a bad BoC', { address: '0:' + '11'.repeat(32), method: 'seqno', stack: [['tvm.Cell', 'AAAA']] }, 422, /stack\[0\]: invalid BoC/],
    ['an empty BoC', { address: '0:' + '11'.repeat(32), method: 'seqno', stack: [['tvm.Slice', '']] }, 422, /stack\[0\]: expected a base64 BoC/],
    ['an unknown entry type', { address: '0:' + '11'.repeat(32), method: 'seqno', stack: [['float', 1]] }, 542, /Unsupported stack entry type: float/],
    ['seqno 0', { address: '0:' + '11'.repeat(32), method: 'seqno', stack: [], seqno: 0 }, 422, /seqno/],
  ])('%s', async (_, params, code, message) => {
    await fails(mode, params, code, message);
  });

  it('a method id outside 32 bits is 422', async () => {
    await fails(mode, { address: raw('alice'), method: '99999999999', stack: [] }, 422, /method id 99999999999 is outside the 32-bit range/);
  });

  it('a future seqno is a lite server error (500)', async () => {
    await fails(mode, { address: raw('alice'), method: 'seqno', stack: [], seqno: chain.devnet.chain.lastSeqno + 10000 }, 500, /LITE_SERVER/);
  });
});

it('runGetMethod is POST only', async () => {
  const r = await chain.callV2('get', 'runGetMethod', { address: '0:' + '11'.repeat(32), method: 'seqno' });
  expect(r.status).toBe(405);
  expect((await chain.callV2('get', 'runGetMethodStd', {})).status).toBe(405);
});
