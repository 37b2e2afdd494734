// Pending traces end to end on an indexed devnet: a message sent through v2 is emulated at once (every
// hop), classified and served by /pendingTraces, /pendingTransactions and /pendingActions until the chain
// seals it and the index catches up; the emulated trace equals the real one; a message the chain will
// refuse is reported and kept as no trace; the store behaves the same in memory and in Redis.
import { Address, beginCell, Cell, toNano, type Message } from '@ton/core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../testing/chain';
import { messageBoc, signedTransfer, type TestWallet } from '../testing/devnet';
import { startTestRedis, type TestRedis } from '../testing/redis';
import { genesisJettonTransfer, genesisWallet } from '../testing/wallets';
import { modelProblems } from '../testing/v3';
import { rawUpper } from '../ton/address';
import { type ActionJson, ActionsResponse } from '../api/v3/models/actions';
import { PendingTracesResponse, type TraceJson } from '../api/v3/models/traces';
import { PendingTransactionsResponse, type TransactionJson } from '../api/v3/models/transactions';
import { log } from '../log';
import { testApi } from '../testing/api';
import { TvmPool } from '../tvm/pool';
import { PendingTraces } from '.';
import { memoryPendingStore, redisPendingStore, type PendingEntry, type PendingStore } from './store';

let chain: TestChain;
let alice: TestWallet;
const acc = (name: string) => rawUpper(Address.parse(chain.account(name).address));

type Traces = { traces: TraceJson[] | null; address_book: Record<string, unknown>; rejected?: { external_hash: string; reason: string }[] };
type Txs = { transactions: TransactionJson[] | null; address_book: Record<string, unknown> };
type Actions = { actions: ActionJson[] };

beforeAll(async () => {
  chain = await startTestChain({ seed: 'pending-traces', rounds: 1, index: true });
  alice = await genesisWallet(chain, 'alice');
  // A running process has its emulator workers up and the block's config read: so has the test before
  // it times anything (an emulation of a transfer that is never sent).
  const warm = await signedTransfer(alice, [{ to: Address.parse(chain.account('bob').address), value: 1n }]);
  alice.seqno -= 1;
  await chain.pending!.entryOf(Cell.fromBoc(messageBoc(warm))[0]!);
}, 120_000);
afterAll(() => chain?.close());

const bocOf = (m: Message) => messageBoc(m).toString('base64');
const hashOf = (m: Message) => Cell.fromBoc(messageBoc(m))[0]!.hash().toString('base64');

/** The pending trace of `hash` once the store has it (or a refusal), polled for up to `ms`; how fast is `npm run bench -- --only pending`'s. */
async function pendingTrace(hash: string, ms = 10_000): Promise<{ trace: TraceJson | null; body: Traces }> {
  const t0 = performance.now();
  for (;;) {
    const r = await chain.callV3<Traces>('pendingTraces', { ext_msg_hash: hash });
    expect(r.status, r.text).toBe(200);
    const trace = r.body.traces?.[0] ?? null;
    if (trace || r.body.rejected || performance.now() - t0 > ms) return { trace, body: r.body };
    await new Promise((res) => setTimeout(res, 20));
  }
}

/** Per transaction in lt order: account, internal in-message's opcode and source, and whether it was aborted. */
const hops = (txs: TransactionJson[]) =>
  [...txs]
    .sort((a, b) => (BigInt(a.lt) < BigInt(b.lt) ? -1 : 1))
    .map((t) => ({ account: t.account, opcode: t.in_msg?.source ? t.in_msg.opcode : null, source: t.in_msg?.source ?? null, aborted: t.description.aborted ?? false }));

describe('a TON transfer sent through sendBoc', () => {
  it('is in pendingTraces with its predicted ton_transfer, listed by pendingTransactions and pendingActions, and gone once indexed', async () => {
    const msg = await signedTransfer(alice, [{ to: Address.parse(chain.account('bob').address), value: toNano('0.25'), body: 'pending hello' }]);
    const hash = hashOf(msg);
    const sent = await chain.callV2('post', 'sendBoc', { boc: bocOf(msg) });
    expect(sent.body).toEqual({ ok: true, result: { '@type': 'ok' }, '@extra': expect.any(String) });

    const { trace, body } = await pendingTrace(hash);
    expect(trace, JSON.stringify(body)).not.toBeNull();
    expect(modelProblems(body, PendingTracesResponse)).toEqual([]);
    expect(trace).toMatchObject({
      trace_id: null,
      external_hash: hash,
      mc_seqno_start: '0',
      trace_info: { trace_state: 'pending', transactions: 2, messages: 1, pending_messages: 0, classification_state: 'ok' },
    });
    expect(hops(Object.values(trace!.transactions!))).toEqual([
      { account: acc('alice'), opcode: null, source: null, aborted: false },
      { account: acc('bob'), opcode: '0x00000000', source: acc('alice'), aborted: false },
    ]);
    expect(trace!.actions).toEqual([
      expect.objectContaining({
        type: 'ton_transfer',
        trace_id: null,
        trace_external_hash: hash,
        finality: 'pending',
        success: true,
        details: expect.objectContaining({ source: acc('alice'), destination: acc('bob'), value: toNano('0.25').toString(), comment: 'pending hello' }),
      }),
    ]);
    expect(body.address_book[acc('bob')]).toBeDefined();
    // The whole trace is there by the normalized hash and by account too.
    const norm = Object.values(trace!.transactions!).find((t) => t.account === acc('alice'))!.in_msg!.hash_norm!;
    expect((await chain.callV3<Traces>('pendingTraces', { ext_msg_hash: norm })).body.traces?.[0]?.external_hash).toBe(hash);
    expect((await chain.callV3<Traces>('pendingTraces', { account: acc('bob') })).body.traces?.map((t) => t.external_hash)).toContain(hash);

    const txs = await chain.callV3<Txs>('pendingTransactions', { account: [acc('alice'), acc('bob')] });
    expect(txs.status, txs.text).toBe(200);
    expect(modelProblems(txs.body, PendingTransactionsResponse)).toEqual([]);
    const mine = txs.body.transactions!.filter((t) => t.trace_external_hash === hash);
    expect(mine.map((t) => t.account).sort()).toEqual([acc('alice'), acc('bob')].sort());
    for (const t of mine) expect(t).toMatchObject({ emulated: true, finality: 'pending', mc_block_seqno: null });
    expect(mine.map((t) => t.hash).sort()).toEqual(Object.keys(trace!.transactions!).sort());

    const acts = await chain.callV3<Actions>('pendingActions', { account: acc('bob') });
    expect(modelProblems(acts.body, ActionsResponse)).toEqual([]);
    expect(acts.body.actions.find((a) => a.trace_external_hash === hash)).toMatchObject({ type: 'ton_transfer', accounts: expect.arrayContaining([acc('alice'), acc('bob')]) });

    // The chain seals the message; the index catches up: the pending trace is gone everywhere.
    await chain.seal();
    expect((await chain.callV3<Traces>('pendingTraces', { ext_msg_hash: hash })).body.traces).toBeNull();
    expect((await chain.callV3<Actions>('pendingActions', { ext_msg_hash: hash })).body.actions).toEqual([]);
    const after = await chain.callV3<Txs>('pendingTransactions', { account: acc('alice') });
    expect(after.status === 404 || !after.body.transactions?.some((t) => t.trace_external_hash === hash), after.text).toBe(true);
    // The real trace is the one the API serves now.
    const real = await chain.callV3<{ traces: TraceJson[] }>('traces', { msg_hash: hash });
    expect(real.body.traces).toHaveLength(1);
  }, 60_000);
});

describe('an emulated jetton transfer', () => {
  it('equals the real one: the same accounts, opcodes per hop and actions with their amounts', async () => {
    const msg = await genesisJettonTransfer(chain, alice, { to: 'bob', amount: 1234n, comment: 'pending jettons', queryId: 77n });
    const hash = hashOf(msg);
    // Sent through v3's POST /message: its answer is upstream's, unchanged.
    const posted = await chain.postV3('message', { boc: bocOf(msg) });
    expect(posted.body).toEqual({ message_hash: hash, message_hash_norm: expect.any(String) });
    const { trace, body: answer } = await pendingTrace(hash);
    expect(trace, JSON.stringify(answer)).not.toBeNull();
    const emulatedHops = hops(Object.values(trace!.transactions!));
    // wallet → its jetton wallet → bob's jetton wallet → bob (notification) and alice (excesses)
    expect(emulatedHops.length).toBeGreaterThanOrEqual(4);
    const emulatedActions = trace!.actions!;

    await chain.seal();
    const real = (await chain.callV3<{ traces: TraceJson[] }>('traces', { msg_hash: hash, include_actions: true })).body.traces[0]!;
    const sortOps = (xs: ReturnType<typeof hops>) => xs.map((h) => JSON.stringify(h)).sort();
    expect(sortOps(emulatedHops)).toEqual(sortOps(hops(Object.values(real.transactions!))));
    const shape = (as: ActionJson[]) => as.map((a) => ({ type: a.type, success: a.success, details: a.details })).sort((x, y) => x.type.localeCompare(y.type));
    expect(shape(emulatedActions)).toEqual(shape(real.actions!));
    expect(emulatedActions.find((a) => a.type === 'jetton_transfer')?.details).toMatchObject({ amount: '1234', comment: 'pending jettons', sender: acc('alice'), receiver: acc('bob') });
  }, 60_000);
});

describe('a message the chain will refuse', () => {
  it('is reported as rejected, with the reason, and kept as no pending trace', async () => {
    const msg = await signedTransfer(alice, [{ to: Address.parse(chain.account('bob').address), value: toNano('0.1') }]);
    alice.seqno -= 1; // not sent: the wallet's next message reuses this seqno
    // The body's signature no longer matches: one flipped bit in the signed part.
    const body = msg.body.beginParse();
    const signature = body.loadBuffer(64);
    signature[0] ^= 1;
    const forged: Message = { ...msg, body: beginCell().storeBuffer(signature).storeSlice(body).endCell() };
    const hash = hashOf(forged);
    const r = await chain.callV2('post', 'sendBocReturnHashNoError', { boc: bocOf(forged) });
    expect(r.status).toBe(400); // the devnet's lite server refuses it too
    const { trace, body: answer } = await pendingTrace(hash);
    expect(trace).toBeNull();
    expect(answer.traces).toBeNull();
    expect(answer.rejected).toEqual([{ external_hash: hash, external_hash_norm: expect.any(String), reason: expect.stringMatching(/exit code 3[35]/) }]);
    // Nothing of it in the account's pending data.
    const txs = await chain.callV3<Txs>('pendingTransactions', { account: acc('alice') });
    expect(txs.body.transactions?.some((t) => t.trace_external_hash === hash) ?? false).toBe(false);
  }, 30_000);
});

describe('errors', () => {
  it('422 without the required keys, 404 when the store has nothing for the accounts', async () => {
    expect((await chain.callV3('pendingTransactions', {})).body).toEqual({ error: 'at least 1 account address required' });
    expect((await chain.callV3('pendingTraces', {})).body).toEqual({ error: 'account or ext_msg_hash should be specified' });
    expect((await chain.callV3('pendingActions', {})).status).toBe(422);
    const nobody = await chain.callV3('pendingTransactions', { account: acc('carol') });
    expect(nobody.status).toBe(404);
    expect(nobody.body).toEqual({ error: 'emulated traces not found' });
    expect((await chain.callV3('pendingTraces', { ext_msg_hash: 'zz' })).status).toBe(422);
  });
});

describe('with the store in Redis', () => {
  it('a trace one process emulated is served by another process using the same Redis', async () => {
    const redis = await startTestRedis();
    const prefix = `atlas:test:${process.pid}:${Date.now()}:e2e:`;
    // Two API instances with their own emulators and store handles, as two Atlas processes would have.
    const apiOf = () => {
      const tvm = new TvmPool();
      const pending = new PendingTraces({ lite: chain.lite, tvm, store: redisPendingStore(redis.url, { prefix }), prisma: chain.db!.db.prisma, log });
      return testApi({ lite: chain.lite, db: chain.db!.db, tvm, pending });
    };
    const [a, b] = [apiOf(), apiOf()];
    try {
      const msg = await signedTransfer(alice, [{ to: Address.parse(chain.account('carol').address), value: toNano('0.05'), body: 'via redis' }]);
      const hash = hashOf(msg);
      expect((await a.callV2('post', 'sendBoc', { boc: bocOf(msg) })).body.ok).toBe(true);
      await a.pending!.idle();
      const r = await b.callV3<Traces>('pendingTraces', { account: acc('carol') });
      expect(r.body.traces?.map((t) => t.external_hash)).toEqual([hash]);
      expect(r.body.traces![0]!.actions![0]).toMatchObject({ type: 'ton_transfer', details: { comment: 'via redis' } });
      await chain.seal();
      expect((await b.callV3<Traces>('pendingTraces', { ext_msg_hash: hash })).body.traces).toBeNull();
    } finally {
      await a.close();
      await b.close();
      const client = new Redis(redis.url);
      const keys = await client.keys(`${prefix}*`);
      if (keys.length) await client.del(...keys);
      client.disconnect();
      await redis.close();
    }
  }, 60_000);
});

function entry(n: number, accounts: string[]): PendingEntry {
  const h = (tag: string) => Buffer.alloc(32, `${tag}${n}`).toString('base64');
  return { externalHash: h('e'), externalHashNorm: h('n'), createdAt: Date.now(), mcSeqno: 1, transactions: [], actions: [], accounts, actionAccounts: accounts.slice(0, 1), rejected: null, truncated: false };
}

describe.each(['memory', 'redis'] as const)('the pending store (%s)', (kind) => {
  let redis: TestRedis | undefined;
  // One key prefix per test run (and per store in it), removed afterwards.
  const prefixes: string[] = [];
  const open = (ttlMs = 60_000, maxEntries = 100, prefix = `atlas:test:${process.pid}:${Date.now()}:${prefixes.length}:`): PendingStore => {
    prefixes.push(prefix);
    return kind === 'memory' ? memoryPendingStore({ ttlMs, maxEntries }) : redisPendingStore(redis!.url, { prefix, limits: { ttlMs, maxEntries } });
  };
  beforeAll(async () => {
    if (kind === 'redis') redis = await startTestRedis();
  }, 30_000);
  afterAll(async () => {
    if (redis) {
      const client = new Redis(redis.url);
      for (const prefix of prefixes) {
        const keys = await client.keys(`${prefix}*`);
        if (keys.length) await client.del(...keys);
      }
      client.disconnect();
      await redis.close();
    }
  });

  it('finds entries by hash, normalized hash and account; deletes them; two handles on one Redis share them', async () => {
    const a = open();
    // Redis: a second handle, as another Atlas process would have, sees and changes the same entries.
    const b = kind === 'redis' ? open(60_000, 100, prefixes.at(-1)) : a;
    try {
      await a.put(entry(1, ['0:A', '0:B']));
      await a.put(entry(2, ['0:B']));
      expect((await b.byHashes([entry(1, []).externalHash])).map((e) => e.accounts)).toEqual([['0:A', '0:B']]);
      expect((await b.byHashes([entry(2, []).externalHashNorm])).map((e) => e.externalHash)).toEqual([entry(2, []).externalHash]);
      expect((await b.byAccounts(['0:B'], 'transactions')).length).toBe(2);
      expect((await b.byAccounts(['0:B'], 'actions')).map((e) => e.externalHash)).toEqual([entry(2, []).externalHash]);
      await b.delete([entry(1, []).externalHash]);
      expect(await a.byHashes([entry(1, []).externalHash])).toEqual([]);
      expect((await a.byAccounts(['0:A', '0:B'], 'transactions')).length).toBe(1);
      await a.delete([entry(2, []).externalHash]);
      expect(await a.byAccounts(['0:B'], 'transactions')).toEqual([]);
    } finally {
      await a.close();
      if (b !== a) await b.close();
    }
  });

  it('entries expire after their TTL', async () => {
    const s = open(150);
    try {
      await s.put(entry(3, ['0:C']));
      expect((await s.byAccounts(['0:C'], 'transactions')).length).toBe(1);
      await new Promise((r) => setTimeout(r, 300));
      expect(await s.byAccounts(['0:C'], 'transactions')).toEqual([]);
      expect(await s.byHashes([entry(3, []).externalHash])).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('the pending store in memory', () => {
  it('keeps at most maxEntries, dropping the oldest', async () => {
    const s = memoryPendingStore({ ttlMs: 60_000, maxEntries: 2 });
    for (const n of [4, 5, 6]) await s.put(entry(n, ['0:D']));
    expect((await s.byAccounts(['0:D'], 'transactions')).map((e) => e.externalHash).sort()).toEqual([entry(5, []).externalHash, entry(6, []).externalHash].sort());
    await s.close();
  });
});
