// The Streaming API's pipeline on devnet traffic, below the transports: what the pending store, the
// indexer's shard-block hook and its commits publish, and what each subscription is sent of it —
// pending, then confirmed, then finalized, in v3's own JSON; invalidations; finality that only rises.
// (The transports, with real clients, are tested in transports.test.ts.)
import { Address, Cell, toNano, type Message } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceJson } from '../api/v3/models/traces';
import type { TransactionJson } from '../api/v3/models/transactions';
import { traceFromNotification } from '../client/live';
import { normalizedHash } from '../ton/normalized-hash';
import { makeWallet, messageBoc, signedTransfer, type TestWallet } from '../testing/devnet';
import { ReceivedStream } from '../testing/received-stream';
import { startStreamChain, type StreamChain } from '../testing/stream';
import { modelProblems } from '../testing/v3';
import { genesisJettonTransfer, genesisWallet } from '../testing/wallets';
import { rawUpper } from '../ton/address';
import type { StreamEvent, TraceEvent } from './events';
import { Notification } from './protocol';
import { parseSubscription } from './subscription';

let s: StreamChain;
let alice: TestWallet;
let admin: TestWallet;
const published: StreamEvent[] = [];
const raw = (name: string) => rawUpper(Address.parse(s.chain.account(name).address));
const norm = (m: Message) => normalizedHash(m)!.toString('base64');
const bocOf = (m: Message) => messageBoc(m).toString('base64');

function listen(sub: Record<string, unknown>, capacity?: number): ReceivedStream {
  const parsed = parseSubscription(sub, { maxAddresses: 100 });
  if (!parsed.ok) throw new Error(parsed.error);
  const conn = new ReceivedStream(capacity);
  const slot = s.hub.admit(null, '127.0.0.1');
  if (!slot.ok) throw new Error(slot.error);
  s.hub.register(conn, 'websocket', slot.owner).subscribe(parsed.value);
  return conn;
}

beforeAll(async () => {
  s = await startStreamChain({ seed: 'stream-publisher', landingMs: 1500, expiryCheckMs: 200 });
  s.bus.subscribe((e) => published.push(e));
  alice = await genesisWallet(s.chain, 'alice');
  admin = await genesisWallet(s.chain, 'admin');
}, 180_000);
afterAll(() => s?.close());

describe('a jetton transfer sent through /api/v2/sendBoc', () => {
  it('streams pending, then confirmed, then finalized: its transactions, actions, trace, states and jetton wallets', async () => {
    const msg = await genesisJettonTransfer(s.chain, alice, { to: 'bob', amount: 777n, comment: 'streamed jettons' });
    const key = norm(msg);
    const everything = listen({
      types: ['transactions', 'actions', 'account_state_change', 'jettons_change'],
      addresses: [s.chain.account('alice').address, raw('bob')],
      min_finality: 'pending',
      include_address_book: true,
      include_metadata: true,
    });
    const byTrace = listen({ types: ['trace'], trace_external_hash_norms: [key], min_finality: 'pending' });
    const settled = listen({ types: ['transactions'], addresses: [raw('alice')] });
    const confirmedOnly = listen({ types: ['transactions'], addresses: [raw('bob')], min_finality: 'confirmed' });

    const sent = await s.chain.callV2('post', 'sendBoc', { boc: bocOf(msg) });
    expect(sent.body.ok).toBe(true);
    await s.settle();
    // Pending: the emulated trace, its predicted jetton_transfer.
    const pendingTxs = everything.of('transactions').filter((n) => n.trace_external_hash_norm === key);
    expect(pendingTxs.map((n) => n.finality)).toEqual(['pending']);
    expect(pendingTxs[0]!.transactions.every((t) => t.emulated && t.finality === 'pending')).toBe(true);
    expect(pendingTxs[0]!.transactions.map((t) => t.account).sort()).toEqual([raw('alice'), raw('alice'), raw('bob')].sort());
    const pendingActions = everything.of('actions').filter((n) => n.finality === 'pending');
    expect(pendingActions[0]!.actions.find((a) => a.type === 'jetton_transfer')?.details).toMatchObject({ amount: '777', comment: 'streamed jettons', sender: raw('alice'), receiver: raw('bob') });
    expect(byTrace.of('trace').map((n) => n.finality)).toEqual(['pending']);
    expect(settled.all).toEqual([]);
    expect(confirmedOnly.all).toEqual([]);

    await s.sealAndIndex();
    const finality = (r: ReceivedStream) => r.all.filter((n) => 'trace_external_hash_norm' in n && n.trace_external_hash_norm === key).map((n) => `${n.type}:${'finality' in n ? n.finality : ''}`);
    expect(finality(everything)).toEqual([
      'transactions:pending', 'actions:pending',
      'transactions:confirmed', 'actions:confirmed',
      'transactions:finalized', 'actions:finalized',
    ]);
    expect(finality(byTrace)).toEqual(['trace:pending', 'trace:confirmed', 'trace:finalized']);
    expect(finality(confirmedOnly)).toEqual(['transactions:confirmed', 'transactions:finalized']);
    expect(finality(settled)).toEqual(['transactions:finalized']);

    // Every notification is the protocol's, with v3's objects inside.
    for (const n of [...everything.all, ...byTrace.all]) expect(modelProblems(n, Notification.options.find((o) => o.shape.type.value === n.type)!)).toEqual([]);

    // Finalized transactions are exactly what /api/v3/transactions answers for them, newest first.
    const final = everything.of('transactions').find((n) => n.finality === 'finalized' && n.trace_external_hash_norm === key)!;
    const lts = final.transactions.map((t) => BigInt(t.lt));
    expect(lts).toEqual([...lts].sort((a, b) => (a < b ? 1 : -1)));
    const v3 = await s.chain.callV3<{ transactions: TransactionJson[] }>('transactions', { hash: final.transactions.map((t) => t.hash) });
    const byHash = new Map(v3.body.transactions.map((t) => [t.hash, t]));
    for (const t of final.transactions) expect(t).toEqual(byHash.get(t.hash));
    // The address book covers what the notification names, and only that.
    expect(Object.keys(final.address_book!).sort()).toEqual([...new Set(final.transactions.flatMap((t) => [t.account, t.in_msg?.source, ...t.out_msgs.map((m) => m.destination)]).filter(Boolean))].sort());

    // Confirmed: the real transactions (not emulated), in their shard block, not yet in a masterchain block.
    const confirmed = everything.of('transactions').find((n) => n.finality === 'confirmed')!;
    expect(confirmed.transactions.every((t) => !t.emulated && t.mc_block_seqno === null && t.block_ref.workchain === 0)).toBe(true);
    expect(confirmed.transactions.map((t) => t.hash).sort()).toEqual(final.transactions.map((t) => t.hash).sort());

    // The trace subscription: the whole tree and every transaction by hash, actions included.
    const trace = byTrace.of('trace').at(-1)!;
    expect(Object.keys(trace.transactions).length).toBeGreaterThanOrEqual(4);
    expect(trace.trace.tx_hash).toBe(Object.values(trace.transactions).find((t) => !t.in_msg?.source)!.hash);
    expect(trace.actions?.some((a) => a.type === 'jetton_transfer')).toBe(true);

    // The explorer shows a streamed trace as v3's Trace (lib/client/live.ts): the same as /traces answers.
    const v3trace = (await s.chain.callV3<{ traces: TraceJson[] }>('traces', { msg_hash: Object.values(trace.transactions).find((t) => !t.in_msg?.source)!.in_msg!.hash, include_actions: true })).body.traces[0]!;
    const shown = traceFromNotification(trace);
    for (const k of ['trace_id', 'external_hash', 'mc_seqno_start', 'mc_seqno_end', 'start_lt', 'start_utime', 'end_lt', 'end_utime', 'trace_info', 'trace', 'transactions_order', 'transactions'] as const) {
      expect([k, shown[k]]).toEqual([k, v3trace[k]]);
    }
    expect(shown.actions!.map((a) => a.action_id)).toEqual(v3trace.actions!.map((a) => a.action_id));

    // States and jetton wallets: finalized, of the subscribed accounts (bob's jetton wallet by its owner).
    const states = everything.of('account_state_change');
    expect(states.map((n) => n.account).sort()).toEqual([raw('alice'), raw('bob')]);
    expect(states.every((n) => n.finality === 'finalized' && n.state.balance !== null)).toBe(true);
    const jettons = everything.of('jettons_change');
    expect(jettons.map((n) => n.jetton.owner).sort()).toEqual([raw('alice'), raw('bob')]);
    const bobs = jettons.find((n) => n.jetton.owner === raw('bob'))!;
    const wallets = await s.chain.callV3<{ jetton_wallets: unknown[] }>('jetton/wallets', { address: bobs.jetton.address });
    expect(bobs.jetton).toEqual(wallets.body.jetton_wallets[0]);
    expect(Object.keys(bobs.address_book!)).toContain(bobs.jetton.jetton);
  }, 120_000);

  it('sends the prediction first even when the shard block is seen while the message is still being emulated', async () => {
    const listener = listen({ types: ['transactions'], addresses: [raw('alice')], min_finality: 'pending' });
    const msg = await genesisJettonTransfer(s.chain, alice, { to: 'bob', amount: 5n, comment: 'racing' });
    expect((await s.chain.callV2('post', 'sendBoc', { boc: bocOf(msg) })).body.ok).toBe(true);
    // No settling: the round is sealed and its shard block seen at once.
    await s.chain.devnet.sealNow();
    await s.chain.indexer!.watcher!.poll();
    await s.settle();
    await s.chain.index();
    await s.settle();
    expect(listener.of('transactions').filter((n) => n.trace_external_hash_norm === norm(msg)).map((n) => n.finality)).toEqual(['pending', 'confirmed', 'finalized']);
  }, 60_000);

  it('keeps a trace\'s finality rising: a late prediction of a finalized trace is not sent', async () => {
    const listener = listen({ types: ['transactions'], addresses: [raw('alice')], min_finality: 'pending' });
    const stale = published.find((e): e is TraceEvent => e.kind === 'trace' && e.finality === 'pending')!;
    s.hub.dispatch(stale);
    expect(listener.all).toEqual([]);
  });
});

describe('trace_invalidated', () => {
  it('voids a prediction that does not happen, before the real trace is sent', async () => {
    // A fresh address: a bounceable transfer to it is predicted to bounce. Before it lands, admin deploys
    // a wallet there (in the same round, first): the transfer then arrives at an account and succeeds.
    const target = makeWallet('stream-invalidated', 'v4');
    const predicted = await signedTransfer(alice, [{ to: target.address, value: toNano('0.5'), bounce: true }]);
    const deploy = await signedTransfer(admin, [{ to: target.address, value: toNano('1'), init: target.contract.init, bounce: false }]);
    const key = norm(predicted);
    const watcher = listen({ types: ['transactions', 'trace'], addresses: [raw('alice')], trace_external_hash_norms: [key], min_finality: 'pending' });
    expect((await s.chain.callV2('post', 'sendBoc', { boc: bocOf(deploy) })).body.ok).toBe(true);
    expect((await s.chain.callV2('post', 'sendBoc', { boc: bocOf(predicted) })).body.ok).toBe(true);
    await s.sealAndIndex();
    const seen = watcher.all.filter((n) => 'trace_external_hash_norm' in n && n.trace_external_hash_norm === key).map((n) => `${n.type}${'finality' in n ? `:${n.finality}` : ''}`);
    expect(seen).toEqual(['transactions:pending', 'trace:pending', 'trace_invalidated', 'transactions:confirmed', 'trace:confirmed', 'transactions:finalized', 'trace:finalized']);
    const pending = watcher.of('trace').find((n) => n.finality === 'pending')!;
    const final = watcher.of('trace').find((n) => n.finality === 'finalized')!;
    expect(Object.keys(pending.transactions).length).toBeGreaterThan(Object.keys(final.transactions).length); // the predicted bounce
  }, 60_000);

  it('voids a prediction that never lands once its deadline passes, and tells only who was sent it', async () => {
    // Emulated, never sent: as if accepted by a lite server that then lost it.
    const lost = await signedTransfer(alice, [{ to: Address.parse(s.chain.account('bob').address), value: toNano('0.1') }]);
    alice.seqno -= 1;
    const key = norm(lost);
    const sentIt = listen({ types: ['transactions'], addresses: [raw('alice')], min_finality: 'pending' });
    const finalOnly = listen({ types: ['transactions'], addresses: [raw('alice')] });
    const entry = await s.chain.pending!.entryOf(Cell.fromBoc(messageBoc(lost))[0]!);
    await s.chain.pending!.store.put(entry);
    s.publisher.pendingStored(entry);
    await s.settle();
    expect(sentIt.of('transactions').map((n) => n.trace_external_hash_norm)).toEqual([key]);
    await expect.poll(() => sentIt.of('trace_invalidated').length, { timeout: 5_000 }).toBe(1);
    expect(sentIt.of('trace_invalidated')[0]).toEqual({ type: 'trace_invalidated', trace_external_hash_norm: key });
    expect(finalOnly.all).toEqual([]);
  }, 30_000);
});
