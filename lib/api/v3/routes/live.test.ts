/**
 * The v2-style v3 routes on the real devnet: addressInformation/account, walletInformation/wallet and
 * POST message, runGetMethod, estimateFee, compared with what the chain itself says.
 */
import { Address, beginCell, Cell, loadTransaction, storeMessage, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { genesisWallet } from '../../../testing/wallets';
import { signedTransfer } from '../../../testing/devnet';
import { dnsItemIndex } from '../../../devnet/contracts/dns';

let chain: TestChain;

beforeAll(async () => {
  // index: v3 routes run with a database even when they answer live.
  chain = await startTestChain({ seed: 'v3-live', rounds: 1, index: true });
}, 60_000);
afterAll(() => chain?.close());

const head = async () => (await chain.lite.getMasterchainInfo()).last;

describe('addressInformation / account', () => {
  it('answers an active wallet as the chain holds it, under both paths and any address form', async () => {
    const alice = chain.account('alice');
    const st = await chain.lite.getAccountState(Address.parseRaw(alice.address), await head());
    for (const [path, addr] of [
      ['addressInformation', alice.address],
      ['account', alice.friendly.bounceable],
    ] as const) {
      const r = await chain.callV3(path, { address: addr });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ balance: st.balance.coins.toString(), status: 'active', frozen_hash: null, last_transaction_lt: st.lastTx!.lt.toString() });
      const active = st.state!.storage.state;
      expect(active.type).toBe('active');
      if (active.type === 'active') expect(Cell.fromBase64(r.body.code as string).hash().equals(active.state.code!.hash())).toBe(true);
    }
  });

  it('tells uninit, nonexist and frozen accounts apart', async () => {
    expect((await chain.callV3('addressInformation', { address: chain.account('uninit_receiver').address })).body).toMatchObject({ status: 'uninit', code: null });
    expect((await chain.callV3('addressInformation', { address: chain.account('bounce_target').address })).body).toMatchObject({
      status: 'nonexist',
      balance: '0',
      last_transaction_lt: '0',
      last_transaction_hash: Buffer.alloc(32).toString('base64'),
    });
    const frozen = (await chain.callV3('addressInformation', { address: chain.account('frozen').address })).body;
    expect(frozen.status).toBe('frozen');
    expect(frozen.frozen_hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });

  it("answers toncenter's 401 for a missing address, 422 for a malformed one", async () => {
    for (const path of ['addressInformation', 'account', 'walletInformation', 'wallet']) {
      for (const query of [{}, { address: '' }]) {
        expect(await chain.callV3(path, query), path).toMatchObject({ status: 401, body: { error: 'address of account is required' } });
      }
      expect((await chain.callV3(path, { address: 'nope' })).status, path).toBe(422);
    }
  });
});

describe('walletInformation / wallet', () => {
  it('gives wallet type, seqno and wallet id of wallets of several kinds', async () => {
    const alice = await genesisWallet(chain, 'alice');
    const r = await chain.callV3('walletInformation', { address: chain.account('alice').address });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ wallet_type: 'wallet v4 r2', seqno: alice.seqno, wallet_id: 698983191, status: 'active' });
    expect((await chain.callV3('wallet', { address: chain.account('bob').address })).body).toMatchObject({ wallet_type: 'wallet v5 r1', status: 'active' });
    expect((await chain.callV3('wallet', { address: chain.account('wallet_v3r2').address })).body).toMatchObject({ wallet_type: 'wallet v3 r2' });
  });

  it('reads a v5 beta wallet as toncenter does', async () => {
    const r = await chain.callV3('walletInformation', { address: chain.account('wallet_v5beta').address });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ wallet_type: 'wallet v5 beta', seqno: 0, wallet_id: -239, status: 'active' });
  });

  it('answers 409 for a contract that is not a wallet, and the empty shape for an unused address', async () => {
    expect(await chain.callV3('walletInformation', { address: chain.account('jetton_minter').address })).toMatchObject({ status: 409, body: { error: 'not a wallet' } });
    const r = await chain.callV3('walletInformation', { address: chain.account('bounce_target').address });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ balance: '0', last_transaction_lt: '0', last_transaction_hash: Buffer.alloc(32).toString('base64'), status: 'nonexist' });
  });
});

describe('POST runGetMethod', () => {
  it('runs a wallet seqno and a jetton get_wallet_address with a slice argument', async () => {
    const alice = await genesisWallet(chain, 'alice');
    const seqno = await chain.postV3('runGetMethod', { address: chain.account('alice').address, method: 'seqno', stack: [] });
    expect(seqno.status).toBe(200);
    expect(seqno.body).toMatchObject({ exit_code: 0, stack: [{ type: 'num', value: `0x${alice.seqno.toString(16)}` }] });
    expect(seqno.body.gas_used).toBeGreaterThan(0);

    const owner = beginCell().storeAddress(alice.address).endCell().toBoc().toString('base64');
    const r = await chain.postV3('runGetMethod', { address: chain.account('jetton_minter').address, method: 'get_wallet_address', stack: [{ type: 'slice', value: owner }] });
    expect(r.status).toBe(200);
    const [entry] = r.body.stack as { type: string; value: string }[];
    expect(['cell', 'slice']).toContain(entry!.type);
    const addr = Cell.fromBase64(entry!.value).beginParse().loadAddress();
    expect(addr.equals(Address.parseRaw(chain.account('alice_jetton').address))).toBe(true);
  });

  it('takes num stack values as JSON numbers too, exactly past 2^53, as toncenter passes them on', async () => {
    const collection = chain.account('dns_collection').address;
    const byIndex = async (value: unknown) => {
      const body = `{"address":"${collection}","method":"get_nft_address_by_index","stack":[{"type":"num","value":${typeof value === 'string' ? JSON.stringify(value) : String(value)}}]}`;
      const r = await chain.postV3('runGetMethod', body);
      expect(r.status, r.text).toBe(200);
      return Cell.fromBase64((r.body.stack as { value: string }[])[0]!.value).beginParse().loadAddress().toRawString();
    };
    expect(await byIndex(7)).toBe(await byIndex('7'));
    expect(await byIndex(255)).toBe(await byIndex('0xff'));
    expect(await byIndex(255)).not.toBe(await byIndex(7));
    // The index of alice.ton (a 256-bit hash) written as a bare JSON number: no digit may be lost.
    const index = dnsItemIndex('alice');
    expect(await byIndex(index.toString())).toBe(chain.account('alice.ton').address);
    expect(await byIndex(index)).toBe(chain.account('alice.ton').address);
  });

  it('returns a failing exit code as a result, and 422 for bad requests', async () => {
    const r = await chain.postV3('runGetMethod', { address: chain.account('alice').address, method: 'no_such_method', stack: [] });
    expect(r.status).toBe(200);
    expect(r.body.exit_code).not.toBe(0);
    // Missing arguments: toncenter's 401 and words.
    for (const address of [undefined, '']) {
      expect(await chain.postV3('runGetMethod', { address, method: 'seqno', stack: [] })).toMatchObject({ status: 401, body: { error: 'address is required' } });
    }
    for (const method of [undefined, '']) {
      expect(await chain.postV3('runGetMethod', { address: chain.account('alice').address, method, stack: [] })).toMatchObject({ status: 401, body: { error: 'method is required' } });
    }
    expect((await chain.postV3('runGetMethod', { address: 'nope', method: 'seqno', stack: [] })).status).toBe(422);
    expect((await chain.postV3('runGetMethod', { address: chain.account('alice').address, method: 'seqno', stack: [{ type: 'num', value: 'x' }] })).status).toBe(422);
    expect((await chain.postV3('runGetMethod', { address: chain.account('alice').address, method: 'seqno', stack: [{ type: 'num', value: 1.5 }] })).status).toBe(422);
    expect((await chain.postV3('runGetMethod', { address: chain.account('alice').address, method: 'seqno', stack: [{ type: 'cell', value: 7 }] })).status).toBe(422);
    expect((await chain.postV3('runGetMethod', '{not json')).status).toBe(422);
    expect((await chain.postV3('runGetMethod', { address: chain.account('alice').address, method: 'seqno' }, { 'content-type': 'text/plain' })).status).toBe(422);
  });
});

describe('POST message and estimateFee', () => {
  it('estimates the fees of a wallet transfer, sends it, and the transaction pays what was estimated', async () => {
    const alice = await genesisWallet(chain, 'alice');
    const ext = await signedTransfer(alice, [{ to: Address.parseRaw(chain.account('bob').address), value: toNano('1.5'), body: 'v3 live' }]);
    const msg = beginCell().store(storeMessage(ext)).endCell();
    const fee = await chain.postV3('estimateFee', { address: chain.account('alice').address, body: ext.body.toBoc().toString('base64') });
    expect(fee.status).toBe(200);
    const source = fee.body.source_fees as Record<string, number>;
    expect(source.gas_fee).toBeGreaterThan(0);
    expect(source.fwd_fee).toBeGreaterThan(0);
    expect(fee.body.destination_fees).toHaveLength(1);

    const sent = await chain.postV3('message', { boc: msg.toBoc().toString('base64') });
    expect(sent.status).toBe(200);
    expect(sent.body.message_hash).toBe(msg.hash().toString('base64'));
    expect(sent.body.message_hash_norm).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    await chain.seal();
    const after = await chain.callV3('walletInformation', { address: chain.account('alice').address });
    expect(after.body.seqno).toBe(alice.seqno); // signedTransfer advanced it
    const st = await chain.lite.getAccountState(alice.address, await head());
    const txs = await chain.lite.getAccountTransactions(alice.address, st.lastTx!.lt.toString(), Buffer.from(st.lastTx!.hash.toString(16).padStart(64, '0'), 'hex'), 1);
    const tx = loadTransaction(Cell.fromBoc(txs.transactions)[0]!.beginParse());
    const d = tx.description;
    expect(d.type === 'generic' && d.computePhase.type === 'vm' ? Number(d.computePhase.gasFees) : -1).toBe(source.gas_fee);
    expect(d.type === 'generic' ? Number(d.actionPhase?.totalFwdFees ?? 0n) : -1).toBe(source.fwd_fee);
  });

  it('takes empty init_code and init_data as no state init, as toncenter\'s clients send them', async () => {
    const alice = await genesisWallet(chain, 'alice');
    const ext = await signedTransfer(alice, [{ to: Address.parseRaw(chain.account('bob').address), value: toNano('0.1') }]);
    alice.seqno -= 1; // never sent
    const body = { address: chain.account('alice').address, body: ext.body.toBoc().toString('base64') };
    const plain = await chain.postV3('estimateFee', body);
    const empty = await chain.postV3('estimateFee', { ...body, init_code: '', init_data: '' });
    expect(plain.status).toBe(200);
    expect(empty.status, empty.text).toBe(200);
    // The destination's storage fee is counted up to the second each estimate runs, and may tick in between.
    const withoutStorage = (fees: unknown) => (fees as Record<string, number>[]).map(({ storage_fee: _, ...rest }) => rest);
    expect(withoutStorage(empty.body.destination_fees)).toEqual(withoutStorage(plain.body.destination_fees));
    expect((empty.body.source_fees as { gas_fee: number }).gas_fee).toBe((plain.body.source_fees as { gas_fee: number }).gas_fee);
    expect((await chain.postV3('estimateFee', { ...body, init_code: 'not base64!' })).status).toBe(422);
  });

  it("forwards v2 failures with their status, and answers missing arguments as toncenter does", async () => {
    for (const body of [{}, { boc: '' }]) expect(await chain.postV3('message', body)).toMatchObject({ status: 401, body: { error: 'boc is required' } });
    expect((await chain.postV3('message', { boc: 'AAAA' })).status).toBe(422);
    // An external that is not a message at all is refused by the v2 layer (422, forwarded).
    expect((await chain.postV3('message', { boc: beginCell().storeUint(1, 8).endCell().toBoc().toString('base64') })).status).toBe(422);
    expect(await chain.postV3('estimateFee', { body: beginCell().endCell().toBoc().toString('base64') })).toMatchObject({ status: 422 });
    // A bad signature with ignore_chksig=false cannot be applied: the v2 error (500) is forwarded.
    const bad = beginCell().storeBuffer(Buffer.alloc(64)).storeUint(698983191, 32).storeUint(0xffffffff, 32).storeUint(0, 32).storeUint(0, 8).endCell();
    const r = await chain.postV3('estimateFee', { address: chain.account('alice').address, body: bad.toBoc().toString('base64'), ignore_chksig: false });
    expect(r.status).toBe(500);
    expect(r.body.error).toMatch(/cannot apply external message/);
  });

  it('answers 405 for GET on a POST route and POST on a GET route; 404 for unknown paths', async () => {
    expect((await chain.callV3('runGetMethod', {})).status).toBe(405);
    expect((await chain.postV3('transactions', {})).status).toBe(405);
    expect((await chain.postV3('noSuchRoute', {})).status).toBe(404);
  });

  it('documents the POST routes in the OpenAPI document', async () => {
    const { v3OpenApi } = await import('../openapi');
    const doc = v3OpenApi() as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
    for (const path of ['message', 'runGetMethod', 'estimateFee']) expect(doc.paths[`/api/v3/${path}`]!.post!.requestBody).toBeDefined();
    expect(doc.paths['/api/v3/addressInformation']!.get).toBeDefined();
    expect(doc.paths['/api/v3/wallet']!.get).toBeDefined();
  });
});
