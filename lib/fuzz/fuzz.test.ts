import { describe, expect, it } from 'vitest';
import { v2OpenApi } from '../api/v2/openapi';
import { v3OpenApi } from '../api/v3/openapi';
import { hostileBocs, type Corpus } from './corpus';
import { generateCase, type FuzzCase } from './generate';
import { seededRng } from './rng';
import { fuzzRoutes, onlyRoutes, type OpenApiDoc } from './routes';
import { documented5xx, errorText, verdict } from './verdict';
import type { RawAnswer } from './client';
import { findingKey, replayCommand } from './run';

// The documents the running app serves at /api/v2/openapi.json and /api/v3/openapi.json.
const routes = fuzzRoutes({ v2: v2OpenApi() as unknown as OpenApiDoc, v3: v3OpenApi() as unknown as OpenApiDoc });

const h = (n: number) => Buffer.alloc(32, n).toString('base64');
const corpus: Corpus = {
  addresses: [`0:${'ab'.repeat(32)}`, `-1:${'33'.repeat(32)}`],
  txs: [
    { account: `0:${'ab'.repeat(32)}`, hash: h(1), lt: '1000', now: 1_700_000_000, msgHash: h(3) },
    { account: `-1:${'33'.repeat(32)}`, hash: h(2), lt: '2000', now: 1_700_000_005 },
  ],
  blocks: [{ workchain: -1, shard: '8000000000000000', seqno: 5, rootHash: h(4), fileHash: h(5) }],
  lastSeqno: 5,
  bodies: ['te6cckEBAQEAAgAAAEysuc0='],
  externals: [],
  hostileBocs: hostileBocs(),
};

const cases = (seed: string, n: number): FuzzCase[] => {
  const rng = seededRng(seed);
  return Array.from({ length: n }, () => generateCase(rng, routes, corpus));
};

describe('fuzz generator', () => {
  const sample = cases('unit', 6000);

  it('reaches every v2 method in each of its call modes and every v3 route', () => {
    const expected = [
      ...[...Object.entries(v2OpenApi().paths)]
        .filter(([p]) => p !== '/api/v2/jsonRPC')
        .flatMap(([p, ops]) => ('get' in (ops as object) ? ['get', 'post', 'rpc'] : ['post', 'rpc']).map((m) => `v2 ${m} ${p.slice(8)}`)),
      ...Object.entries(v3OpenApi().paths).flatMap(([p, ops]) => Object.keys(ops as object).map((m) => `v3 ${m} ${p.slice(8)}`)),
    ];
    expect(expected.length).toBeGreaterThan(100);
    expect(new Set(sample.map((c) => c.route))).toEqual(new Set(expected));
  });

  it('mixes valid, boundary and invalid requests, with every kind of mutation', () => {
    const flavors = new Set(sample.map((c) => c.flavor));
    expect(flavors).toEqual(new Set(['valid', 'boundary', 'invalid']));
    const notes = sample.map((c) => c.note);
    for (const m of ['wrong value', 'missing required', 'unknown param', 'repeated param', 'malformed body', 'content type', 'odd method', 'bad escape', 'path spelling', 'huge url', 'huge body', 'rpc envelope']) {
      expect(notes.some((n) => n.startsWith(m)), m).toBe(true);
    }
    expect(sample.some((c) => c.method === 'TRACE')).toBe(true);
    expect(sample.some((c) => /%ZZ/.test(c.target))).toBe(true);
    // Boundary integers reach past 32 and 64 bits, lists reach the 1,000-value limit and one more.
    expect(sample.some((c) => (c.body ?? c.target).includes(String(2n ** 63n)))).toBe(true);
    expect(sample.some((c) => c.note.endsWith('× 1001'))).toBe(true);
  });

  it('sends valid requests with the corpus values, in the route\'s own call mode', () => {
    const valid = sample.filter((c) => c.flavor === 'valid' && c.route === 'v2 rpc getTransactions');
    expect(valid.length).toBeGreaterThan(0);
    for (const c of valid) {
      expect(c.method).toBe('POST');
      expect(c.target).toBe('/api/v2/jsonRPC');
      const body = JSON.parse(c.body!);
      expect(body).toMatchObject({ jsonrpc: '2.0', method: 'getTransactions' });
      expect(corpus.addresses).toContain(body.params.address);
    }
    // Valid values of one request mostly belong together: the lt of a transaction of that address.
    const params = sample
      .filter((c) => c.flavor === 'valid' && c.body && /^v2 (post|rpc) /.test(c.route))
      .map((c) => (c.route.startsWith('v2 rpc') ? JSON.parse(c.body!).params : JSON.parse(c.body!)))
      .filter((p) => p.address !== undefined && p.lt !== undefined);
    expect(params.length).toBeGreaterThan(10);
    const matching = params.filter((p) => corpus.txs.some((t) => t.account === p.address && t.lt === p.lt));
    expect(matching.length / params.length).toBeGreaterThan(0.7);
    const v3 = sample.find((c) => c.flavor === 'valid' && c.route === 'v3 get transactionsByMasterchainBlock')!;
    expect(v3.method).toBe('GET');
    expect(v3.target).toMatch(/^\/api\/v3\/transactionsByMasterchainBlock(\?|$)/);
  });

  it('sends text a careless client would: lone surrogates as raw bytes in the query', () => {
    const withSurrogate = sample.find((c) => c.target.includes('%ED%A0%80'));
    expect(withSurrogate).toBeDefined();
  });

  it('keeps only the route classes --routes matches', () => {
    const only = onlyRoutes(routes, /^v2 (post|rpc) runGetMethod$/);
    const rng = seededRng('only');
    const classes = new Set(Array.from({ length: 200 }, () => generateCase(rng, only, corpus).route));
    expect(classes).toEqual(new Set(['v2 post runGetMethod', 'v2 rpc runGetMethod']));
  });

  it('is deterministic for a seed and differs between seeds', () => {
    expect(cases('same', 300)).toEqual(cases('same', 300));
    expect(cases('other', 300)).not.toEqual(cases('same', 300));
  });
});

describe('fuzz verdicts', () => {
  const answer = (status: number, body: unknown, ms = 10, headers: Record<string, string> = {}): RawAnswer => ({ status, body: JSON.stringify(body), ms, headers });

  it('accepts only the documented liteserver 5xx answers', () => {
    expect(verdict(answer(504, { ok: false, code: 504, error: 'LITE_SERVER_NETWORK timeout' }), 5000)).toBe('documented 5xx');
    expect(verdict(answer(500, { ok: false, code: 500, error: 'LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted' }), 5000)).toBe('documented 5xx');
    expect(verdict(answer(500, { ok: false, code: 500, error: 'LITE_SERVER_UNKNOWN: ltdb: block not found' }), 5000)).toBe('documented 5xx');
    expect(documented5xx(500, 'LITE_SERVER_UNKNOWN: block (-1,8000000000000000,1001) not found')).toBe(true);
    // Input mistakes passed on to the lite server are Atlas's to reject with 422.
    expect(documented5xx(500, 'LITE_SERVER_UNKNOWN: workchain 5 does not exist on the devnet')).toBe(false);
    expect(documented5xx(500, 'LITE_SERVER_UNKNOWN: cannot parse query: TL: need 4 bytes at offset 24, have 0')).toBe(false);
    expect(documented5xx(500, 'LITE_SERVER_UNKNOWN: cannot apply external message to current state : Index 0 > 0 is out of bounds')).toBe(false);
    expect(verdict(answer(504, { error: 'the request took longer than its 3000 ms budget (X-Timeout)' }), 5000)).toBe('documented 5xx');
    expect(verdict(answer(500, { ok: false, code: 500, error: 'internal server error (ref 1a2b3c4d)' }), 5000)).toBe('unexpected 5xx');
    expect(verdict({ status: 500, body: 'Internal Server Error', ms: 3, headers: {} }, 5000)).toBe('unexpected 5xx');
    expect(verdict(answer(503, { error: 'busy' }), 5000)).toBe('unexpected 5xx');
    expect(documented5xx(500, 'cannot apply external message to current state : External message not accepted by smart contract')).toBe(true);
    expect(documented5xx(542, 'Unsupported stack entry type: float')).toBe(true);
    expect(documented5xx(542, "LITE_SERVER_UNKNOWN: lt not in db: the liteservers no longer keep this block, transaction or state, and the index does not hold it")).toBe(true);
    expect(verdict(answer(504, { ok: false, code: 504, error: 'LITE_SERVER_NETWORK timeout (liteserver #0: not connected (connection refused))' }), 5000)).toBe('documented 5xx');
    expect(documented5xx(500, 'dnsresolve failed on 0:AB with exit code 11')).toBe(false);
    expect(documented5xx(502, 'LITE_SERVER_UNKNOWN: x')).toBe(false);
  });

  it('reads the error of an envelope cut short, and knows a body that is none', () => {
    const long = JSON.stringify({ ok: false, error: `invalid address "${'A'.repeat(9000)}"`, code: 422 }).slice(0, 4096);
    expect(errorText(long)).toMatch(/^invalid address "AAAA/);
    expect(errorText('Internal Server Error')).toBeUndefined();
    expect(errorText('{"ok":true,"result":{}}')).toBeUndefined();
  });

  it('counts rate limiting and load shedding as answers, and slow requests as hangs', () => {
    expect(verdict(answer(429, { error: 'rate limit' }), 5000)).toBe('limited');
    expect(verdict(answer(503, { error: 'overloaded' }, 5, { 'retry-after': '1' }), 5000)).toBe('limited');
    expect(verdict(answer(200, { ok: true }, 5001), 5000)).toBe('hang');
    expect(verdict({ status: 0, body: '', ms: 15000, headers: {}, error: 'deadline' }, 5000)).toBe('hang');
    expect(verdict({ status: 0, body: '', ms: 3, headers: {}, error: 'socket hang up' }, 5000)).toBe('no answer');
    expect(verdict(answer(422, { error: 'bad' }), 5000)).toBe('client error');
  });

  it('reports one finding per bug: a telling error once for every route, a bare one per route and change', () => {
    const at = (route: string, note: string, transport = false) => ({ route, note, transport });
    const wc = (n: number) => `LITE_SERVER_UNKNOWN: workchain ${n} does not exist on the devnet`;
    expect(findingKey(at('v2 get getTokenData', 'boundary address'), 500, wc(5))).toBe(findingKey(at('v3 get wallet', 'valid'), 500, wc(7)));
    const bare = 'internal server error (ref 1a2b3c4d)';
    expect(findingKey(at('v2 rpc estimateFee', 'valid'), 500, bare)).toBe(findingKey(at('v2 rpc estimateFee', 'valid'), 500, 'internal server error (ref 99999999)'));
    expect(findingKey(at('v2 rpc estimateFee', 'valid'), 500, bare)).not.toBe(findingKey(at('v2 rpc runGetMethod', 'valid'), 500, bare));
    expect(findingKey(at('v2 get shards', 'odd method TRACE', true), 500, 'Internal Server Error')).toBe(findingKey(at('v3 get blocks', 'odd method TRACE', true), 500, 'Internal Server Error'));
  });

  it('prints a replayable curl command', () => {
    const cmd = replayCommand('http://127.0.0.1:3000', { method: 'POST', target: "/api/v2/jsonRPC?x=%ZZ", headers: { 'content-type': 'application/json' }, body: `{"a":"it's"}` });
    expect(cmd).toBe(`curl -sS -i -X POST 'http://127.0.0.1:3000/api/v2/jsonRPC?x=%ZZ' -H 'content-type: application/json' --data-binary '{"a":"it'\\''s"}'`);
  });
});
