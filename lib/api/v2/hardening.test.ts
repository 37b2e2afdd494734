// Input that used to end in a 500 (or in a wrong answer) is a 4xx naming what is wrong, in every call
// mode: REST GET, REST POST and JSON-RPC answer with the same status.
import { Address, beginCell, Cell, storeMessage } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODES, type Mode } from '../../testing/api';
import { startTestChain, type TestChain } from '../../testing/chain';

let chain: TestChain;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v2-hardening', rounds: 1 });
}, 60_000);
afterAll(() => chain?.close());

const MC_SHARD = '-9223372036854775808';
const raw = (name: string) => chain.account(name).address;

async function refused(mode: Mode, method: string, params: Record<string, unknown>, code: number, message: RegExp) {
  const r = await chain.callV2(mode, method, params);
  expect(r.status, `${method} ${JSON.stringify(params).slice(0, 200)}: ${JSON.stringify(r.body)}`).toBe(code);
  expect(r.body).toMatchObject({ ok: false, code });
  expect(r.body.error).toMatch(message);
}

describe.each(MODES)('v2 hardening over %s', (mode) => {
  it('lookupBlock by unixtime 0 answers as for any time before the first block', async () => {
    const r0 = await chain.callV2(mode, 'lookupBlock', { workchain: -1, shard: MC_SHARD, unixtime: 0 });
    const r1 = await chain.callV2(mode, 'lookupBlock', { workchain: -1, shard: MC_SHARD, unixtime: 1 });
    expect(r0.status, JSON.stringify(r0.body)).toBe(r1.status);
    expect(r0.body.ok).toBe(r1.body.ok);
    expect(r0.body.result).toEqual(r1.body.result);
  });

  it('block routes refuse shard 0 and workchains that do not exist', async () => {
    await refused(mode, 'getBlockHeader', { workchain: -1, shard: 0, seqno: 1 }, 422, /shard 0 is not a shard id/);
    await refused(mode, 'lookupBlock', { workchain: 0, shard: '0', seqno: 1 }, 422, /shard 0 is not a shard id/);
    await refused(mode, 'getBlockHeader', { workchain: 5, shard: MC_SHARD, seqno: 1 }, 422, /workchain does not exist/);
    await refused(mode, 'lookupBlock', { workchain: 5, shard: MC_SHARD, seqno: 1 }, 422, /workchain does not exist/);
    // The masterchain has one shard: any other is the client's mistake, on every block route.
    for (const [method, extra] of [['lookupBlock', { unixtime: 1704067200 }], ['getBlockHeader', { seqno: 1 }], ['getBlockTransactions', { seqno: 1 }], ['getShardBlockProof', { seqno: 1 }]] as const) {
      await refused(mode, method, { workchain: -1, shard: '4611686018427387904', ...extra }, 422, /shard: the masterchain has one shard, -9223372036854775808 \(0x8000000000000000\); got 4611686018427387904/);
    }
    // A tag bit below bit 3 is a prefix deeper than 60 bits: no chain has such a shard (fuzz found a 500 here).
    for (const shard of [1, '9007199254740993', '-9223372036854775807']) {
      await refused(mode, 'getBlockTransactionsExt', { workchain: 0, shard, seqno: 1 }, 422, /not a shard id: its prefix is deeper than 60 bits/);
    }
  });

  it('addresses in a workchain that does not exist are 422', async () => {
    for (const wc of ['5', '-2']) {
      await refused(mode, 'getAddressBalance', { address: `${wc}:${'11'.repeat(32)}` }, 422, /workchain -?\d+ does not exist/);
    }
    await refused(mode, 'getAddressBalance', { address: `2147483648:${'11'.repeat(32)}` }, 422, /invalid address/);
  });

  it('getConfigParam param=-1 is 422', async () => {
    await refused(mode, 'getConfigParam', { param: -1 }, 422, /config parameter number/);
  });

  it('getBlockHeader with hashes of no block is an error, never another block', async () => {
    const good = await chain.callV2(mode, 'getBlockHeader', { workchain: -1, shard: MC_SHARD, seqno: 1 });
    const id = (good.body.result as { id: { root_hash: string; file_hash: string } }).id;
    const wrong = Buffer.alloc(32, 7).toString('base64');
    for (const hashes of [
      { root_hash: id.root_hash, file_hash: wrong },
      { root_hash: wrong, file_hash: id.file_hash },
    ]) {
      await refused(mode, 'getBlockHeader', { workchain: -1, shard: MC_SHARD, seqno: 1, ...hashes }, 422, /block \(-1,-9223372036854775808,1\) with root_hash .* does not exist/);
    }
  });

  it('account routes at seqno 2147483647 (no such block yet) answer the documented liteserver error, not an internal one', async () => {
    // api-v2.md: a seqno from the future is toncenter's 500 LITE_SERVER_UNKNOWN, with the liteserver's reason.
    for (const method of ['getAddressBalance', 'getAddressInformation', 'getWalletInformation']) {
      await refused(mode, method, { address: raw('alice'), seqno: 2147483647 }, 500, /^LITE_SERVER_UNKNOWN: .*block not found/);
    }
  });
});

describe.each(['post', 'rpc'] as const)('v2 sending hardening over %s', (mode) => {
  it('sendBoc with a BoC that is not an external message is 422, as sendBocReturnHash', async () => {
    const notExternal = beginCell()
      .store(storeMessage({ info: { type: 'internal', ihrDisabled: true, bounce: false, bounced: false, src: Address.parse(raw('alice')), dest: Address.parse(raw('bob')), value: { coins: 1n }, ihrFee: 0n, forwardFee: 0n, createdLt: 0n, createdAt: 0 }, body: beginCell().endCell() }))
      .endCell()
      .toBoc()
      .toString('base64');
    const plain = beginCell().storeUint(1, 8).endCell().toBoc().toString('base64');
    for (const boc of [notExternal, plain]) {
      await refused(mode, 'sendBoc', { boc }, 422, /not an external inbound message/);
      await refused(mode, 'sendBocReturnHash', { boc }, 422, /not an external inbound message/);
    }
  });

  it('BoCs past the limits are 422 naming the limit', async () => {
    const big = Buffer.concat([Buffer.from('b5ee9c72', 'hex'), Buffer.alloc(70_000)]).toString('base64');
    await refused(mode, 'sendBoc', { boc: big }, 422, /70004 bytes; at most 65536 are allowed/);
    let deep = beginCell().endCell();
    for (let i = 0; i < 600; i++) deep = beginCell().storeRef(deep).endCell();
    await refused(mode, 'sendBoc', { boc: deep.toBoc().toString('base64') }, 422, /600 cells deep; at most 512 are allowed/);
    // The emulator traps on cells past ~300 deep: what it is given is held to LIMITS.emulatedCellDepth.
    let deepForEmulator = beginCell().endCell();
    for (let i = 0; i < 300; i++) deepForEmulator = beginCell().storeRef(deepForEmulator).endCell();
    await refused(mode, 'estimateFee', { address: raw('alice'), body: deepForEmulator.toBoc().toString('base64') }, 422, /300 cells deep; at most 256 are allowed/);
    const many = Array.from({ length: 5000 }, (_, i) => beginCell().storeUint(i, 16).endCell());
    let wide: Cell = beginCell().endCell();
    for (let i = 0; i < many.length; i += 4) wide = beginCell().storeRef(many[i]!).storeRef(many[i + 1]!).storeRef(many[i + 2]!).storeRef(wide).endCell();
    await refused(mode, 'sendBocReturnHash', { boc: wide.toBoc().toString('base64') }, 422, /cells; at most 4096 are allowed/);
  });
});

describe('JSON-RPC ids', () => {
  it('an id beyond 2^53 is echoed digit for digit', async () => {
    const id = '123456789012345678901234567890';
    for (const method of ['getMasterchainInfo', 'noSuchMethod']) {
      const res = await chain.fetch(
        new Request('http://atlas.test/api/v2/jsonRPC', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":{}}`,
        }),
      );
      expect(res.status).toBeLessThan(500);
      const text = await res.text();
      expect(text).toContain(`"id":${id}`);
    }
  });
});
