// The jetton routes over a devnet indexed with the derive stage: every row against what the contracts'
// get-methods answer at the indexed block (getTokenData runs them live, at the head the index reached),
// transfers and burns against the messages that carried them, and every route's errors.
import { Address, beginCell, Cell, contractAddress, toNano } from '@ton/core';
import { jettonTransferBody, jettonWalletCode } from '../../../devnet/contracts/jetton';
import { messageBoc, signedTransfer } from '../../../testing/devnet';
import { genesisWallet } from '../../../testing/wallets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_JETTON, GENESIS_JETTON_AMOUNTS as A, GENESIS_TEXTS } from '../../../devnet/genesis/genesis';
import { createTrafficGenerator } from '../../../devnet/genesis';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { modelProblems } from '../../../testing/v3';
import { verifyJettons } from '../../../indexer/verify';
import { rawUpper } from '../../../ton/address';
import { JettonBurnsResponse, JettonMastersResponse, JettonTransfersResponse, JettonWalletsResponse } from '../models/jettons';
import type { JettonBurnJson, JettonMasterJson, JettonTransferJson, JettonWalletJson } from '../models/jettons';

let chain: TestChain;
const raw = (a: string) => rawUpper(Address.parse(a));
const acc = (name: string) => raw(chain.account(name).address);

type Masters = { jetton_masters: JettonMasterJson[]; address_book: Record<string, unknown>; metadata: Record<string, unknown> };
type Wallets = { jetton_wallets: JettonWalletJson[]; address_book: Record<string, unknown>; metadata: Record<string, unknown> };
type Transfers = { jetton_transfers: JettonTransferJson[]; address_book: Record<string, unknown> };
type Burns = { jetton_burns: JettonBurnJson[]; address_book: Record<string, unknown> };

/** What the contract's get-methods answer now (getTokenData runs them at the head). */
async function tokenData(address: string): Promise<Record<string, unknown>> {
  const r = await chain.callV2('get', 'getTokenData', { address });
  expect(r.body.ok).toBe(true);
  return r.body.result as Record<string, unknown>;
}

/** Every wallet row equals get_wallet_data at the indexed block, and the master's supply equals get_jetton_data. */
async function expectTablesMatchGetMethods() {
  const wallets = (await chain.callV3<Wallets>('jetton/wallets', { limit: 1000 })).body.jetton_wallets;
  expect(wallets.length).toBeGreaterThanOrEqual(3);
  for (const w of wallets) {
    const live = await tokenData(w.address);
    expect({ balance: w.balance, owner: w.owner, jetton: w.jetton }).toEqual({
      balance: live.balance,
      owner: raw(live.owner as string),
      jetton: raw(live.jetton as string),
    });
  }
  const [master] = (await chain.callV3<Masters>('jetton/masters')).body.jetton_masters;
  expect(master!.total_supply).toBe((await tokenData(master!.address)).total_supply);
  return wallets;
}

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v3-jettons', rounds: 3, index: true, derive: true });
}, 300_000);
afterAll(() => chain?.close());

describe('GET /jetton/masters', () => {
  it('the genesis jetton as get_jetton_data answers, content parsed from on-chain TEP-64', async () => {
    const r = await chain.callV3<Masters>('jetton/masters');
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, JettonMastersResponse)).toEqual([]);
    // The genesis has three jettons (ATLAS, the off-chain one and the governed one); ATLAS is this test's.
    expect(r.body.jetton_masters.map((x) => x.address).sort()).toEqual([acc('jetton_minter'), acc('ofc_jetton_minter'), acc('stablecoin_minter')].sort());
    const m = r.body.jetton_masters.find((x) => x.address === acc('jetton_minter'))!;
    const live = await tokenData(m.address);
    expect(m.address).toBe(acc('jetton_minter'));
    expect(m.total_supply).toBe(live.total_supply);
    // (The supply is not the genesis' mints minus its burn any more: traffic mints and burns too.)
    expect(m.mintable).toBe(live.mintable);
    expect(m.admin_address).toBe(acc('admin'));
    expect(m.jetton_content).toEqual({
      decimals: String(GENESIS_JETTON.decimals),
      description: GENESIS_JETTON.description,
      image: GENESIS_JETTON.image,
      name: GENESIS_JETTON.name,
      symbol: GENESIS_JETTON.symbol,
    });
    expect(m.jetton_wallet_code_hash).toBe(Cell.fromBase64(live.jetton_wallet_code as string).hash().toString('base64'));
    expect(Object.keys(r.body.address_book).sort()).toEqual([acc('admin'), acc('jetton_minter'), acc('ofc_jetton_minter'), acc('stablecoin_minter')].sort());
  });

  it('filters by address and admin_address', async () => {
    const minter = chain.account('jetton_minter');
    expect((await chain.callV3<Masters>('jetton/masters', { address: minter.friendly.bounceable })).body.jetton_masters).toHaveLength(1);
    expect((await chain.callV3<Masters>('jetton/masters', { admin_address: acc('admin') })).body.jetton_masters).toHaveLength(3);
    expect((await chain.callV3<Masters>('jetton/masters', { admin_address: acc('alice') })).body.jetton_masters).toEqual([]);
  });

  it('422 for a bad address or limit', async () => {
    expect((await chain.callV3('jetton/masters', { address: 'nobody' })).body).toEqual({ error: 'failed to decode: schema: error converting value for index 0 of "address"' });
    expect((await chain.callV3('jetton/masters', { limit: 1001 })).body).toEqual({ error: 'limit is not allowed: 1001 > 1000' });
  });
});

describe('GET /jetton/wallets', () => {
  it('every wallet equals get_wallet_data at the indexed block', async () => {
    const wallets = await expectTablesMatchGetMethods();
    const r = await chain.callV3<Wallets>('jetton/wallets', { limit: 1000 });
    expect(modelProblems(r.body, JettonWalletsResponse)).toEqual([]);
    const byOwner = new Map(wallets.filter((w) => w.jetton === acc('jetton_minter')).map((w) => [w.owner, w]));
    expect(byOwner.get(acc('alice'))!.address).toBe(acc('alice_jetton'));
    expect(byOwner.get(acc('bob'))!.address).toBe(acc('bob_jetton'));
    // the master of every wallet is in the side maps
    expect(Object.keys(r.body.address_book)).toContain(acc('jetton_minter'));
  });

  it('after more blocks the balances still follow the chain', async () => {
    const before = (await chain.callV3<Wallets>('jetton/wallets', { limit: 1000 })).body.jetton_wallets;
    for (let i = 0; i < 2; i++) {
      await createTrafficGenerator(chain.devnet.chain, chain.devnet.genesisAccounts, { seed: `more-${i}`, tps: 20 }).step();
      await chain.seal();
    }
    const after = await expectTablesMatchGetMethods();
    const changed = after.filter((w) => before.find((b) => b.address === w.address)?.last_transaction_lt !== w.last_transaction_lt);
    expect(changed.length).toBeGreaterThan(0);
  }, 120_000);

  it('filters: owner, jetton, address, exclude_zero_balance; sort orders by balance', async () => {
    const all = (await chain.callV3<Wallets>('jetton/wallets', { limit: 1000 })).body.jetton_wallets;
    const alice = (await chain.callV3<Wallets>('jetton/wallets', { owner_address: chain.account('alice').friendly.nonBounceable })).body.jetton_wallets;
    expect(alice.map((w) => w.address).sort()).toEqual([acc('alice_jetton'), acc('alice_ofc_jetton'), acc('alice_stablecoin')].sort());
    const byJetton = (await chain.callV3<Wallets>('jetton/wallets', { jetton_address: acc('jetton_minter'), limit: 1000 })).body.jetton_wallets;
    expect(byJetton.map((w) => w.address).sort()).toEqual(all.filter((w) => w.jetton === acc('jetton_minter')).map((w) => w.address).sort());
    const two = [acc('carol_jetton'), acc('bob_jetton')];
    expect((await chain.callV3<Wallets>('jetton/wallets', { address: two })).body.jetton_wallets.map((w) => w.address)).toEqual([...two].sort());
    const nonZero = (await chain.callV3<Wallets>('jetton/wallets', { exclude_zero_balance: true, limit: 1000 })).body.jetton_wallets;
    expect(nonZero.map((w) => w.address).sort()).toEqual(all.filter((w) => w.balance !== '0').map((w) => w.address).sort());
    const desc = (await chain.callV3<Wallets>('jetton/wallets', { sort: 'desc', limit: 1000 })).body.jetton_wallets.map((w) => BigInt(w.balance));
    expect(desc).toEqual([...desc].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    const asc = (await chain.callV3<Wallets>('jetton/wallets', { sort: 'a', limit: 2, offset: 1 })).body.jetton_wallets.map((w) => BigInt(w.balance));
    expect(asc).toEqual([...desc].reverse().slice(1, 3));
    const both = await chain.callV3<Wallets>('jetton/wallets', { jetton_address: [acc('jetton_minter'), acc('alice')], owner_address: acc('alice') });
    expect(both.body.jetton_wallets.map((w) => w.address)).toEqual([acc('alice_jetton')]);
  });

  it('metadata: a wallet with its owner, jetton and balance; the master with its on-chain name and symbol', async () => {
    const r = await chain.callV3<Wallets>('jetton/wallets', { owner_address: acc('bob'), jetton_address: acc('jetton_minter') });
    expect(modelProblems(r.body, JettonWalletsResponse)).toEqual([]);
    const w = r.body.jetton_wallets[0]!;
    expect(r.body.metadata[w.address]).toEqual({ is_indexed: true, token_info: [{ valid: true, type: 'jetton_wallets', extra: { balance: w.balance, jetton: w.jetton, owner: w.owner } }] });
    const master = {
      is_indexed: true,
      token_info: [
        {
          valid: true,
          type: 'jetton_masters',
          name: GENESIS_JETTON.name,
          symbol: GENESIS_JETTON.symbol,
          description: GENESIS_JETTON.description,
          image: GENESIS_JETTON.image,
          is_nsfw: false,
          is_scam: false,
          extra: { decimals: String(GENESIS_JETTON.decimals) },
        },
      ],
    };
    expect(r.body.metadata[acc('jetton_minter')]).toEqual(master);
    expect(Object.keys(r.body.metadata).sort()).toEqual([w.address, acc('jetton_minter')].sort());
    const m = await chain.callV3('metadata', { address: chain.account('jetton_minter').friendly.bounceable });
    expect(m.body).toEqual({ [acc('jetton_minter')]: master });
  });

  it('a contract posing as a wallet of the jetton is not listed, nor its transfers', async () => {
    // The genuine wallet code with a made-up balance: get_wallet_data names the genesis master, but the
    // master's get_wallet_address(alice) is another address.
    const minter = Address.parse(chain.account('jetton_minter').address);
    const alice = await genesisWallet(chain, 'alice');
    const data = beginCell().storeCoins(10n ** 18n).storeAddress(alice.address).storeAddress(minter).storeRef(jettonWalletCode()).endCell();
    const init = { code: jettonWalletCode(), data };
    const fake = contractAddress(0, init);
    const body = jettonTransferBody({ amount: 10n ** 15n, destination: Address.parse(chain.account('bob').address), responseDestination: alice.address, queryId: 4242n });
    const msg = await signedTransfer(alice, [{ to: fake, value: toNano('0.5'), bounce: false, init, body }]);
    expect((await chain.callV2('post', 'sendBoc', { boc: messageBoc(msg).toString('base64') })).status).toBe(200);
    await chain.seal();
    const state = await chain.db!.db.prisma.latestAccountState.findUnique({ where: { account: rawUpper(fake) } });
    expect(state?.accountStatus).toBe('active'); // it exists and ran the transfer request
    expect((await chain.callV3<Wallets>('jetton/wallets', { address: rawUpper(fake) })).body.jetton_wallets).toEqual([]);
    expect((await chain.callV3<Wallets>('jetton/wallets', { owner_address: acc('alice'), jetton_address: acc('jetton_minter') })).body.jetton_wallets.map((w) => w.address)).toEqual([acc('alice_jetton')]);
    const transfers = (await chain.callV3<Transfers>('jetton/transfers', { limit: 1000 })).body.jetton_transfers;
    expect(transfers.filter((t) => t.query_id === '4242')).toEqual([]);
  }, 60_000);

  it('errors: several jettons without exactly one owner, bad sort, address or limit', async () => {
    const many = await chain.callV3('jetton/wallets', { jetton_address: [acc('jetton_minter'), acc('alice')] });
    expect(many.status).toBe(422);
    expect(many.body).toEqual({ error: 'exact one owner_address required for multiple jetton_address' });
    expect((await chain.callV3('jetton/wallets', { sort: 'sideways' })).body).toEqual({ error: 'wrong value for sort parameter' });
    expect((await chain.callV3('jetton/wallets', { owner_address: '0:XYZ' })).status).toBe(422);
    expect((await chain.callV3('jetton/wallets', { exclude_zero_balance: 'maybe' })).status).toBe(422);
    expect((await chain.callV3('jetton/wallets', { limit: 5000 })).status).toBe(422);
  });
});

/** In-messages of non-aborted transactions on jetton wallets with the given opcode, by transaction hash. */
async function requests(opcode: number, aborted: boolean | undefined) {
  const wallets = (await chain.callV3<Wallets>('jetton/wallets', { limit: 1000 })).body.jetton_wallets.map((w) => w.address);
  const rows = await chain.db!.db.prisma.message.findMany({ where: { direction: 'in', opcode, destination: { in: wallets } }, select: { txHash: true, destination: true } });
  const txs = await chain.db!.db.prisma.transaction.findMany({ where: { hash: { in: rows.map((r) => r.txHash) } }, select: { hash: true, description: true } });
  return txs.filter((t) => aborted === undefined || ((t.description as { aborted?: boolean }).aborted ?? false) === aborted).map((t) => Buffer.from(t.hash).toString('base64'));
}

/** [hash, trace_id] of each transaction, as the transactions table has them (every one has a trace). */
async function tracesOf(hashes: string[]): Promise<[string, string][]> {
  const rows = await chain.db!.db.prisma.transaction.findMany({ where: { hash: { in: hashes.map((h) => Buffer.from(h, 'base64')) } }, select: { hash: true, traceId: true } });
  const trace = new Map(rows.map((r) => [Buffer.from(r.hash).toString('base64'), r.traceId ? Buffer.from(r.traceId).toString('base64') : null]));
  return hashes.map((h) => [h, trace.get(h) ?? 'missing']).map(([h, t]) => { expect(t, h!).not.toBeNull(); return [h!, t!]; });
}

describe('GET /jetton/transfers', () => {
  it('one row per transfer request a wallet accepted, lt descending; the genesis transfer with its comment', async () => {
    const r = await chain.callV3<Transfers>('jetton/transfers', { limit: 1000 });
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, JettonTransfersResponse)).toEqual([]);
    const list = r.body.jetton_transfers;
    expect(list.map((t) => t.transaction_hash).sort()).toEqual((await requests(0x0f8a7ea5, false)).sort());
    expect(list.length).toBeGreaterThan(2);
    const lts = list.map((t) => BigInt(t.transaction_lt));
    expect(lts).toEqual([...lts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    const toCarol = list.find((t) => t.query_id === '7' && t.source === acc('alice'))!;
    expect(toCarol).toMatchObject({
      destination: acc('carol'),
      amount: A.aliceToCarol.toString(),
      source_wallet: acc('alice_jetton'),
      jetton_master: acc('jetton_minter'),
      response_destination: acc('alice'),
      forward_ton_amount: '10000000',
      transaction_aborted: false,
      custom_payload: null,
    });
    expect(toCarol.decoded_forward_payload).toMatchObject({ comment: GENESIS_TEXTS.jettonToCarol });
    const payload = Cell.fromBase64(toCarol.forward_payload!).beginParse();
    expect(payload.loadUint(32)).toBe(0);
    expect(list.map((t) => [t.transaction_hash, t.trace_id])).toEqual(await tracesOf(list.map((t) => t.transaction_hash)));
  });

  it('filters: owner with direction, wallet, master, lt and time ranges; sort asc', async () => {
    const all = (await chain.callV3<Transfers>('jetton/transfers', { limit: 1000 })).body.jetton_transfers;
    const alice = acc('alice');
    const hashes = (xs: JettonTransferJson[]) => xs.map((t) => t.transaction_hash).sort();
    const q = async (query: Record<string, string | number | string[]>) => (await chain.callV3<Transfers>('jetton/transfers', { limit: 1000, ...query })).body.jetton_transfers;
    expect(hashes(await q({ owner_address: alice, direction: 'in' }))).toEqual(hashes(all.filter((t) => t.destination === alice)));
    expect(hashes(await q({ owner_address: alice, direction: 'out' }))).toEqual(hashes(all.filter((t) => t.source === alice)));
    expect(hashes(await q({ address: alice }))).toEqual(hashes(all.filter((t) => t.source === alice || t.destination === alice)));
    expect(hashes(await q({ jetton_wallet: acc('bob_jetton') }))).toEqual(hashes(all.filter((t) => t.source_wallet === acc('bob_jetton'))));
    expect(hashes(await q({ jetton_master: acc('jetton_minter') }))).toEqual(hashes(all.filter((t) => t.jetton_master === acc('jetton_minter'))));
    expect(await q({ jetton_master: acc('alice') })).toEqual([]);
    const mid = all[Math.floor(all.length / 2)]!;
    expect(hashes(await q({ start_lt: mid.transaction_lt }))).toEqual(hashes(all.filter((t) => BigInt(t.transaction_lt) >= BigInt(mid.transaction_lt))));
    expect(hashes(await q({ end_lt: mid.transaction_lt }))).toEqual(hashes(all.filter((t) => BigInt(t.transaction_lt) <= BigInt(mid.transaction_lt))));
    // A bound past int8 (uint64 is accepted) means "any", as on /transactions (routes/common.ts bounds).
    expect(hashes(await q({ end_lt: '18446744073709551615' }))).toEqual(hashes(all));
    expect(await q({ start_lt: '18446744073709551615' })).toEqual([]);
    const at = mid.transaction_now;
    expect(hashes(await q({ start_utime: at, end_utime: at }))).toEqual(hashes(all.filter((t) => t.transaction_now === at)));
    const asc = await q({ sort: 'asc' });
    expect(asc.map((t) => t.transaction_hash)).toEqual([...all].reverse().map((t) => t.transaction_hash));
    expect((await q({ limit: 2, offset: 1 })).map((t) => t.transaction_hash)).toEqual(all.slice(1, 3).map((t) => t.transaction_hash));
  });

  it('errors: direction, address, lt, sort, limit', async () => {
    expect((await chain.callV3('jetton/transfers', { owner_address: acc('alice'), direction: 'up' })).body).toEqual({ error: 'direction should be one of: in, out, both' });
    expect((await chain.callV3('jetton/transfers', { jetton_master: 'x' })).body).toEqual({ error: 'failed to decode: schema: error converting value for "jetton_master"' });
    expect((await chain.callV3('jetton/transfers', { start_lt: '-1' })).status).toBe(422);
    expect((await chain.callV3('jetton/transfers', { sort: 'up' })).body).toEqual({ error: 'wrong value for sort parameter' });
    expect((await chain.callV3('jetton/transfers', { limit: 1001 })).status).toBe(422);
  });
});

describe('GET /jetton/burns', () => {
  it('the genesis burn, against its message', async () => {
    const r = await chain.callV3<Burns>('jetton/burns');
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, JettonBurnsResponse)).toEqual([]);
    expect(r.body.jetton_burns.map((b) => b.transaction_hash).sort()).toEqual((await requests(0x595f07bc, undefined)).sort());
    const burn = r.body.jetton_burns.find((b) => b.query_id === '9')!;
    expect(burn).toMatchObject({
      owner: acc('bob'),
      jetton_wallet: acc('bob_jetton'),
      jetton_master: acc('jetton_minter'),
      amount: A.bobBurn.toString(),
      response_destination: acc('bob'),
      transaction_aborted: false,
      custom_payload: null,
    });
    // Traffic burns too: the address book names every burn's owner, wallet and master.
    const named = new Set(r.body.jetton_burns.flatMap((b) => [b.owner, b.jetton_wallet, b.jetton_master]));
    expect(Object.keys(r.body.address_book).sort()).toEqual([...named].sort());
    expect([...named]).toEqual(expect.arrayContaining([acc('bob'), acc('bob_jetton'), acc('jetton_minter')]));
    expect(r.body.jetton_burns.map((b) => [b.transaction_hash, b.trace_id])).toEqual(await tracesOf(r.body.jetton_burns.map((b) => b.transaction_hash)));
  });

  it('filters by owner (owner_address or address), wallet and master', async () => {
    const n = async (query: Record<string, string>) => (await chain.callV3<Burns>('jetton/burns', { limit: '1000', ...query })).body.jetton_burns.length;
    const all = (await chain.callV3<Burns>('jetton/burns', { limit: 1000 })).body.jetton_burns;
    expect(all.length).toBeGreaterThan(0);
    const count = (f: (b: JettonBurnJson) => boolean) => all.filter(f).length;
    expect(await n({ owner_address: acc('bob') })).toBe(count((b) => b.owner === acc('bob')));
    expect(await n({ owner_address: acc('bob') })).toBeGreaterThan(0);
    expect(await n({ address: acc('bob') })).toBe(count((b) => b.owner === acc('bob')));
    expect(await n({ owner_address: acc('faucet') })).toBe(0); // the faucet never holds ATLAS
    expect(await n({ jetton_wallet: acc('bob_jetton') })).toBe(count((b) => b.jetton_wallet === acc('bob_jetton')));
    expect(await n({ jetton_master: acc('jetton_minter') })).toBe(count((b) => b.jetton_master === acc('jetton_minter')));
    expect(await n({ jetton_master: acc('admin') })).toBe(0);
  });

  it('errors: address, sort, limit', async () => {
    expect((await chain.callV3('jetton/burns', { jetton_wallet: 'bad' })).status).toBe(422);
    expect((await chain.callV3('jetton/burns', { sort: 'x' })).status).toBe(422);
    expect((await chain.callV3('jetton/burns', { limit: 1001 })).status).toBe(422);
  });
});

// Last: it changes rows.
describe('index:verify over the jetton tables', () => {
  it('agrees with the chain, then names a wrong balance and a missing wallet', async () => {
    const prisma = chain.db!.db.prisma;
    const seqno = (await prisma.indexerState.findUnique({ where: { id: 'main' } }))!.lastMcSeqno!;
    const clean = await verifyJettons({ prisma, client: chain.lite, tvm: chain.tvm, seqno });
    expect(clean.differences).toEqual([]);
    expect(clean.masters).toBe(3);
    expect(clean.wallets).toBe(await prisma.jettonWallet.count());

    await prisma.jettonWallet.update({ where: { address: acc('alice_jetton') }, data: { balance: '1' } });
    await prisma.jettonWallet.delete({ where: { address: acc('carol_jetton') } });
    const bad = await verifyJettons({ prisma, client: chain.lite, tvm: chain.tvm, seqno });
    expect(bad.differences).toEqual([
      expect.stringMatching(new RegExp(`^jetton wallet ${acc('alice_jetton')}: balance 1 != \\d+$`)),
      `jetton_wallet ${acc('carol_jetton')} is missing from jetton_wallets`,
    ]);
  }, 60_000);
});
