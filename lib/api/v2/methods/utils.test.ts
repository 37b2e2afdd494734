import { describe, expect, it } from 'vitest';
import { MODES, testApi } from '../../../testing/api';

// Address and hash utilities need no chain and no database.
const api = testApi({});

const RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const RAW_UPPER = `0:${RAW.slice(2).toUpperCase()}`;
const BOUNCEABLE = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
const NON_BOUNCEABLE = 'UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI';

describe.each(MODES)('utils over %s', (mode) => {
  it('detectAddress gives every form of an address', async () => {
    const r = await api.callV2(mode, 'detectAddress', { address: NON_BOUNCEABLE });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-api-version')).toMatch(/^2\.2\.\d+$/);
    expect(r.body.ok).toBe(true);
    expect(r.body.result).toEqual({
      '@type': 'ext.utils.detectedAddress',
      raw_form: RAW,
      bounceable: { '@type': 'ext.utils.detectedAddressVariant', b64: BOUNCEABLE, b64url: BOUNCEABLE },
      non_bounceable: { '@type': 'ext.utils.detectedAddressVariant', b64: NON_BOUNCEABLE, b64url: NON_BOUNCEABLE },
      given_type: 'friendly_non_bounceable',
      test_only: false,
    });
    if (mode === 'rpc') expect(r.body).toMatchObject({ jsonrpc: '2.0', id: 1 });
  });

  it('detectAddress tells raw input apart', async () => {
    const r = await api.callV2(mode, 'detectAddress', { address: RAW_UPPER });
    expect(r.body.result).toMatchObject({ raw_form: RAW, given_type: 'raw_form', test_only: false });
  });

  it('packAddress and unpackAddress convert both ways', async () => {
    expect((await api.callV2(mode, 'packAddress', { address: RAW })).body.result).toBe(BOUNCEABLE);
    expect((await api.callV2(mode, 'packAddress', { address: NON_BOUNCEABLE })).body.result).toBe(NON_BOUNCEABLE);
    expect((await api.callV2(mode, 'unpackAddress', { address: BOUNCEABLE })).body.result).toBe(RAW_UPPER);
  });

  it('detectHash gives base64, unpadded url-safe base64 and hex', async () => {
    const hex = 'fb'.repeat(32);
    const r = await api.callV2(mode, 'detectHash', { hash: hex });
    expect(r.body.result).toEqual({
      '@type': 'ext.utils.detectedHash',
      b64: Buffer.from(hex, 'hex').toString('base64'),
      b64url: Buffer.from(hex, 'hex').toString('base64url'),
      hex,
    });
    expect(String((r.body.result as { b64url: string }).b64url)).toHaveLength(43);
  });

  it.each([
    ['missing address', 'detectAddress', {}, /address is required/],
    ['invalid address', 'packAddress', { address: 'invalid' }, /invalid address "invalid"/],
    ['empty address', 'unpackAddress', { address: '' }, /invalid address/],
    ['bad hash', 'detectHash', { hash: 'abc' }, /invalid hash/],
  ])('422 for %s, with the same status in every mode', async (_, method, params, message) => {
    const r = await api.callV2(mode, method, params);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ ok: false, code: 422 });
    expect(r.body.error).toMatch(message);
  });

  it(mode === 'rpc' ? "422 `Unknown method` for an unknown method, as ton-http-api's JSON-RPC answers" : '404 for an unknown method', async () => {
    const r = await api.callV2(mode, 'noSuchMethod', {});
    if (mode === 'rpc') {
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ ok: false, code: 422, error: 'Unknown method', jsonrpc: '2.0', id: 1 });
    } else {
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ ok: false, code: 404, error: 'Not Found' });
    }
  });
});

describe('call-mode rules', () => {
  it('POST bodies are closed: unknown keys are 422, api_key is ignored', async () => {
    const bad = await api.callV2('post', 'packAddress', { address: RAW, extra: 1 });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/unknown field extra/);
    expect((await api.callV2('post', 'packAddress', { address: RAW, api_key: 'k' })).status).toBe(200);
  });

  it('GET ignores unknown keys', async () => {
    expect((await api.callV2('get', 'packAddress', { address: RAW, extra: 1, api_key: 'k' })).status).toBe(200);
  });

  it('malformed JSON is 422 in both POST and JSON-RPC', async () => {
    for (const mode of ['post', 'rpc'] as const) {
      const r = await api.callV2(mode, 'packAddress', {}, '{"address":');
      expect(r.status).toBe(422);
      expect(r.body.error).toMatch(/invalid JSON/);
    }
  });

  it('JSON-RPC: params must be an object; [] means none; id is echoed', async () => {
    const arr = await api.callV2('rpc', 'x', {}, JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'packAddress', params: [RAW] }));
    expect(arr.status).toBe(422);
    expect(arr.body).toMatchObject({ error: 'params must contain an object', id: 'a', jsonrpc: '2.0' });
    const empty = await api.callV2('rpc', 'x', {}, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'packAddress', params: [] }));
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ error: 'failed to validate request: address is required', id: 7 });
  });
});
