// POST /emulate on an indexed devnet: a signed message's whole trace and actions, predicted without
// sending it, equal to what the chain does once the same message is sent; a message the chain would
// refuse answers why; and every bad input is a 422 naming the problem, never a 500.
import { Address, beginCell, Cell, internal, storeMessageRelaxed, toNano, type Message } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { messageBoc, signedTransfer, type TestWallet } from '../../../testing/devnet';
import { modelProblems } from '../../../testing/v3';
import { genesisJettonTransfer, genesisWallet } from '../../../testing/wallets';
import { rawUpper } from '../../../ton/address';
import type { ActionJson } from '../models/actions';
import { EmulateResponse, type TraceJson } from '../models/traces';
import type { TransactionJson } from '../models/transactions';

let chain: TestChain;
let alice: TestWallet;
const acc = (name: string) => rawUpper(Address.parse(chain.account(name).address));

type Emulated = { trace: TraceJson | null; rejected: { reason: string; exit_code: number | null } | null; truncated: boolean; total_fees: string; destination: string; external_hash: string; address_book: Record<string, unknown> };

beforeAll(async () => {
  chain = await startTestChain({ seed: 'emulate-route', rounds: 1, index: true });
  alice = await genesisWallet(chain, 'alice');
}, 120_000);
afterAll(() => chain?.close());

const cellOf = (m: Message) => Cell.fromBoc(messageBoc(m))[0]!;

/** Per transaction in lt order: account, internal in-message's opcode and source, success. */
const hops = (txs: TransactionJson[]) =>
  [...txs]
    .sort((a, b) => (BigInt(a.lt) < BigInt(b.lt) ? -1 : 1))
    .map((t) => JSON.stringify({ account: t.account, opcode: t.in_msg?.source ? t.in_msg.opcode : null, source: t.in_msg?.source ?? null, aborted: t.description.aborted ?? false }))
    .sort();
const shape = (as: ActionJson[]) => as.map((a) => ({ type: a.type, success: a.success, details: a.details })).sort((x, y) => x.type.localeCompare(y.type));

/** Emulates `m` (as `encode` pastes it), checks nothing was sent, sends it for real and answers both traces. */
async function emulateThenSend(m: Message, encode: (c: Cell) => string) {
  const cell = cellOf(m);
  const r = await chain.postV3<Emulated>('emulate', { boc: encode(cell) });
  expect(r.status, r.text).toBe(200);
  expect(modelProblems(r.body, EmulateResponse)).toEqual([]);
  // Never sent, never kept: the pending store has nothing of it, and the wallet's seqno did not move.
  const hash = cell.hash().toString('base64');
  expect((await chain.callV3<{ traces: unknown }>('pendingTraces', { ext_msg_hash: hash })).body.traces).toBeNull();
  await chain.seal();
  expect(await chain.lite.open(alice.contract).getSeqno()).toBe(alice.seqno - 1);
  // Now the same message for real.
  expect((await chain.callV2('post', 'sendBoc', { boc: cell.toBoc().toString('base64') })).body.ok).toBe(true);
  await chain.pending!.idle();
  await chain.seal();
  const real = (await chain.callV3<{ traces: TraceJson[] }>('traces', { msg_hash: hash, include_actions: true })).body.traces[0]!;
  return { emulated: r.body, real };
}

describe('POST /emulate', () => {
  it('predicts a TON transfer with a comment (base64): the same transactions and actions the chain then makes, and its fees', async () => {
    const msg = await signedTransfer(alice, [{ to: Address.parse(chain.account('bob').address), value: toNano('0.3'), body: 'emulated hello' }]);
    const { emulated, real } = await emulateThenSend(msg, (c) => c.toBoc().toString('base64'));
    expect(emulated).toMatchObject({ rejected: null, truncated: false, destination: acc('alice'), external_hash: cellOf(msg).hash().toString('base64') });
    expect(emulated.trace).toMatchObject({ trace_id: null, trace_info: { trace_state: 'pending', transactions: 2 } });
    const txs = Object.values(emulated.trace!.transactions!);
    expect(BigInt(emulated.total_fees)).toBe(txs.reduce((s, t) => s + BigInt(t.total_fees), 0n));
    expect(BigInt(emulated.total_fees)).toBeGreaterThan(0n);
    expect(emulated.trace!.actions).toEqual([expect.objectContaining({ type: 'ton_transfer', success: true, details: expect.objectContaining({ source: acc('alice'), destination: acc('bob'), value: toNano('0.3').toString(), comment: 'emulated hello' }) })]);
    expect(emulated.address_book[acc('bob')]).toBeDefined();
    expect(hops(txs)).toEqual(hops(Object.values(real.transactions!)));
    expect(shape(emulated.trace!.actions!)).toEqual(shape(real.actions!));
  }, 60_000);

  it('predicts a 3-hop jetton transfer pasted as hex, equal to the real one', async () => {
    const msg = await genesisJettonTransfer(chain, alice, { to: 'bob', amount: 4321n, comment: 'emulated jettons', queryId: 91n });
    const { emulated, real } = await emulateThenSend(msg, (c) => `0x${c.toBoc().toString('hex').toUpperCase()}`);
    const txs = Object.values(emulated.trace!.transactions!);
    expect(txs.length).toBeGreaterThanOrEqual(4);
    expect(hops(txs)).toEqual(hops(Object.values(real.transactions!)));
    expect(shape(emulated.trace!.actions!)).toEqual(shape(real.actions!));
    expect(emulated.trace!.actions!.find((a) => a.type === 'jetton_transfer')?.details).toMatchObject({ amount: '4321', comment: 'emulated jettons' });
  }, 60_000);

  it('says why the chain would refuse a message: a forged signature, and a seqno already used', async () => {
    const msg = await signedTransfer(alice, [{ to: Address.parse(chain.account('bob').address), value: toNano('0.1') }]);
    alice.seqno -= 1; // never sent
    const body = msg.body.beginParse();
    const signature = body.loadBuffer(64);
    signature[0] ^= 1;
    const forged = cellOf({ ...msg, body: beginCell().storeBuffer(signature).storeSlice(body).endCell() });
    const r = await chain.postV3<Emulated>('emulate', { boc: forged.toBoc().toString('base64') });
    expect(r.status, r.text).toBe(200);
    expect(modelProblems(r.body, EmulateResponse)).toEqual([]);
    expect(r.body).toMatchObject({ trace: null, rejected: { exit_code: 35, reason: expect.stringMatching(/exit code 35/) }, total_fees: '0', destination: acc('alice') });
    // The wallet's interfaces come with the answer, so a page can say what 35 means for it.
    expect(r.body.address_book[acc('alice')]).toMatchObject({ interfaces: expect.arrayContaining([expect.stringMatching(/^wallet_v4/)]) });

    alice.seqno -= 1; // the last message sent, again
    const replay = await signedTransfer(alice, [{ to: Address.parse(chain.account('bob').address), value: toNano('0.1') }]);
    const again = await chain.postV3<Emulated>('emulate', { boc: cellOf(replay).toBoc().toString('base64') });
    expect(again.body.rejected?.exit_code).toBe(33);
  }, 30_000);

  it('answers 422 naming the problem for every bad input', async () => {
    const bad = async (body: unknown) => {
      const r = await chain.postV3('emulate', body);
      expect(r.status, r.text).toBe(422);
      return (r.body as { error: string }).error;
    };
    expect(await bad({})).toBe('boc is required');
    expect(await bad({ boc: '   ' })).toBe('boc is required');
    expect(await bad({ boc: 'not a boc!' })).toBe('invalid boc: boc is not base64');
    expect(await bad({ boc: Buffer.from('hello world').toString('base64') })).toMatch(/^invalid boc: boc is not a bag of cells/);
    expect(await bad({ boc: 'b5ee9c72zz' })).toMatch(/^invalid boc: boc is not/);
    // A bag of cells, but an internal message, or no message at all.
    const inner = beginCell().store((b) => b.storeUint(0, 1)).endCell();
    expect(await bad({ boc: inner.toBoc().toString('base64') })).toBe('invalid boc: not an external inbound message');
    const internalCell = beginCell().store(storeMessageRelaxed(internal({ to: alice.address, value: 1n, body: 'not external' }))).endCell();
    expect(await bad({ boc: internalCell.toBoc().toString('base64') })).toBe('invalid boc: not an external inbound message');
    // Past the BoC size limit.
    expect(await bad({ boc: Buffer.alloc(70 * 1024, 1).toString('base64') })).toMatch(/^invalid boc: boc has \d+ bytes; at most 65536 are allowed/);
    expect(await bad({ boc: 42 })).toMatch(/boc/);
  });
});
