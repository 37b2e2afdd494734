// Account routes over a real database: latest_account_states rows built from real Account cells, with
// real wallet (@ton/ton) and token (@ton-community/assets-sdk) contract code.
import { Address, beginCell, Cell } from '@ton/core';
import { WalletContractV1R1, WalletContractV3R2, WalletContractV4, WalletContractV5Beta, WalletContractV5R1 } from '@ton/ton';
import { jettonMinterCode } from '@ton-community/assets-sdk/dist/jetton/contracts/build/jetton-minter';
import { jettonWalletCode } from '@ton-community/assets-sdk/dist/jetton/contracts/build/jetton-wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountBalances, AccountStatesResponse, WalletStatesResponse } from '../models/accounts';
import { AddressBook, Metadata } from '../models/common';
import { accountCell, fixtureDatabase, insertAccountState, modelProblems, type AccountSpec, type FixtureDatabase } from '../../../testing/v3';

let db: FixtureDatabase;
const pub = Buffer.alloc(32, 9);
const addr = (n: number) => `0:${n.toString(16).padStart(2, '0').repeat(32).toUpperCase()}`;
const friendly = (a: string, bounceable: boolean) => Address.parseRaw(a).toString({ bounceable, urlSafe: true });

const V1 = addr(1);
const V3 = addr(2);
const V4 = addr(3);
const V5 = addr(4);
const V5OFF = addr(5);
const V5BETA = addr(6);
const JETTON_WALLET = addr(7);
const JETTON_MASTER = addr(8);
const UNINIT = addr(9);
const FROZEN = addr(10);
const NEVER_SEEN = addr(11);

const jettonWallet = Cell.fromBase64(jettonWalletCode.codeBoc);
const jettonMaster = Cell.fromBase64(jettonMinterCode.codeBoc);
const v5 = WalletContractV5R1.create({ workchain: 0, publicKey: pub });
const v5data = (allowed: boolean, seqno: number) => beginCell().storeBit(allowed).storeUint(seqno, 32).storeUint(2147483409, 32).storeBuffer(pub).storeBit(0).endCell();

const specs: AccountSpec[] = [
  { address: V1, balance: 1n, code: WalletContractV1R1.create({ workchain: 0, publicKey: pub }).init.code, data: beginCell().storeUint(3, 32).storeBuffer(pub).endCell() },
  { address: V3, balance: 2n * 10n ** 9n, code: WalletContractV3R2.create({ workchain: 0, publicKey: pub }).init.code, data: beginCell().storeUint(41, 32).storeUint(698983191, 32).storeBuffer(pub).endCell() },
  { address: V4, balance: 7n * 10n ** 9n, code: WalletContractV4.create({ workchain: 0, publicKey: pub }).init.code, data: beginCell().storeUint(12, 32).storeUint(698983191, 32).storeBuffer(pub).storeBit(0).endCell(), extraCurrencies: { '239': '5', '100': '7' } },
  { address: V5, balance: 5n * 10n ** 9n, code: v5.init.code, data: v5data(true, 77), lastTransLt: 56269616000005n, lastTransHash: Buffer.alloc(32, 0xab) },
  { address: V5OFF, balance: 3n, code: v5.init.code, data: v5data(false, 78) },
  { address: V5BETA, balance: 4n, code: WalletContractV5Beta.create({ publicKey: pub }).init.code, data: beginCell().storeInt(9, 33).storeUint(0x12345678, 32).storeUint(0, 48).storeBuffer(pub).storeBit(0).endCell() },
  { address: JETTON_WALLET, balance: 10n ** 8n, code: jettonWallet, data: Cell.EMPTY },
  { address: JETTON_MASTER, balance: 10n ** 10n, code: jettonMaster, data: Cell.EMPTY },
  { address: UNINIT, balance: 1000n, status: 'uninit' },
  { address: FROZEN, balance: 0n, status: 'frozen' },
];

beforeAll(async () => {
  db = await fixtureDatabase({ blocks: false });
  for (const s of specs) await insertAccountState(db.db.prisma, s);
});
afterAll(() => db.drop());

describe('GET /topAccountsByBalance', () => {
  it('a bare array, balance desc', async () => {
    const r = await db.callV3<{ account: string; balance: string }[]>('topAccountsByBalance');
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, AccountBalances)).toEqual([]);
    expect(r.body.slice(0, 4)).toEqual([
      { account: JETTON_MASTER, balance: '10000000000' },
      { account: V4, balance: '7000000000' },
      { account: V5, balance: '5000000000' },
      { account: V3, balance: '2000000000' },
    ]);
    expect(r.body).toHaveLength(specs.length);
    expect((await db.callV3<unknown[]>('topAccountsByBalance', { limit: 2, offset: 1 })).body).toEqual(r.body.slice(1, 3));
  });

  it('limit errors are 422', async () => {
    const r = await db.callV3('topAccountsByBalance', { limit: 1001 });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ error: 'limit is not allowed: 1001 > 1000' });
  });
});

describe('GET /addressBook', () => {
  it('keyed by the inputs as given, user-friendly by the bounceable rule, interfaces from the code', async () => {
    const v4friendly = Address.parseRaw(V4).toString({ bounceable: true, urlSafe: false });
    const inputs = [V4.toLowerCase(), v4friendly, JETTON_WALLET, UNINIT, NEVER_SEEN, 'not-an-address', `${V1},${V3}`];
    const r = await db.callV3<Record<string, unknown>>('addressBook', { address: inputs });
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, AddressBook)).toEqual([]);
    expect(Object.keys(r.body)).toEqual([...inputs].sort());
    const wallet = { user_friendly: friendly(V4, false), domain: null, interfaces: ['wallet_v4r2'] };
    expect(r.body[V4.toLowerCase()]).toEqual(wallet);
    expect(r.body[v4friendly]).toEqual(wallet);
    expect(r.body[JETTON_WALLET]).toEqual({ user_friendly: friendly(JETTON_WALLET, true), domain: null, interfaces: ['jetton_wallet'] });
    expect(r.body[UNINIT]).toEqual({ user_friendly: friendly(UNINIT, false), domain: null, interfaces: null });
    expect(r.body[NEVER_SEEN]).toEqual({ user_friendly: friendly(NEVER_SEEN, false), domain: null, interfaces: [] });
    expect(r.body['not-an-address']).toEqual({ user_friendly: null, domain: null, interfaces: [] });
    expect(r.body[`${V1},${V3}`]).toEqual({ user_friendly: null, domain: null, interfaces: [] });
  });

  it('422 without addresses', async () => {
    const r = await db.callV3('addressBook');
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ error: 'at least 1 address required' });
  });
});

describe('GET /metadata', () => {
  it('token contracts only, keyed by raw address, not indexed yet', async () => {
    const r = await db.callV3<Record<string, unknown>>('metadata', { address: [JETTON_WALLET.toLowerCase(), friendly(JETTON_MASTER, true), V4, 'bad', NEVER_SEEN] });
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, Metadata)).toEqual([]);
    expect(r.body).toEqual({ [JETTON_WALLET]: { is_indexed: false, token_info: [] }, [JETTON_MASTER]: { is_indexed: false, token_info: [] } });
    expect(Object.keys(r.body)).toEqual([JETTON_WALLET, JETTON_MASTER].sort());
    expect((await db.callV3('metadata')).status).toBe(422);
  });
});

type States = { accounts: Record<string, unknown>[]; address_book: Record<string, unknown>; metadata: Record<string, unknown> };

describe('GET /accountStates', () => {
  it('latest states in the order asked, with BoCs, methods and interfaces', async () => {
    const r = await db.callV3<States>('accountStates', { address: [JETTON_WALLET, V4, UNINIT, FROZEN, NEVER_SEEN] });
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, AccountStatesResponse)).toEqual([]);
    expect(r.body.accounts.map((a) => a.address)).toEqual([JETTON_WALLET, V4, UNINIT, FROZEN]);
    const spec = specs.find((s) => s.address === JETTON_WALLET)!;
    expect(r.body.accounts[0]).toEqual({
      address: JETTON_WALLET,
      account_state_hash: accountCell(spec).hash().toString('base64'),
      balance: '100000000',
      extra_currencies: null,
      status: 'active',
      last_transaction_hash: Buffer.alloc(32, 7).toString('base64'),
      last_transaction_lt: '1',
      data_hash: Cell.EMPTY.hash().toString('base64'),
      code_hash: jettonWallet.hash().toString('base64'),
      data_boc: Cell.EMPTY.toBoc().toString('base64'),
      code_boc: jettonWallet.toBoc().toString('base64'),
      contract_methods: [0, 1, 8, 9, 10, 11, 97026],
      interfaces: ['jetton_wallet'],
    });
    expect(r.body.accounts[1]).toMatchObject({ extra_currencies: { '100': '7', '239': '5' }, interfaces: ['wallet_v4r2'] });
    expect(Object.keys(r.body.accounts[1]!.extra_currencies as object)).toEqual(['100', '239']);
    expect(r.body.accounts[2]).toEqual({
      address: UNINIT,
      account_state_hash: accountCell(specs.find((s) => s.address === UNINIT)!).hash().toString('base64'),
      balance: '1000',
      extra_currencies: null,
      status: 'uninit',
      last_transaction_hash: Buffer.alloc(32, 7).toString('base64'),
      last_transaction_lt: '1',
      contract_methods: null,
      interfaces: [],
    });
    expect(r.body.accounts[3]).toMatchObject({ status: 'frozen', frozen_hash: expect.any(String) });
    expect(Object.keys(r.body.address_book)).toEqual([FROZEN, JETTON_WALLET, UNINIT, V4].sort());
    expect(r.body.metadata).toEqual({ [JETTON_WALLET]: { is_indexed: false, token_info: [] } });
  });

  it('include_boc=false leaves the BoCs out; code_hash filters', async () => {
    const r = await db.callV3<States>('accountStates', { address: [JETTON_WALLET, JETTON_MASTER], include_boc: 'false' });
    expect(r.body.accounts).toHaveLength(2);
    for (const a of r.body.accounts) {
      expect(a).not.toHaveProperty('code_boc');
      expect(a).not.toHaveProperty('data_boc');
    }
    expect(r.body.accounts[1]).toMatchObject({ interfaces: ['jetton_master'] });
    const byCode = await db.callV3<States>('accountStates', { address: [JETTON_WALLET, JETTON_MASTER], code_hash: jettonMaster.hash().toString('hex') });
    expect(byCode.body.accounts.map((a) => a.address)).toEqual([JETTON_MASTER]);
  });

  it('422 without an address', async () => {
    const r = await db.callV3('accountStates', { include_boc: 'true' });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ error: 'address of account is required' });
  });
});

describe('GET /walletStates', () => {
  it('wallet fields read from the data of each standard wallet code', async () => {
    const r = await db.callV3<{ wallets: Record<string, unknown>[] }>('walletStates', { address: [V1, V3, V4, V5, V5OFF, V5BETA, JETTON_WALLET, UNINIT] });
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, WalletStatesResponse)).toEqual([]);
    const [w1, w3, w4, w5, w5off, w5beta, jetton, uninit] = r.body.wallets;
    expect(w1).toMatchObject({ address: V1, is_wallet: true, wallet_type: 'wallet v1 r1', seqno: 3, status: 'active' });
    expect(w1).not.toHaveProperty('wallet_id');
    expect(w3).toMatchObject({ wallet_type: 'wallet v3 r2', seqno: 41, wallet_id: 698983191 });
    expect(w4).toEqual({
      address: V4,
      is_wallet: true,
      wallet_type: 'wallet v4 r2',
      seqno: 12,
      wallet_id: 698983191,
      balance: '7000000000',
      extra_currencies: { '100': '7', '239': '5' },
      status: 'active',
      code_hash: specs[2]!.code!.hash().toString('base64'),
      last_transaction_hash: Buffer.alloc(32, 7).toString('base64'),
      last_transaction_lt: '1',
    });
    expect(w5).toEqual({
      address: V5,
      is_wallet: true,
      wallet_type: 'wallet v5 r1',
      seqno: 77,
      wallet_id: 2147483409,
      balance: '5000000000',
      is_signature_allowed: true,
      status: 'active',
      code_hash: v5.init.code.hash().toString('base64'),
      last_transaction_hash: Buffer.alloc(32, 0xab).toString('base64'),
      last_transaction_lt: '56269616000005',
    });
    expect(w5off).toMatchObject({ seqno: 78, is_signature_allowed: false });
    // toncenter's reading of v5 beta's data: the int33 seqno's sign bit (0: signatures enabled) as is_signature_allowed.
    expect(w5beta).toMatchObject({ wallet_type: 'wallet v5 beta', seqno: 9, wallet_id: 0x12345678, is_signature_allowed: false });
    expect(jetton).toEqual({
      address: JETTON_WALLET,
      is_wallet: false,
      balance: '100000000',
      status: 'active',
      code_hash: jettonWallet.hash().toString('base64'),
      last_transaction_hash: Buffer.alloc(32, 7).toString('base64'),
      last_transaction_lt: '1',
    });
    expect(uninit).toEqual({ address: UNINIT, is_wallet: false, balance: '1000', status: 'uninit', last_transaction_hash: Buffer.alloc(32, 7).toString('base64'), last_transaction_lt: '1' });
  });

  it('422 without an address', async () => {
    expect((await db.callV3('walletStates')).body).toEqual({ error: 'address of account is required' });
  });
});
