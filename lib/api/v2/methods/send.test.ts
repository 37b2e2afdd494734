import { Address, beginCell, Cell, contractAddress, Dictionary, internal, loadMessage, loadTransaction, storeMessage, toNano, type Message } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWallet, messageBoc, signedTransfer, type TestWallet } from '../../../testing/devnet';
import { normalizedHash } from '../../../ton/normalized-hash';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { genesisWallet } from '../../../testing/wallets';
import { cellObject, newExpansion } from '../stack';

type Obj = Record<string, unknown>;
type Fees = { in_fwd_fee: number; storage_fee: number; gas_fee: number; fwd_fee: number };

let chain: TestChain;
let alice: TestWallet;
let bob: Address;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v2-send', rounds: 1 });
  alice = await genesisWallet(chain, 'alice');
  bob = Address.parse(chain.account('bob').address);
}, 60_000);
afterAll(() => chain?.close());

const POST_MODES = ['post', 'rpc'] as const;
const b64 = (m: Message) => messageBoc(m).toString('base64');
const cellOf = (m: Message) => Cell.fromBoc(messageBoc(m))[0]!;

async function newestTx(address: Address) {
  const r = await chain.callV2('post', 'getTransactions', { address: address.toRawString(), limit: 1 });
  return (r.body.result as Obj[])[0] as { transaction_id: Obj; data: string; in_msg: Obj; out_msgs: Obj[] };
}

describe.each(POST_MODES)('sending over %s', (mode) => {
  it('sendBoc submits a signed transfer that lands after the next block', async () => {
    const comment = `sent over ${mode}`;
    const msg = await signedTransfer(alice, [{ to: bob, value: toNano('0.5'), body: comment }]);
    const r = await chain.callV2(mode, 'sendBoc', { boc: b64(msg) });
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual({ '@type': 'ok' });
    await chain.seal();
    const tx = await newestTx(alice.address);
    expect(tx.in_msg.hash).toBe(cellOf(msg).hash().toString('base64'));
    expect(tx.out_msgs[0]).toMatchObject({ destination: bob.toString({ bounceable: true, urlSafe: true }), value: toNano('0.5').toString(), message: comment });
  });

  it('sendBocReturnHash answers the hash and the normalized hash', async () => {
    const msg = await signedTransfer(alice, [{ to: bob, value: toNano('0.1') }]);
    const r = await chain.callV2(mode, 'sendBocReturnHash', { boc: b64(msg) });
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual({
      '@type': 'raw.extMessageInfo',
      hash: cellOf(msg).hash().toString('base64'),
      hash_norm: normalizedHash(loadMessage(cellOf(msg).beginParse()))!.toString('base64'),
    });
    await chain.seal();
    expect((await newestTx(alice.address)).in_msg.hash).toBe((r.body.result as Obj).hash);
  });

  it('a message the wallet rejects (replayed seqno) is 500, or 400 from sendBocReturnHashNoError', async () => {
    const msg = await signedTransfer(alice, [{ to: bob, value: toNano('0.1') }]);
    expect((await chain.callV2(mode, 'sendBoc', { boc: b64(msg) })).status).toBe(200);
    await chain.seal();
    const again = await chain.callV2(mode, 'sendBoc', { boc: b64(msg) });
    expect(again.status).toBe(500);
    expect(again.body.error).toMatch(/cannot apply external message to current state/);
    const noError = await chain.callV2(mode, 'sendBocReturnHashNoError', { boc: b64(msg) });
    expect(noError.status).toBe(400);
    expect(noError.body).toMatchObject({ ok: false, code: 400 });
    expect(noError.body.error).toMatch(/cannot apply external message/);
  });

  it.each([
    ['missing boc', {}, /boc is required/],
    ['empty boc', { boc: '' }, /boc is empty/],
    ['bad base64', { boc: '!!not base64!!' }, /invalid boc/],
    ['base64 that is no BoC', { boc: Buffer.from('hello').toString('base64') }, /invalid boc/],
  ])('sendBoc: 422 for %s', async (_, params, message) => {
    const r = await chain.callV2(mode, 'sendBoc', params);
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(message);
  });

  it('sendBocReturnHash: 422 for an internal message', async () => {
    const msg = internal({ to: bob, value: 1n });
    const boc = beginCell().store(storeMessage({ info: { ...msg.info, src: alice.address, createdLt: 0n, createdAt: 0, ihrFee: 0n, forwardFee: 0n, bounced: false } as never, body: msg.body }))
      .endCell()
      .toBoc()
      .toString('base64');
    const r = await chain.callV2(mode, 'sendBocReturnHash', { boc });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/not an external inbound message/);
  });
});

const bocOf = (c: Cell) => c.toBoc().toString('base64');

/** The external message tonlib's raw.createQuery builds: from addr_none, no import fee, init and body each in a reference. */
const tonlibQuery = (dest: Address, body: Cell, init?: { code: Cell; data: Cell }) =>
  beginCell().store(storeMessage({ info: { type: 'external-in', dest, importFee: 0n }, init, body }, { forceRef: true })).endCell();

describe.each(POST_MODES)('sendQuery over %s', (mode) => {
  it('builds the external message from address and body as tonlib does, and it lands', async () => {
    const comment = `a query over ${mode}`;
    const msg = await signedTransfer(alice, [{ to: bob, value: toNano('0.3'), body: comment }]);
    const r = await chain.callV2(mode, 'sendQuery', { address: alice.address.toString(), body: bocOf(msg.body) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result).toEqual({ '@type': 'ok' });
    await chain.seal();
    const tx = await newestTx(alice.address);
    expect(tx.in_msg.hash).toBe(tonlibQuery(alice.address, msg.body).hash().toString('base64'));
    expect(tx.out_msgs[0]).toMatchObject({ destination: bob.toString({ bounceable: true, urlSafe: true }), message: comment });
  });

  it('with init_code and init_data it deploys the contract; sendQuerySimple takes the parts as cell objects', async () => {
    for (const method of ['sendQuery', 'sendQuerySimple'] as const) {
      const fresh = makeWallet(`query-${method}-${mode}`, 'v4');
      const wallet = fresh.contract as WalletContractV4;
      expect((await chain.callV2(mode, 'sendBoc', { boc: b64(await signedTransfer(alice, [{ to: wallet.address, value: toNano('1') }])) })).status).toBe(200);
      await chain.seal();
      const body = wallet.createTransfer({ seqno: 0, secretKey: fresh.keys.secretKey, messages: [internal({ to: bob, value: toNano('0.05'), body: method })] });
      const { code, data } = wallet.init;
      const parts =
        method === 'sendQuery'
          ? { body: bocOf(body), init_code: bocOf(code), init_data: bocOf(data) }
          : { body: cellObject(body, newExpansion()), init_code: cellObject(code, newExpansion()), init_data: cellObject(data, newExpansion()) };
      const r = await chain.callV2(mode, method, { address: wallet.address.toString(), ...parts });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.result).toEqual({ '@type': 'ok' });
      await chain.seal();
      const info = await chain.callV2(mode, 'getWalletInformation', { address: wallet.address.toRawString() });
      expect(info.body.result, method).toMatchObject({ wallet: true, wallet_type: 'wallet v4 r2', seqno: 1, account_state: 'active' });
      const tx = await newestTx(wallet.address);
      expect(tx.in_msg.hash).toBe(tonlibQuery(wallet.address, body, { code, data }).hash().toString('base64'));
      expect(tx.out_msgs[0]).toMatchObject({ message: method });
    }
  });

  it.each([
    ['sendQuery', 'missing body', { address: `0:${'00'.repeat(32)}` }, 422, /body is required/],
    ['sendQuery', 'empty body', { address: `0:${'00'.repeat(32)}`, body: '' }, 422, /body is empty/],
    ['sendQuery', 'bad init_code', { address: `0:${'00'.repeat(32)}`, body: bocOf(beginCell().endCell()), init_code: '%%' }, 422, /invalid init_code/],
    ['sendQuery', 'bad address', { address: 'nope', body: bocOf(beginCell().endCell()) }, 422, /invalid address/],
    ['sendQuerySimple', 'a cell object without data', { address: `0:${'00'.repeat(32)}`, body: { refs: [] } }, 400, /^Error while parsing cell object: body is not/],
    ['sendQuerySimple', 'more bits than the bytes hold', { address: `0:${'00'.repeat(32)}`, body: { data: { b64: 'AA==', len: 9 } } }, 400, /body\.data\.len/],
    ['sendQuerySimple', 'five refs', { address: `0:${'00'.repeat(32)}`, body: { data: { b64: '', len: 0 }, refs: Array(5).fill({ data: { b64: '', len: 0 } }) } }, 400, /at most 4/],
  ])('%s: %s is %i', async (method, _, params, status, message) => {
    const r = await chain.callV2(mode, method, params);
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(r.body).toMatchObject({ ok: false, code: status });
    expect(r.body.error).toMatch(message);
  });

  it('a message the account refuses is 500, as sendBoc', async () => {
    const r = await chain.callV2(mode, 'sendQuery', { address: `0:${'00'.repeat(31)}07`, body: bocOf(beginCell().endCell()) });
    expect(r.status).toBe(500);
    expect(r.body.error).toMatch(/cannot apply external message/);
  });
});

describe.each(POST_MODES)('estimateFee over %s', (mode) => {
  it('gives the fees the transaction then really pays, on both sides', async () => {
    const msg = await signedTransfer(alice, [{ to: bob, value: toNano('0.2'), body: 'fee check' }]);
    const r = await chain.callV2(mode, 'estimateFee', { address: alice.address.toString(), body: msg.body.toBoc().toString('base64') });
    expect(r.status).toBe(200);
    const res = r.body.result as { '@type': string; source_fees: Fees & Obj; destination_fees: (Fees & Obj)[] };
    expect(res['@type']).toBe('query.fees');
    expect(res.source_fees['@type']).toBe('fees');
    for (const k of ['in_fwd_fee', 'storage_fee', 'gas_fee', 'fwd_fee'] as const) expect(typeof res.source_fees[k]).toBe('number');

    expect((await chain.callV2(mode, 'sendBoc', { boc: b64(msg) })).status).toBe(200);
    await chain.seal();
    const sent = loadTransaction(Cell.fromBoc(Buffer.from((await newestTx(alice.address)).data, 'base64'))[0]!.beginParse());
    const d = sent.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm') throw new Error('expected an ordinary transaction');
    expect(res.source_fees.gas_fee).toBe(Number(d.computePhase.gasFees));
    expect(res.source_fees.fwd_fee).toBe(Number(d.actionPhase!.totalFwdFees));
    expect(res.source_fees.gas_fee).toBeGreaterThan(0);
    expect(res.source_fees.fwd_fee).toBeGreaterThan(0);
    const storage = Number(d.storagePhase?.storageFeesCollected ?? 0n);
    // Storage is charged for the seconds since the last transaction: the estimate ran a moment earlier.
    expect(Math.abs(res.source_fees.storage_fee - storage)).toBeLessThanOrEqual(Math.max(5, storage / 10));
    expect(res.source_fees.in_fwd_fee).toBe(Number(sent.totalFees.coins) - storage - Number(d.computePhase.gasFees) - Number(d.actionPhase!.totalActionFees ?? 0n));
    expect(res.source_fees.in_fwd_fee).toBeGreaterThan(0);

    // bob's side: the transfer's receipt.
    expect(res.destination_fees).toHaveLength(1);
    const received = loadTransaction(Cell.fromBoc(Buffer.from((await newestTx(bob)).data, 'base64'))[0]!.beginParse());
    const rd = received.description;
    if (rd.type !== 'generic' || rd.computePhase.type !== 'vm') throw new Error('expected an ordinary transaction');
    expect(res.destination_fees[0]).toMatchObject({ '@type': 'fees', in_fwd_fee: 0, gas_fee: Number(rd.computePhase.gasFees), fwd_fee: 0 });
  });

  it('ignore_chksig decides whether a bad signature passes', async () => {
    const msg = await signedTransfer(alice, [{ to: bob, value: 1n }]);
    alice.seqno -= 1; // never sent
    const s = msg.body.beginParse();
    s.skip(512);
    const forged = beginCell().storeBuffer(Buffer.alloc(64, 7)).storeSlice(s).endCell().toBoc().toString('base64');
    const lenient = await chain.callV2(mode, 'estimateFee', { address: alice.address.toRawString(), body: forged });
    expect(lenient.status).toBe(200);
    const strict = await chain.callV2(mode, 'estimateFee', { address: alice.address.toRawString(), body: forged, ignore_chksig: false });
    expect(strict.status).toBe(500);
    expect(strict.body.error).toMatch(/cannot apply external message/);
  });

  it('a deployment whose code is a library cell runs with the library the chain publishes', async () => {
    const fresh = makeWallet(`lib-${mode}`, 'v4');
    const wallet = fresh.contract as WalletContractV4;
    const v4 = wallet.init;
    const libs = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    libs.set(v4.code.hash(), v4.code);
    chain.devnet.chain.blockchain.libs = beginCell().storeDictDirect(libs).endCell();
    // A library cell: type 2, then the library's hash.
    const libraryCell = (hash: Buffer) => beginCell().storeUint(2, 8).storeBuffer(hash).endCell({ exotic: true });
    const deploy = async (code: Cell) => {
      const at = contractAddress(0, { code, data: v4.data });
      const fund = await signedTransfer(alice, [{ to: at, value: toNano('1') }]);
      expect((await chain.callV2(mode, 'sendBoc', { boc: b64(fund) })).status).toBe(200);
      await chain.seal();
      const body = wallet.createTransfer({ seqno: 0, secretKey: fresh.keys.secretKey, messages: [internal({ to: bob, value: toNano('0.05') })] });
      const boc = (c: Cell) => c.toBoc().toString('base64');
      return chain.callV2(mode, 'estimateFee', { address: at.toRawString(), body: boc(body), init_code: boc(code), init_data: boc(v4.data) });
    };
    const r = await deploy(libraryCell(v4.code.hash()));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const res = r.body.result as { source_fees: Fees; destination_fees: Fees[] };
    expect(res.source_fees.gas_fee).toBeGreaterThan(0);
    expect(res.destination_fees).toHaveLength(1);
    // A library the chain does not publish cannot run: the same deployment fails.
    const unknown = await deploy(libraryCell(Buffer.alloc(32, 0xab)));
    expect(unknown.status).toBe(500);
  });

  it('an account without code cannot take an external: 500', async () => {
    const r = await chain.callV2(mode, 'estimateFee', { address: `0:${'00'.repeat(31)}07`, body: beginCell().endCell().toBoc().toString('base64') });
    expect(r.status).toBe(500);
  });

  it.each([
    ['missing address', { body: beginCell().endCell().toBoc().toString('base64') }, /address is required/],
    ['missing body', { address: `0:${'00'.repeat(32)}` }, /body is required/],
    ['bad body', { address: `0:${'00'.repeat(32)}`, body: '%%%' }, /invalid body/],
    ['bad init_code', { address: `0:${'00'.repeat(32)}`, body: beginCell().endCell().toBoc().toString('base64'), init_code: 'AAAA' }, /invalid init_code/],
  ])('422 for %s', async (_, params, message) => {
    const r = await chain.callV2(mode, 'estimateFee', params);
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(message);
  });
});

describe('send methods are POST only', () => {
  it.each(['sendBoc', 'sendBocReturnHash', 'sendBocReturnHashNoError', 'estimateFee', 'sendQuery', 'sendQuerySimple'])('GET %s is 405', async (method) => {
    const r = await chain.callV2('get', method, { boc: 'x' });
    expect(r.status).toBe(405);
    expect(r.body).toMatchObject({ ok: false, code: 405 });
  });
});
