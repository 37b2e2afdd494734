// @ton/ton's TonClient, unmodified, against Atlas's /api/v2/jsonRPC over real HTTP on the devnet.
import { Address, beginCell, Cell } from '@ton/core';
import { TonClient, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpTestServer } from '../../testing/http-server';
import { startTestChain, type TestChain } from '../../testing/chain';

let chain: TestChain;
let server: HttpTestServer;
let client: TonClient;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v2-compat-tonclient', rounds: 1 });
  server = await chain.serve();
  client = new TonClient({ endpoint: `${server.url}/api/v2/jsonRPC` });
});
afterAll(async () => {
  await server?.close();
  await chain?.close();
});

const address = (name: string) => Address.parse(chain.account(name).address);
const publicKey = (name: string) => Buffer.from(chain.account(name).secret_key_hex!, 'hex').subarray(32);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const v2 = async (method: string, params: Record<string, unknown>) => (await chain.callV2('post', method, params)).body.result as any;

describe('TonClient over /api/v2/jsonRPC', () => {
  it('getBalance is the account balance', async () => {
    const balance = await client.getBalance(address('alice'));
    expect(balance).toBeGreaterThan(0n);
    expect(balance.toString()).toBe(await v2('getAddressBalance', { address: chain.account('alice').address }));
    expect(await client.getBalance(Address.parse(`0:${'00'.repeat(32)}`))).toBe(0n);
  });

  it('getContractState of active, frozen and uninitialized accounts', async () => {
    const alice = await client.getContractState(address('alice'));
    expect(alice.state).toBe('active');
    expect(Cell.fromBoc(alice.code!)[0].hash()).toEqual(WalletContractV4.create({ workchain: 0, publicKey: publicKey('alice') }).init.code.hash());
    expect(Cell.fromBoc(alice.data!)[0].hash()).not.toEqual(Buffer.alloc(32));
    const info = await v2('getAddressInformation', { address: chain.account('alice').address });
    expect(alice.lastTransaction).toEqual({ lt: info.last_transaction_id.lt, hash: info.last_transaction_id.hash });
    expect(alice.blockId.seqno).toBe(chain.devnet.chain.lastSeqno);
    expect((await client.getContractState(address('frozen'))).state).toBe('frozen');
    const uninit = await client.getContractState(address('uninit_receiver'));
    expect(uninit).toMatchObject({ state: 'uninitialized', code: null, data: null });
  });

  it('isContractDeployed', async () => {
    expect(await client.isContractDeployed(address('bob'))).toBe(true);
    expect(await client.isContractDeployed(address('uninit_receiver'))).toBe(false);
    expect(await client.isContractDeployed(Address.parse(`0:${'00'.repeat(32)}`))).toBe(false);
  });

  it("runMethod: a wallet's seqno, directly and through the opened wallet contracts", async () => {
    const info = await v2('getWalletInformation', { address: chain.account('alice').address });
    const res = await client.runMethod(address('alice'), 'seqno');
    expect(res.gas_used).toBeGreaterThan(0);
    expect(res.stack.readNumber()).toBe(info.seqno);
    const alice = client.open(WalletContractV4.create({ workchain: 0, publicKey: publicKey('alice') }));
    expect(alice.address.equals(address('alice'))).toBe(true);
    expect(await alice.getSeqno()).toBe(info.seqno);
    const v5 = client.open(WalletContractV5R1.create({ workchain: 0, publicKey: publicKey('bob') }));
    expect(v5.address.equals(address('bob'))).toBe(true);
    expect(await v5.getSeqno()).toBe((await v2('getWalletInformation', { address: chain.account('bob').address })).seqno);
  });

  it("runMethod: the jetton master's get_wallet_address with an address argument", async () => {
    for (const owner of ['alice', 'bob', 'carol']) {
      const res = await client.runMethod(address('jetton_minter'), 'get_wallet_address', [
        { type: 'slice', cell: beginCell().storeAddress(address(owner)).endCell() },
      ]);
      expect(res.stack.readAddress().equals(address(`${owner}_jetton`)), owner).toBe(true);
    }
  });

  it('runMethod: get_jetton_data', async () => {
    const token = await v2('getTokenData', { address: chain.account('jetton_minter').address });
    const { stack } = await client.runMethod(address('jetton_minter'), 'get_jetton_data');
    expect(stack.readBigNumber().toString()).toBe(token.total_supply);
    expect(stack.readBoolean()).toBe(true);
    expect(stack.readAddress().equals(address('admin'))).toBe(true);
    const content = stack.readCell().beginParse();
    expect(content.loadUint(8)).toBe(0); // on-chain TEP-64 content
    expect(stack.readCell().toBoc().toString('base64')).toBe(token.jetton_wallet_code);
    expect(stack.remaining).toBe(0);
  });

  it('runMethod on a method the contract lacks throws with its exit code', async () => {
    await expect(client.runMethod(address('alice'), 'get_jetton_data')).rejects.toThrow(/exit_code: 11/);
  });
});
