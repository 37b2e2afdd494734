import { beginCell, type Cell } from '@ton/core';
import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import { genesisAccount } from './genesis';
import { e2eKeys } from './keys';

// The hostile requests of the hardening issue against the real server (`npm start`): each is refused
// with a 4xx naming its limit, other requests keep being answered while they are in flight, and
// afterwards /api/health is ok and the indexer has moved on. (The 60 MB body and the 100 KB URL are
// e2e/edge.spec.ts's; the fuzz run is e2e/fuzz.spec.ts's.) HTTP only.

const account = (name: string) => genesisAccount(name).address;
const boc = (c: Cell) => c.toBoc().toString('base64');

function chainCell(depth: number): Cell {
  let c = beginCell().endCell();
  for (let i = 0; i < depth; i++) c = beginCell().storeRef(c).endCell();
  return c;
}

/** 60 levels, each referring to the one below four times: 61 cells, 4^60 paths (the 717-byte request). */
function dagCell(): Cell {
  let c = beginCell().storeUint(7, 8).endCell();
  for (let i = 0; i < 60; i++) c = beginCell().storeUint(i, 8).storeRef(c).storeRef(c).storeRef(c).storeRef(c).endCell();
  return c;
}

async function indexedSeqno(request: APIRequestContext): Promise<number> {
  const h = (await (await request.get('/api/health')).json()) as { indexer_progress?: { lastIndexedSeqno: number | null } };
  return h.indexer_progress?.lastIndexedSeqno ?? -1;
}

test('hostile get-method requests are refused by name, other requests go on, health stays ok and the indexer advances @desktop-only', async ({ request }) => {
  test.setTimeout(120_000);
  await expect.poll(() => indexedSeqno(request), { timeout: 60_000 }).toBeGreaterThan(0);
  const before = await indexedSeqno(request);
  const alice = account('alice');

  // Under the load key, so that four loops of ordinary requests from 127.0.0.1 are not rate-limited.
  const headers = { 'X-API-Key': e2eKeys().load };
  const post = (stack: unknown[], address = alice, method = 'seqno') => request.post('/api/v2/runGetMethod', { data: { address, method, stack }, headers });
  const hostile: [string, () => Promise<APIResponse>][] = [
    // 100,000 entries: ~1.5 MB of JSON, past the body limit before any parsing.
    ['100,000 entries', () => post(Array.from({ length: 100_000 }, (_, i) => ['num', i]))],
    ['400 entries', () => post(Array.from({ length: 400 }, (_, i) => ['num', i]))],
    ['1,000-deep cell', () => post([['tvm.Cell', boc(chainCell(1000))]])],
    ['integer past 257 bits', () => post([['num', '0x' + 'f'.repeat(80)]])],
    // The DAG given to a get-method that returns it: its legacy `object` form would expand 4^60 times.
    ['DAG cell', () => post([['num', '1'], ['tvm.Cell', boc(dagCell())]], account('dns_collection'), 'get_nft_content')],
  ];
  // Ordinary traffic all the while, four requests at a time.
  let hostileDone = false;
  const answered: number[] = [];
  const ordinary = Array.from({ length: 4 }, async (_, i) => {
    while (!hostileDone) answered.push((await (i % 2 ? request.get('/api/v2/getMasterchainInfo', { headers }) : request.get('/api/v3/blocks?limit=5', { headers }))).status());
  });
  const refused: [string, number, string][] = [];
  for (const [what, send] of hostile) {
    const r = await send();
    refused.push([what, r.status(), (await r.json()).error]);
  }
  hostileDone = true;
  await Promise.all(ordinary);

  expect(refused).toEqual([
    ['100,000 entries', 413, expect.stringMatching(/^request body larger than \d+ bytes$/)],
    ['400 entries', 422, expect.stringMatching(/stack has 400 entries; at most 256 are allowed/)],
    ['1,000-deep cell', 422, expect.stringMatching(/1000 cells deep; at most 256 are allowed/)],
    ['integer past 257 bits', 422, expect.stringMatching(/does not fit in 257 bits/)],
    ['DAG cell', 422, expect.stringMatching(/more than 10000 cells .* at most 10000 are allowed/)],
  ]);
  expect(answered.length).toBeGreaterThan(0);
  expect(answered.filter((s) => s !== 200)).toEqual([]);

  // A normal get-method still runs in the (unharmed) emulator.
  const seqno = await (await post([])).json();
  expect(seqno).toMatchObject({ ok: true, result: { exit_code: 0 } });

  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok', tvm: { state: 'ok' } });
  await expect.poll(() => indexedSeqno(request), { timeout: 30_000 }).toBeGreaterThan(before);
});
