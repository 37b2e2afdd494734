// GET /multisig/wallets and /multisig/orders over a devnet indexed with the derive stage: the genesis
// multisig and its two orders as get_multisig_data and get_order_data answer (v2 runGetMethod runs them
// live at the head the index reached), the decoded order actions, the filters, sort and paging, an order
// executed by a live approval, a wallet without orders (the `null` quirk) and the routes' 422s.
import { Address, beginCell, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileMultisigContracts, multisigInit } from '../../../devnet/contracts/multisig';
import { GENESIS_MULTISIG, GENESIS_QUERY_IDS } from '../../../devnet/genesis/genesis';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { messageBoc, signedTransfer, type Transfer } from '../../../testing/devnet';
import { genesisWallet } from '../../../testing/wallets';
import { modelProblems } from '../../../testing/v3';
import { rawUpper } from '../../../ton/address';
import { multisigApproveBody, readMultisigData, readOrderData } from '../../../ton/multisig';
import { liveGetMethod } from '../../../testing/get-method';
import { MultisigOrdersResponse, MultisigWalletsResponse, type MultisigJson, type MultisigOrderJson } from '../models';

let chain: TestChain;
const raw = (a: string) => rawUpper(Address.parse(a));
const acc = (name: string) => raw(chain.account(name).address);

type Book = Record<string, { interfaces: string[] | null }>;
type Wallets = { multisigs: MultisigJson[]; address_book: Book };
type Orders = { orders: MultisigOrderJson[]; address_book: Book };
type Query = Record<string, string | number | boolean | string[]>;

/** What /multisig/orders should say of an order, from its get_order_data. */
async function liveOrder(address: string) {
  const o = readOrderData(await liveGetMethod(chain, address, 'get_order_data'));
  return {
    address,
    multisig_address: rawUpper(o.multisig),
    order_seqno: o.orderSeqno.toString(),
    threshold: o.threshold,
    sent_for_execution: o.sentForExecution,
    signers: o.signers.map((a) => rawUpper(a)),
    approvals_mask: o.approvalsMask!.toString(),
    approvals_num: o.approvalsNum,
    expiration_date: o.expirationDate,
    order_boc: o.order!.toBoc().toString('base64'),
  };
}
const liveMultisig = async (address: string) => readMultisigData(await liveGetMethod(chain, address, 'get_multisig_data'));

const wallets = async (query: Query) => {
  const r = await chain.callV3<Wallets>('multisig/wallets', query);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(modelProblems(r.body, MultisigWalletsResponse)).toEqual([]);
  return r.body;
};
const orders = async (query: Query) => {
  const r = await chain.callV3<Orders>('multisig/orders', query);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(modelProblems(r.body, MultisigOrdersResponse)).toEqual([]);
  return r.body;
};

async function send(from: string, transfers: Transfer[]): Promise<void> {
  const msg = await signedTransfer(await genesisWallet(chain, from), transfers);
  expect((await chain.callV2('post', 'sendBoc', { boc: messageBoc(msg).toString('base64') })).status).toBe(200);
  await chain.seal();
}

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v3-multisig', rounds: 1, index: true, derive: true });
}, 300_000);
afterAll(() => chain?.close());

describe('GET /multisig/wallets', () => {
  it('the genesis multisig as get_multisig_data answers, with its orders and an address book naming every party', async () => {
    const body = await wallets({ address: chain.account('multisig').friendly.bounceable });
    expect(body.multisigs).toHaveLength(1);
    const m = body.multisigs[0]!;
    const live = await liveMultisig(acc('multisig'));
    expect(m).toMatchObject({
      address: acc('multisig'),
      next_order_seqno: live.nextOrderSeqno.toString(),
      threshold: live.threshold,
      signers: live.signers.map((a) => rawUpper(a)),
      proposers: live.proposers.map((a) => rawUpper(a)),
    });
    expect(m.signers).toEqual(GENESIS_MULTISIG.signers.map(acc));
    expect(m.proposers).toEqual([acc('admin')]);
    expect(m.next_order_seqno).toBe('2');
    expect(m.orders!.map((o) => o.address)).toEqual([acc('multisig_order_0'), acc('multisig_order_1')]);
    expect(m.orders![0]!.actions).toBeUndefined();
    for (const a of [m.address, ...m.signers, ...m.proposers, ...m.orders!.map((o) => o.address)]) expect(Object.keys(body.address_book)).toContain(a);
    expect(body.address_book[acc('multisig')]!.interfaces).toEqual(['multisig_v2']);
    expect(body.address_book[acc('multisig_order_0')]!.interfaces).toEqual(['multisig_order_v2']);
  });

  it('wallet_address finds the wallets of a signer or a proposer; include_orders=false leaves orders empty', async () => {
    const addressesOf = async (q: Query) => (await wallets(q)).multisigs.map((m) => m.address);
    expect(await addressesOf({ wallet_address: acc('alice') })).toEqual([acc('multisig')]);
    expect(await addressesOf({ wallet_address: chain.account('admin').friendly.nonBounceable })).toEqual([acc('multisig')]);
    expect(await addressesOf({ wallet_address: [acc('bob'), acc('wallet_v4r2')] })).toEqual([acc('multisig')]);
    expect(await addressesOf({ wallet_address: acc('wallet_v4r2') })).toEqual([]);
    expect(await addressesOf({ address: acc('multisig'), wallet_address: acc('wallet_v4r2') })).toEqual([]);
    expect(await addressesOf({ address: acc('multisig'), offset: 1 })).toEqual([]);
    expect((await wallets({ address: acc('multisig'), include_orders: false })).multisigs[0]!.orders).toEqual([]);
  });
});

describe('GET /multisig/orders', () => {
  it('orders as get_order_data answers; parse_actions decodes the TON payment and the jetton transfer', async () => {
    const body = await orders({ multisig_address: acc('multisig'), parse_actions: true, sort: 'asc' });
    expect(body.orders.map((o) => o.address)).toEqual([acc('multisig_order_0'), acc('multisig_order_1')]);
    for (const o of body.orders) expect(o).toMatchObject(await liveOrder(o.address));
    const [executed, pending] = body.orders;
    expect(executed).toMatchObject({ order_seqno: '0', sent_for_execution: true, approvals_num: 2, approvals_mask: '3' });
    expect(pending).toMatchObject({ order_seqno: '1', sent_for_execution: false, approvals_num: 1, approvals_mask: '4' });
    const M = GENESIS_MULTISIG;
    expect(executed!.actions).toEqual([
      expect.objectContaining({
        destination: acc(M.payment.to),
        value: M.payment.value.toString(),
        parsed: true,
        error: null,
        parsed_body_type: 'ton_transfer',
        parsed_body: { comment: M.payment.comment, encrypted: false },
        send_mode: 3,
      }),
      expect.objectContaining({
        destination: acc('multisig_jetton'),
        value: toNano('0.1').toString(),
        parsed: true,
        parsed_body_type: 'jetton_transfer',
        parsed_body: expect.objectContaining({
          query_id: Number(GENESIS_QUERY_IDS.multisigCreate),
          amount: M.atlasToCarol.toString(),
          destination: acc('carol'),
          response: acc('multisig'),
          forward_amount: '0',
        }),
      }),
    ]);
    for (const a of [acc('multisig'), acc('alice'), acc('bob'), acc('carol'), ...body.orders.map((o) => o.address)]) expect(Object.keys(body.address_book)).toContain(a);
  });

  it('by address, sorted by first appearance desc by default, paged', async () => {
    const addressesOf = async (q: Query) => (await orders(q)).orders.map((o) => o.address);
    const both = [acc('multisig_order_0'), acc('multisig_order_1')];
    expect(await addressesOf({ multisig_address: acc('multisig') })).toEqual([...both].reverse());
    expect(await addressesOf({ address: both, sort: 'asc' })).toEqual(both);
    expect(await addressesOf({ address: both, limit: 1, offset: 1 })).toEqual([both[0]]);
    expect(await addressesOf({ address: acc('multisig_order_1'), multisig_address: acc('alice') })).toEqual([]);
    expect((await orders({ address: acc('multisig_order_1') })).orders[0]!.actions).toBeUndefined();
  });

  it("alice's approval executes the pending order: the index follows get_order_data and get_multisig_data", async () => {
    await send('alice', [{ to: Address.parse(chain.account('multisig_order_1').address), value: toNano('0.1'), bounce: true, body: multisigApproveBody(0, 5n) }]);
    const [o] = (await orders({ address: acc('multisig_order_1') })).orders;
    expect(o).toMatchObject({ ...(await liveOrder(acc('multisig_order_1'))), sent_for_execution: true, approvals_num: 2, approvals_mask: '5' });
    const [m] = (await wallets({ address: acc('multisig') })).multisigs;
    expect(m!.last_transaction_lt).not.toBe('0');
    expect(m!.next_order_seqno).toBe((await liveMultisig(acc('multisig'))).nextOrderSeqno.toString());
  });
});

describe('a multisig without orders, and bad requests', () => {
  it('orders is null when asked for and there are none [quirk]', async () => {
    const code = await compileMultisigContracts();
    const init = multisigInit(code, { threshold: 1, signers: [Address.parse(chain.account('alice').address)], proposers: [] });
    await send('alice', [{ to: init.address, value: toNano('1'), bounce: false, init: init.init, body: beginCell().endCell() }]);
    const body = await wallets({ wallet_address: acc('alice'), sort: 'asc' });
    expect(body.multisigs.map((m) => m.address)).toEqual([acc('multisig'), rawUpper(init.address)]);
    expect(body.multisigs[1]!.orders).toBeNull();
    expect(body.multisigs[1]).toMatchObject({ threshold: 1, signers: [acc('alice')], proposers: [], next_order_seqno: '0' });
    expect((await wallets({ wallet_address: acc('alice') })).multisigs.map((m) => m.address)).toEqual([rawUpper(init.address), acc('multisig')]);
  });

  it('422 without a filter and for bad addresses, limits and sorts', async () => {
    const cases: [string, Query, RegExp][] = [
      ['multisig/wallets', {}, /^At least one of address or wallet_address should be specified$/],
      ['multisig/orders', {}, /^At least one of address or multisig_address should be specified$/],
      ['multisig/wallets', { address: 'not-an-address' }, /address/],
      ['multisig/orders', { multisig_address: acc('multisig'), limit: 1001 }, /^limit is not allowed: 1001 > 1000$/],
      ['multisig/wallets', { address: acc('multisig'), sort: 'sideways' }, /sort/],
    ];
    for (const [route, query, message] of cases) {
      const r = await chain.callV3<{ error: string }>(route, query);
      expect(r.status, `${route} ${JSON.stringify(query)}`).toBe(422);
      expect(r.body.error).toMatch(message);
    }
  });
});
