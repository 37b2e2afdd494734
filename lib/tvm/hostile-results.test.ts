// Get-method results are as hostile as inputs: a contract deployed through a real transaction answers
// with a 600-deep cell, a 600-deep DAG and 1000 nested tuples — what crashed a worker every time before
// (the emulator overflowed its stack serializing them). Over real HTTP, v2 and v3 answer each with a 422
// in their envelopes that says what is past which limit, no worker dies, repeated runs of the contract
// and runs of a repeating client are refused at once (429, Retry-After), and an honest get-method of
// the same chain answers all along.
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../testing/chain';
import { messageBoc, type TestWallet } from '../testing/devnet';
import { deployHostile, hostileContract, type HostileContract } from '../testing/hostile';
import type { HttpTestServer } from '../testing/http-server';
import { genesisWallet } from '../testing/wallets';
import { LIMITS } from '../limits';
import { accountAt } from '../chain/account-state';
import { runGetMethodOn } from '../chain/get-method';
import { withTvmClient } from './client';
import { TvmPool } from './pool';

let chain: TestChain;
let server: HttpTestServer;
let alice: TestWallet;
const contracts: HostileContract[] = [];

beforeAll(async () => {
  chain = await startTestChain({ seed: 'tvm-hostile-results', rounds: 1 });
  server = await chain.serve();
  alice = await genesisWallet(chain, 'alice');
  // Five contracts, deployed by alice's signed transfers sent over HTTP as any client would.
  for (let nonce = 1; nonce <= 5; nonce++) {
    const c = await hostileContract(nonce);
    const sent = await post('/api/v2/sendBoc', { boc: messageBoc(await deployHostile(alice, c)).toString('base64') });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await chain.seal();
    contracts.push(c);
  }
}, 120_000);
afterAll(async () => {
  await server?.close();
  await chain?.close();
});

async function post(path: string, body: unknown, client = '10.0.0.1') {
  // The Atlas server writes the peer's address into this header (lib/server/server.ts); here each test client names itself.
  const res = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-atlas-client-ip': client }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
}

const v2Run = (c: HostileContract, method: string, n?: number, client?: string) =>
  post('/api/v2/runGetMethod', { address: c.address.toString(), method, stack: n === undefined ? [] : [['num', String(n)]] }, client);
const v3Run = (c: HostileContract, method: string, n: number, client?: string) =>
  post('/api/v3/runGetMethod', { address: c.address.toRawString(), method, stack: [{ type: 'num', value: String(n) }] }, client);

async function honestAnswers() {
  const seqno = await post('/api/v2/runGetMethod', { address: Address.parse(chain.account('bob').address).toString(), method: 'seqno', stack: [] }, '10.9.9.9');
  expect(seqno.body).toMatchObject({ ok: true, result: { exit_code: 0 } });
}

describe('hostile get-method results', () => {
  it('are answered 422 naming the limit, in v2 and v3 envelopes, with no worker lost', async () => {
    const [c] = contracts;
    const restarts = chain.tvm.status().restarts;
    const deep = await v2Run(c!, 'deep_cell', 600);
    expect(deep.status).toBe(422);
    expect(deep.body).toMatchObject({ ok: false, code: 422, error: `the get-method's result has a cell 600 cells deep; at most ${LIMITS.tvmResultCellDepth} are allowed` });
    const dag = await v3Run(c!, 'dag_cell', 600);
    expect(dag.status).toBe(422);
    expect(dag.body).toEqual({ error: `the get-method's result has a cell 600 cells deep; at most ${LIMITS.tvmResultCellDepth} are allowed` });
    await honestAnswers();
    expect(chain.tvm.status()).toMatchObject({ state: 'ok', restarts, resultsRefused: 2 });
    // Within the limits, the same get-methods answer.
    const shallow = await v2Run(c!, 'dag_cell', 10);
    expect(shallow.body).toMatchObject({ ok: true, result: { exit_code: 0 } });
    const honest = await v2Run(c!, 'honest');
    expect(honest.body).toMatchObject({ ok: true, result: { exit_code: 0, stack: [['num', '0x2a']] } });
  });

  it('1000 nested tuples are refused for their nesting', async () => {
    const r = await v2Run(contracts[1]!, 'nested_tuple', 1000);
    expect(r.status).toBe(422);
    expect(r.body.error).toBe(`the get-method's result nests tuples more than ${LIMITS.tvmResultNesting} deep; at most ${LIMITS.tvmResultNesting} levels are allowed`);
    const within = await v2Run(contracts[1]!, 'nested_tuple', 20);
    expect(within.body).toMatchObject({ ok: true, result: { exit_code: 0 } });
  });

  it('a contract that keeps failing is refused at once for a while, other contracts are not', async () => {
    const c = contracts[2]!;
    // Three strikes (from three clients, so that no client is in backoff), then the contract is refused.
    for (const client of ['10.0.1.1', '10.0.1.2', '10.0.1.3']) expect((await v2Run(c, 'deep_cell', 700, client)).status).toBe(422);
    const refused = await v2Run(c, 'honest', undefined, '10.0.1.4');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.body.error).toMatch(new RegExp(`^get-methods of ${c.address.toRawString()} are refused for the next \\d+ s: its recent runs`));
    const v3 = await v3Run(c, 'deep_cell', 1, '10.0.1.4');
    expect(v3.status).toBe(429);
    expect(chain.tvm.status().backoff.contracts).toBeGreaterThanOrEqual(1);
    expect((await v2Run(contracts[3]!, 'honest', undefined, '10.0.1.4')).body).toMatchObject({ ok: true });
    await honestAnswers();
  });

  it('a client that keeps asking for failing runs is refused at once, other clients are not', async () => {
    const attacker = '10.0.2.1';
    // Five strikes over contracts 0, 1 and 3 (none of them reaching its own three).
    const runs: [HostileContract, string, number][] = [
      [contracts[0]!, 'deep_cell', 650],
      [contracts[1]!, 'deep_cell', 650],
      [contracts[3]!, 'deep_cell', 650],
      [contracts[3]!, 'nested_tuple', 300],
      [contracts[4]!, 'deep_cell', 650],
    ];
    for (const [c, m, n] of runs) expect((await v2Run(c, m, n, attacker)).status).toBe(422);
    const refused = await v2Run(contracts[4]!, 'honest', undefined, attacker);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^your emulator runs are refused for the next \d+ s/);
    expect((await v2Run(contracts[4]!, 'honest', undefined, '10.0.2.2')).body).toMatchObject({ ok: true });
    expect(chain.tvm.status()).toMatchObject({ state: 'ok', backoff: { clients: 1 } });
  });

  it("a client's queued runs do not keep another client's run waiting behind all of them", async () => {
    const pool = new TvmPool({ workers: 1 });
    try {
      const acc = await accountAt(chain.lite, contracts[4]!.address);
      const done: string[] = [];
      const run = (client: string, n: number) =>
        withTvmClient(client, () => runGetMethodOn(chain.lite, pool, acc, 'dag_cell', [{ type: 'int', value: BigInt(n) }])).then(() => done.push(`${client} ${n}`));
      // Eight runs of one client queue up before the other client's one arrives.
      const flood = Array.from({ length: 8 }, (_, i) => run('10.0.3.1', 200 + i));
      await new Promise((r) => setTimeout(r, 20));
      await Promise.all([...flood, run('10.0.3.2', 300)]);
      expect(done.indexOf('10.0.3.2 300')).toBeLessThanOrEqual(2);
    } finally {
      await pool.close();
    }
  });
});

