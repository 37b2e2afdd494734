// GET /multisig/wallets and /multisig/orders over a devnet indexed with the derive stage: the genesis
// multisig and its two orders as get_multisig_data and get_order_data answer (v2 runGetMethod runs them
// live at the head the index reached), the decoded order actions, the filters, sort and paging, an order
// executed by a live approval, a wallet without orders (the `null` quirk) and the routes' 422s.
import { Address, beginCell, type Cell, contractAddress, internal, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileMultisigContracts, multisigInit, multisigOrderAddress } from '../../../devnet/contracts/multisig';
import { stablecoinChangeAdminBody, stablecoinChangeMetadataUriBody, stablecoinClaimAdminBody, stablecoinSetStatusBody } from '../../../devnet/contracts/stablecoin';
import { vestingSendBody } from '../../../devnet/contracts/vesting';
import { LIMITS } from '../../../limits';
import { JETTON_TOP_UP_OP, SINGLE_NOMINATOR_OP } from '../../../ton/owner-ops';
import { GENESIS_MULTISIG, GENESIS_QUERY_IDS } from '../../../devnet/genesis/genesis';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { messageBoc, signedTransfer, type Transfer } from '../../../testing/devnet';
import { genesisWallet } from '../../../testing/wallets';
import { modelProblems } from '../../../testing/v3';
import { rawUpper } from '../../../ton/address';
import {
  addressListDict,
  MULTISIG_EXIT,
  MULTISIG_NEXT_SEQNO,
  multisigApproveBody,
  multisigNewOrderBody,
  packMultisigOrder,
  readMultisigData,
  readOrderData,
  type MultisigAction,
} from '../../../ton/multisig';
import { liveGetMethod } from '../../../testing/get-method';
import type { ActionJson } from '../models/actions';
import { type MultisigJson, type MultisigOrderJson, MultisigOrdersResponse, MultisigWalletsResponse } from '../models/multisig';
import type { TransactionJson } from '../models/transactions';

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
    expect(m.orders![0]!.actions).toBeNull();
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
    // toncenter's key is there, null, when the actions are not parsed.
    const unparsed = await chain.callV3('multisig/orders', { address: acc('multisig_order_1') });
    expect((unparsed.body as { orders: { actions: unknown }[] }).orders[0]!.actions).toBeNull();
    expect(unparsed.text).toContain('"actions":null');
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
      ['multisig/wallets', { wallet_address: 'EQ-bad' }, /wallet_address/],
      ['multisig/wallets', { address: acc('multisig'), limit: 'many' }, /limit/],
      ['multisig/wallets', { address: acc('multisig'), offset: 'x' }, /offset/],
      ['multisig/wallets', { address: acc('multisig'), include_orders: 'maybe' }, /include_orders/],
      ['multisig/wallets', { address: Array.from({ length: 1001 }, () => acc('multisig')) }, /1000/],
      ['multisig/orders', { address: '0:XYZ' }, /address/],
      ['multisig/orders', { multisig_address: 'not-an-address' }, /multisig_address/],
      ['multisig/orders', { multisig_address: acc('multisig'), sort: 'up' }, /sort/],
      ['multisig/orders', { multisig_address: acc('multisig'), offset: '1.5' }, /offset/],
      ['multisig/orders', { multisig_address: acc('multisig'), parse_actions: 'perhaps' }, /parse_actions/],
    ];
    for (const [route, query, message] of cases) {
      const r = await chain.callV3<{ error: string }>(route, query);
      expect(r.status, `${route} ${JSON.stringify(query)}`).toBe(422);
      expect(Object.keys(r.body)).toEqual(['error']);
      expect(r.body.error).toMatch(message);
    }
    // As toncenter: limit below 1 is 1, a negative offset is 0, sort takes a/d in any case.
    expect((await orders({ multisig_address: acc('multisig'), limit: 0 })).orders).toHaveLength(1);
    expect((await orders({ multisig_address: acc('multisig'), offset: -5, sort: 'A' })).orders.map((o) => o.order_seqno)).toEqual(['0', '1']);
  });
});

describe('orders of a fresh multisig: every action kind, approval by comment, a forged order, more orders than a wallet lists', () => {
  const FAR = GENESIS_MULTISIG.expiresAt; // the genesis orders' expiration, years past the devnet's clock
  let code: Awaited<ReturnType<typeof compileMultisigContracts>>;
  let msig: Address;
  const at = (a: Address) => rawUpper(a);
  const order = (seqno: bigint) => multisigOrderAddress(code, msig, seqno);

  /** What `multisig` asks a new order of `actions` to bring (get_order_estimate, live). */
  const estimate = async (multisig: Address, actions: MultisigAction[]) => {
    const [cost] = await liveGetMethod(chain, at(multisig), 'get_order_estimate', [['tvm.Cell', packMultisigOrder(actions).toBoc().toString('base64')], ['num', String(FAR)]]);
    return (cost as { value: bigint }).value;
  };

  /** `from` (signer `index`) asks `multisig` for its next order, approving it, with `value` (what the order costs). */
  const newOrder = (multisig: Address, index: number, actions: MultisigAction[], queryId: bigint, value: bigint): Transfer => ({
    to: multisig,
    value,
    bounce: true,
    body: multisigNewOrderBody({ queryId, orderSeqno: MULTISIG_NEXT_SEQNO, isSigner: true, index, expirationDate: FAR, order: packMultisigOrder(actions) }),
  });
  const pay = (to: string, value: bigint, comment: string, sendMode = 3): MultisigAction => ({
    type: 'transfer',
    sendMode,
    message: internal({ to: Address.parse(chain.account(to).address), value, bounce: false, body: comment }),
  });

  beforeAll(async () => {
    code = await compileMultisigContracts();
    const init = multisigInit(code, { threshold: 2, signers: [Address.parse(chain.account('admin').address), Address.parse(chain.account('alice').address)], proposers: [] });
    msig = init.address;
    await send('alice', [{ to: msig, value: toNano('5'), bounce: false, init: init.init, body: beginCell().endCell() }]);
  }, 120_000);

  it('parse_actions decodes each kind an order carries, as written: messages of any send mode, admin bodies, a parameter update', async () => {
    const B = Address.parse(chain.account('bob').address);
    const to = (body: Cell, sendMode: number): MultisigAction => ({ type: 'transfer', sendMode, message: internal({ to: B, value: toNano('0.2'), bounce: true, body }) });
    const actions: MultisigAction[] = [
      pay('carol', toNano('1'), 'rent', 1),
      to(stablecoinChangeAdminBody(msig, 2n), 64),
      to(stablecoinClaimAdminBody(3n), 0),
      to(stablecoinChangeMetadataUriBody('https://example.org/new.json', 4n), 2),
      to(stablecoinSetStatusBody({ owner: B, status: 1, tonAmount: toNano('0.05'), queryId: 5n }), 3),
      to(beginCell().storeUint(JETTON_TOP_UP_OP, 32).storeUint(6, 64).endCell(), 128 + 32),
      to(beginCell().storeUint(SINGLE_NOMINATOR_OP.withdraw, 32).storeUint(7, 64).storeCoins(toNano('10')).endCell(), 1),
      to(beginCell().storeUint(SINGLE_NOMINATOR_OP.changeValidator, 32).storeUint(8, 64).storeAddress(msig).endCell(), 1),
      to(vestingSendBody({ message: internal({ to: B, value: toNano('1'), bounce: false, body: 'vested' }), queryId: 9n }), 1),
      to(beginCell().storeUint(0xdeadbeef, 32).endCell(), 1),
      { type: 'update', threshold: 1, signers: [B], proposers: [msig] },
    ];
    // What get_order_estimate asks is what the multisig takes: half of it is refused (not enough TON).
    const cost = await estimate(msig, actions);
    await send('admin', [newOrder(msig, 0, actions, 1n, cost / 2n)]);
    const r = await chain.callV3<{ transactions: TransactionJson[] }>('transactions', { account: at(msig), limit: 1 });
    expect(r.body.transactions[0]!.description.compute_ph?.exit_code).toBe(MULTISIG_EXIT.notEnoughTon);
    await send('admin', [newOrder(msig, 0, actions, 1n, cost)]);
    const [o] = (await orders({ address: at(order(0n)), parse_actions: true })).orders;
    expect(o).toMatchObject({ ...(await liveOrder(at(order(0n)))), order_boc: packMultisigOrder(actions).toBoc().toString('base64'), approvals_num: 1 });
    expect(o!.actions!.map((a) => [a.parsed_body_type, a.send_mode, a.parsed])).toEqual([
      ['ton_transfer', 1, true],
      ['jetton_change_admin', 64, true],
      ['jetton_claim_admin', 0, true],
      ['jetton_change_content', 2, true],
      ['jetton_call_to', 3, true],
      ['jetton_top_up', 160, true],
      ['single_nominator_withdraw', 1, true],
      ['single_nominator_change_validator', 1, true],
      ['vesting_internal_transfer', 1, true],
      ['unknown', 1, true],
      ['multisig_update_params', null, true],
    ]);
    const body = (i: number) => o!.actions![i]!.parsed_body;
    expect(o!.actions![0]).toMatchObject({ destination: acc('carol'), value: toNano('1').toString(), parsed_body: { comment: 'rent', encrypted: false } });
    expect(body(1)).toEqual({ query_id: 2, new_admin_address: at(msig) });
    expect(body(3)).toEqual({ query_id: 4, new_metadata_url: 'https://example.org/new.json' });
    expect(body(4)).toMatchObject({ query_id: 5, to_address: acc('bob'), action_type: 'JettonSetStatus' });
    expect(body(6)).toEqual({ query_id: 7, coins: toNano('10').toString() });
    expect(body(8)).toMatchObject({ query_id: 9, destination: acc('bob'), value: toNano('1').toString(), comment: 'vested' });
    expect(body(9)).toMatchObject({ opcode: 0xdeadbeef });
    expect(body(10)).toEqual({ new_threshold: 1, new_signers: [acc('bob')], new_proposers: [at(msig)] });
  });

  it('an "approve" comment is an approval with the signer index of its sender', async () => {
    const actions = [pay('carol', toNano('0.5'), 'approved by comment')];
    await send('admin', [newOrder(msig, 0, actions, 2n, await estimate(msig, actions))]);
    await send('alice', [{ to: order(1n), value: toNano('0.1'), bounce: true, body: 'approve' }]);
    const [o] = (await orders({ address: at(order(1n)) })).orders;
    expect(o).toMatchObject({ sent_for_execution: true, approvals_num: 2, approvals_mask: '3' });
    const r = await chain.callV3<{ actions: ActionJson[] }>('actions', { account: acc('alice'), action_type: 'multisig_approve', limit: 10 });
    expect(r.status, r.text).toBe(200);
    const approval = r.body.actions.find((a) => a.details.destination === at(order(1n)));
    expect(approval?.details).toEqual({ signer_index: 1, exit_code: 0, source: acc('alice'), destination: at(order(1n)) });
  });

  it('a contract that claims to be an order of the wallet is not listed as one', async () => {
    // The order's own code, with data that says "order 0 of msig, initialised, approved by alice" from the
    // start: get_order_data answers like a real order of msig, but msig's get_order_address(0) names another address.
    const alice = Address.parse(chain.account('alice').address);
    const data = beginCell()
      .storeAddress(msig)
      .storeUint(0, 256)
      .storeUint(2, 8) // threshold
      .storeBit(false) // sent for execution
      .storeRef(beginCell().storeDictDirect(addressListDict([alice])).endCell())
      .storeUint(0, 256) // approvals mask
      .storeUint(0, 8) // approvals
      .storeUint(FAR, 48)
      .storeRef(packMultisigOrder([pay('alice', toNano('4'), 'forged')]))
      .endCell();
    const forged = contractAddress(0, { code: code.order, data });
    // alice's "approve" deploys it and runs it successfully (she is its only signer).
    await send('alice', [{ to: forged, value: toNano('0.2'), bounce: false, init: { code: code.order, data }, body: 'approve' }]);
    const live = readOrderData(await liveGetMethod(chain, at(forged), 'get_order_data'));
    expect([rawUpper(live.multisig), live.orderSeqno, live.approvalsNum]).toEqual([at(msig), 0n, 1]);

    expect((await orders({ address: at(forged) })).orders).toEqual([]);
    expect((await orders({ multisig_address: at(msig), sort: 'asc' })).orders.map((o) => o.address)).toEqual([at(order(0n)), at(order(1n))]);
    const [m] = (await wallets({ address: at(msig) })).multisigs;
    expect(m!.orders!.map((o) => o.address)).toEqual([at(order(0n)), at(order(1n))]);
  });

  it(`a wallet with more than ${LIMITS.multisigOrdersPerWallet} orders lists its newest ${LIMITS.multisigOrdersPerWallet}; /multisig/orders has them all`, async () => {
    const signers = ['admin', 'alice', 'wallet_v4r2'];
    const init = multisigInit(code, { threshold: 3, signers: signers.map((n) => Address.parse(chain.account(n).address)), proposers: [] });
    const busy = init.address;
    await send('alice', [{ to: busy, value: toNano('1'), bounce: false, init: init.init, body: beginCell().endCell() }]);
    const total = LIMITS.multisigOrdersPerWallet + 1;
    const value = (await estimate(busy, [pay('carol', 1n, `order ${total}`)])) + toNano('0.01');
    let made = 0;
    while (made < total) {
      // One external of 4 new_orders from each signer per block (v4 wallets carry 4 messages).
      const counts = signers.map((_, i) => Math.max(0, Math.min(4, total - made - i * 4)));
      for (const [index, name] of signers.entries()) {
        if (!counts[index]) continue;
        const first = made + index * 4;
        const batch = Array.from({ length: counts[index]! }, (_, i) => newOrder(busy, index, [pay('carol', 1n, `order ${first + i}`)], BigInt(first + i), value));
        const msg = await signedTransfer(await genesisWallet(chain, name), batch);
        expect((await chain.callV2('post', 'sendBoc', { boc: messageBoc(msg).toString('base64') })).status).toBe(200);
      }
      made += counts.reduce((a, b) => a + b, 0);
      await chain.seal();
    }
    const all = (await orders({ multisig_address: at(busy), limit: 1000, sort: 'asc' })).orders;
    expect(all.map((o) => o.order_seqno)).toEqual(Array.from({ length: total }, (_, i) => String(i)));
    const [m] = (await wallets({ address: at(busy) })).multisigs;
    expect(m!.next_order_seqno).toBe(String(total));
    expect(m!.orders!.map((o) => o.address)).toEqual(all.slice(-LIMITS.multisigOrdersPerWallet).map((o) => o.address));
    // Another wallet on the same page keeps its own orders.
    const both = (await wallets({ address: [at(busy), at(msig)], sort: 'asc' })).multisigs;
    expect(both.map((w) => [w.address, w.orders!.length])).toEqual([[at(msig), 2], [at(busy), LIMITS.multisigOrdersPerWallet]]);
  }, 300_000);
});
