/**
 * X-Atlas-Verified over real HTTP, on the devnet: the API in front of a lite client with LITE_VERIFY on
 * (honest devnet lite server, or a tampering one in between: lib/testing/tampering-lite.ts) or off.
 * An account read through a verifying client says it was checked by proof; a tampered one is refused in
 * the version's envelope (502, never 500 and never the tampered balance); index answers are never marked.
 */
import { Address } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnetLiteHandler } from '../devnet/lite-handler';
import { InProcessLiteEngine } from '../devnet/transport/in-process-engine';
import { createLiteClient } from '../lite';
import { startTestChain, type TestChain } from '../testing/chain';
import { testApi } from '../testing/api';
import { richerBalances, tamperingHandler } from '../testing/tampering-lite';
import type { LiteQueryHandler } from '../lite/tl/codec';
import { PROOF_HEADER } from './proof-header';

let chain: TestChain;
const servers: { url: string; close(): Promise<void> }[] = [];

beforeAll(async () => {
  chain = await startTestChain({ seed: 'proof-mark', rounds: 1, index: true });
}, 120_000);
afterAll(async () => {
  for (const s of servers) await s.close();
  await chain?.close();
});

/** A lite client over `handler` (the devnet's, or a tampering one), verifying or not, with the default cache. */
function liteOver(handler: LiteQueryHandler, verify: boolean): LiteClient {
  const anchor = { seqno: 0, ...chain.devnet.zeroState };
  return createLiteClient({ kind: 'engine', engine: new InProcessLiteEngine(handler), name: 'devnet', anchor }, { verify });
}

/** The real API handlers over `lite` and the chain's index, behind a real HTTP server. */
async function serveOver(lite: LiteClient): Promise<string> {
  const api = testApi({ lite, db: chain.db!.db, tvm: chain.tvm });
  const server = await api.serve();
  servers.push({
    url: server.url,
    async close() {
      await server.close();
      await api.pending?.close();
      lite.engine.close();
    },
  });
  return server.url;
}

const honest = () => createDevnetLiteHandler(chain.devnet.chain);
const alice = () => chain.account('alice').address;
const realBalance = async () => {
  const last = (await chain.lite.getMasterchainInfo()).last;
  return (await chain.lite.getAccountState(Address.parseRaw(alice()), last)).balance.coins;
};

async function get(url: string) {
  const res = await fetch(url);
  return { status: res.status, proof: res.headers.get(PROOF_HEADER), body: (await res.json()) as Record<string, unknown> };
}

async function rpc(base: string, method: string, params: Record<string, unknown>) {
  const res = await fetch(`${base}/api/v2/jsonRPC`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }) });
  return { status: res.status, proof: res.headers.get(PROOF_HEADER), body: (await res.json()) as Record<string, unknown> };
}

describe('LITE_VERIFY=on, honest lite server', () => {
  let base: string;
  beforeAll(async () => {
    base = await serveOver(liteOver(honest(), true));
  });

  it('marks v2 account reads (REST and JSON-RPC) and the v3 live account routes as verified by proof', async () => {
    const balance = (await realBalance()).toString();
    const v2 = await get(`${base}/api/v2/getAddressInformation?address=${alice()}`);
    expect(v2).toMatchObject({ status: 200, proof: 'proof', body: { ok: true, result: { balance } } });
    // again: from the cache this time (only checked answers are cached), still marked
    expect((await get(`${base}/api/v2/getAddressInformation?address=${alice()}`)).proof).toBe('proof');
    expect(await rpc(base, 'getAddressBalance', { address: alice() })).toMatchObject({ status: 200, proof: 'proof', body: { result: balance } });
    expect(await get(`${base}/api/v2/getWalletInformation?address=${alice()}`)).toMatchObject({ status: 200, proof: 'proof', body: { result: { wallet: true, balance } } });
    for (const path of ['account', 'addressInformation', 'walletInformation']) {
      expect(await get(`${base}/api/v3/${path}?address=${alice()}`)).toMatchObject({ status: 200, proof: 'proof', body: { balance } });
    }
    // an account that does not exist: its absence is proven too
    expect(await get(`${base}/api/v3/account?address=0:${'42'.repeat(32)}`)).toMatchObject({ status: 200, proof: 'proof', body: { status: 'nonexist' } });
  });

  it('never marks index answers, nor live answers built from reads it does not check', async () => {
    // the index: what the indexer stored, not proofs
    const states = await get(`${base}/api/v3/accountStates?address=${alice()}`);
    expect(states.status).toBe(200);
    expect(states.proof).toBeNull();
    expect((await get(`${base}/api/v3/transactions?account=${alice()}&limit=1`)).proof).toBeNull();
    // transactions carry no proofs; a get-method runs over configuration that is not checked
    const txs = await get(`${base}/api/v2/getTransactions?address=${alice()}&limit=1`);
    expect(txs.status).toBe(200);
    expect(txs.proof).toBeNull();
    const seqno = await rpc(base, 'runGetMethod', { address: alice(), method: 'seqno', stack: [] });
    expect(seqno.status).toBe(200);
    expect(seqno.proof).toBeNull();
    // a failed request says nothing either
    expect(await get(`${base}/api/v2/getAddressInformation?address=nope`)).toMatchObject({ status: 422, proof: null });
  });

  it('lets browsers on other origins read the header', async () => {
    const res = await fetch(`${base}/api/v3/account?address=${alice()}`, { headers: { origin: 'https://wallet.example' } });
    expect(res.headers.get('access-control-expose-headers')).toContain(PROOF_HEADER);
  });
});

describe('LITE_VERIFY=on, tampering lite server', () => {
  it('answers 502 in each envelope instead of a balance changed by one nanoton', async () => {
    const base = await serveOver(liteOver(tamperingHandler(honest(), richerBalances), true));
    const balance = (await realBalance()).toString();
    const tampered = (BigInt(balance) + 1n).toString();
    const v2 = await get(`${base}/api/v2/getAddressInformation?address=${alice()}`);
    expect(v2.status).toBe(502);
    expect(v2.body).toMatchObject({ ok: false, code: 502, error: expect.stringMatching(/^LITE_SERVER_PROOF: .*account state hash mismatch/) });
    expect(v2.proof).toBeNull();
    const r = await rpc(base, 'getAddressInformation', { address: alice() });
    expect(r).toMatchObject({ status: 502, body: { ok: false, code: 502, id: 7 } });
    for (const path of ['account', 'addressInformation', 'walletInformation']) {
      const v3 = await get(`${base}/api/v3/${path}?address=${alice()}`);
      expect(v3.status).toBe(502);
      expect(v3.body).toEqual({ error: expect.stringMatching(/^LITE_SERVER_PROOF: /) });
      expect(JSON.stringify(v3.body)).not.toContain(tampered);
    }
  });
});

describe('LITE_VERIFY off', () => {
  it('answers the same reads unmarked, and believes a tampering lite server (which is why the mark matters)', async () => {
    const base = await serveOver(liteOver(honest(), false));
    const balance = (await realBalance()).toString();
    expect(await get(`${base}/api/v2/getAddressInformation?address=${alice()}`)).toMatchObject({ status: 200, proof: null, body: { result: { balance } } });
    expect(await get(`${base}/api/v3/account?address=${alice()}`)).toMatchObject({ status: 200, proof: null, body: { balance } });
    const lied = await serveOver(liteOver(tamperingHandler(honest(), richerBalances), false));
    expect(await get(`${lied}/api/v3/account?address=${alice()}`)).toMatchObject({ status: 200, proof: null, body: { balance: (BigInt(balance) + 1n).toString() } });
  });
});
