import { beginCell, Cell, Dictionary } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { MODES, type Mode } from '../../../testing/api';

let chain: TestChain;
const library = beginCell().storeUint(0xc0ffee, 24).storeRef(beginCell().storeUint(7, 8)).endCell();

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v2-config', rounds: 1 });
  // A library the chain serves (what a contract's library cell would point at).
  const libs = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  libs.set(library.hash(), library);
  chain.devnet.chain.blockchain.libs = beginCell().storeDictDirect(libs).endCell();
});
afterAll(() => chain?.close());

type Obj = Record<string, unknown> & { [k: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function ok(mode: Mode, method: string, params: Record<string, unknown>): Promise<Obj> {
  const r = await chain.callV2(mode, method, params);
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ ok: true });
  return r.body.result as Obj;
}

async function fails(mode: Mode, method: string, params: Record<string, unknown>, code: number, message: RegExp) {
  const r = await chain.callV2(mode, method, params);
  expect(r.status, JSON.stringify(r.body)).toBe(code);
  expect(r.body).toMatchObject({ ok: false, code });
  expect(r.body.error).toMatch(message);
}

const chainConfig = () => Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), chain.devnet.chain.blockchain.config);

describe.each(MODES)('configuration over %s', (mode) => {
  it("getConfigAll is the chain's configuration dictionary", async () => {
    const r = await ok(mode, 'getConfigAll', {});
    expect(r['@type']).toBe('configInfo');
    expect(r.config['@type']).toBe('tvm.cell');
    expect(Cell.fromBase64(r.config.bytes).hash()).toEqual(chain.devnet.chain.blockchain.config.hash());
    const old = await ok(mode, 'getConfigAll', { seqno: 1 });
    expect(old.config.bytes).toBe(r.config.bytes);
  });

  it('getConfigParam gives one parameter, by `param` or legacy `config_id`', async () => {
    const config = chainConfig();
    for (const id of [0, 1, 8, 12, 20, 34]) {
      const r = await ok(mode, 'getConfigParam', { param: id });
      expect(r).toMatchObject({ '@type': 'configInfo', config: { '@type': 'tvm.cell' } });
      expect(Cell.fromBase64(r.config.bytes).hash(), `param ${id}`).toEqual(config.get(id)!.hash());
    }
    const legacy = await ok(mode, 'getConfigParam', { config_id: 8, seqno: 1 });
    expect(Cell.fromBase64(legacy.config.bytes).hash()).toEqual(config.get(8)!.hash());
  });

  it('getConfigParam errors', async () => {
    await fails(mode, 'getConfigParam', {}, 422, /exactly one of param and config_id/);
    await fails(mode, 'getConfigParam', { param: 1, config_id: 1 }, 422, /exactly one of param and config_id/);
    await fails(mode, 'getConfigParam', { param: 'x' }, 422, /param: expected a config parameter number/);
    await fails(mode, 'getConfigParam', { param: 1, seqno: 0 }, 422, /seqno/);
    await fails(mode, 'getConfigParam', { param: 9999 }, 404, /config parameter 9999 is not set/);
    await fails(mode, 'getConfigParam', { param: 1, seqno: chain.devnet.chain.lastSeqno + 10000 }, 500, /LITE_SERVER/);
  });

  it('getLibraries: known hashes answer their cell, unknown ones are left out', async () => {
    const hex = library.hash().toString('hex');
    const r = await ok(mode, 'getLibraries', { libraries: [hex, 'ab'.repeat(32), library.hash().toString('base64')] });
    expect(r).toEqual({
      '@type': 'smc.libraryResult',
      result: [{ '@type': 'smc.libraryEntry', hash: library.hash().toString('base64'), data: expect.any(String) }],
    });
    expect(Cell.fromBase64(r.result[0].data).equals(library)).toBe(true);
    expect(await ok(mode, 'getLibraries', {})).toEqual({ '@type': 'smc.libraryResult', result: [] });
    await fails(mode, 'getLibraries', { libraries: ['nope'] }, 422, /invalid hash/);
  });
});
